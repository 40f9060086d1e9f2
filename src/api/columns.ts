/**
 * The columns of `-o csv` and `-o tsv` for each list resource, kept beside the endpoint
 * table (contract section 4): the header depends only on the command and its flags, never
 * on the data. Top-level fields come in the spec's order (section 2.2, its `fields`
 * lists where it gives one); nested objects are flattened to the paths named here
 * (`evidence.level`, `rating.average`). A value where the map expects a plain value (an
 * object, a list of objects) is written as compact JSON in that column's cell; whatever
 * the map does not name (a field a newer API adds, a nested key it does not know) goes
 * as compact JSON into the last column, `other`, so nothing is dropped and no column is
 * added. `--fields a,b` gives exactly those columns instead (a name with sub-columns
 * here, such as `evidence`, gives its sub-columns).
 */
import type { Resource } from "../core/command.js";
import { STUDY_FIELDS } from "./enums.js";

/** The last column of a mapped header: what the columns before it do not hold. */
export const OTHER_COLUMN = "other";

export const COLUMN_MAPS: Partial<Record<Resource, readonly string[]>> = {
  peptide: [
    "id",
    "name",
    "also_known_as",
    "categories",
    "summary",
    "research_topics",
    "classification",
    "fda_status",
    "evidence.level",
    "evidence.label",
    "evidence.human_studies",
    "evidence.preclinical_studies",
    "evidence.secondary_reports",
    "url",
    "regulatory_status",
    "content_reviewed_at",
    "api_url",
  ],
  // A study as a profile cites it (`peptides studies`) also has the editors' summary.
  study: [...STUDY_FIELDS, "finding_summary"],
  vendor: [
    "id",
    "slug",
    "name",
    "description",
    "logo_url",
    "country",
    "region",
    "website_url",
    "profile_url",
    "product_categories",
    "rating.average",
    "rating.count",
    "rating.verified_count",
    "catalog.product_count",
    "catalog.peptide_count",
    "catalog.last_checked_at",
    "shipping.coverage",
    "shipping.destinations",
    "shipping.exclusions",
    "shipping.free_shipping.available",
    "shipping.free_shipping.threshold",
    "shipping.returns_accepted",
    "api_url",
  ],
  offer: [
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
  product: ["id", "peptide.id", "peptide.name", "form", "name", "product_category", "price_ranges", "vendor_count"],
  category: ["id", "name", "url", "peptide_count", "peptides"],
  "research-area": ["id", "name", "description", "url", "peptide_count", "study_count", "peptides"],
};

/** The header for `resource` (its map and `other`), or `--fields` expanded by the map. */
export function mappedColumns(resource: Resource, fields?: readonly string[]): string[] | undefined {
  const map = COLUMN_MAPS[resource];
  if (!map) return undefined;
  if (!fields || fields.length === 0) return [...map, OTHER_COLUMN];
  return fields.flatMap((f) => {
    const under = map.filter((c) => c.startsWith(`${f}.`));
    return under.length > 0 ? under : [f];
  });
}

/**
 * What of `item` the `columns` do not hold, or undefined when they hold it all. A value
 * at a path that only leads to columns (`shipping.free_shipping: null`) is held by their
 * empty cells.
 */
export function leftOver(item: unknown, columns: readonly string[]): unknown {
  const walk = (value: unknown, path: string): unknown => {
    if (columns.includes(path)) return undefined;
    const leads = columns.some((c) => c.startsWith(`${path}.`));
    if (value === null || typeof value !== "object" || Array.isArray(value))
      return leads && (value === null || value === undefined) ? undefined : value;
    if (!leads && path !== "") return value;
    const rest: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const left = walk(v, path === "" ? k : `${path}.${k}`);
      if (left !== undefined) rest[k] = left;
    }
    return Object.keys(rest).length > 0 ? rest : undefined;
  };
  return walk(item, "");
}
