/**
 * What a command's result holds, one descriptor per kind: the words for counting it
 * ("1 study", "40 studies") and, for the kinds a list holds, the columns of `-o csv` and
 * `-o tsv`. `Resource` is the set of these names, so every map keyed by it elsewhere
 * (table columns, card layouts) is a total `Record` that the compiler checks.
 *
 * CSV columns (docs/api.md#resources): top-level fields in the order the API documents,
 * nested objects flattened to the paths named here (`evidence.level`). The header depends
 * only on the command and its flags, never on the data; what the map does not name goes
 * as compact JSON into the last column, `other` (api/csv-columns.ts).
 */
import { PEPTIDE_COLUMNS, STUDY_FIELDS, VENDOR_COLUMNS } from "./enums.js";

export interface ResourceDescriptor {
  /** Singular and plural, for "wrote 3 studies" and "Fetching studies". */
  readonly nouns: readonly [string, string];
  /**
   * The CSV/TSV header of a list of these (before `other`), or null when lists of it
   * are written with the columns of their first item (no fixed set of fields).
   */
  readonly csv: readonly string[] | null;
}

const ITEMS = ["item", "items"] as const;

export const RESOURCES = {
  index: { nouns: ITEMS, csv: null },
  health: { nouns: ITEMS, csv: null },
  peptide: { nouns: ["peptide", "peptides"], csv: PEPTIDE_COLUMNS },
  "peptide-profile": { nouns: ["peptide", "peptides"], csv: null },
  research: { nouns: ITEMS, csv: null },
  regulatory: { nouns: ITEMS, csv: null },
  category: { nouns: ["category", "categories"], csv: ["id", "name", "url", "peptide_count", "peptides"] },
  "research-area": {
    nouns: ["research area", "research areas"],
    csv: ["id", "name", "description", "url", "peptide_count", "study_count", "peptides"],
  },
  search: { nouns: ["result", "results"], csv: null },
  study: { nouns: ["study", "studies"], csv: STUDY_FIELDS },
  // A study as a profile cites it (`peptides studies`) also has the editors' summary.
  "cited-study": { nouns: ["study", "studies"], csv: [...STUDY_FIELDS, "finding_summary"] },
  "study-detail": { nouns: ["study", "studies"], csv: null },
  vendor: { nouns: ["vendor", "vendors"], csv: VENDOR_COLUMNS },
  "vendor-detail": { nouns: ["vendor", "vendors"], csv: null },
  "vendor-shipping": { nouns: ITEMS, csv: null },
  "vendor-compare": { nouns: ITEMS, csv: null },
  offer: {
    nouns: ["offer", "offers"],
    csv: [
      "id",
      "peptide.id",
      "peptide.name",
      "vendor.id",
      "vendor.name",
      "vendor.slug",
      "product_name",
      "form",
      "price",
      "currency",
      "last_seen_at",
      "product_page_url",
      "in_stock",
    ],
  },
  product: {
    nouns: ["product", "products"],
    csv: ["id", "peptide.id", "peptide.name", "form", "name", "product_category", "price_ranges", "vendor_count"],
  },
  // A row of the library's change log (`pep changes`): its CSV columns are the row's own.
  change: { nouns: ["change", "changes"], csv: null },
  config: { nouns: ITEMS, csv: null },
  "auth-status": { nouns: ITEMS, csv: null },
  profile: { nouns: ["profile", "profiles"], csv: null },
  generic: { nouns: ITEMS, csv: null },
} as const satisfies Record<string, ResourceDescriptor>;

/** Which resource a result holds: picks default columns, the card layout, the count's words. */
export type Resource = keyof typeof RESOURCES;
