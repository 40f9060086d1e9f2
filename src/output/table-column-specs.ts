/**
 * The default columns of each resource's table, as specs: candidate paths (the spec
 * leaves many field names open), how much each matters, how narrow it may be cut, and the
 * query parameter whose one value it would repeat. table-columns.ts turns them into
 * columns; docs/cli.md#tables says the rules: the column that leads to the next command
 * (an id; a product's peptide and form) is never dropped while prose is shown, and short
 * facts (a year, an evidence level, a count) outrank prose, which is cut first.
 */
import type { Resource } from "../core/command.js";
import { humanCell, scalarCell, type Cell } from "./cells.js";
import {
  CLASSIFICATION_LABELS,
  CONTENT_TYPE_LABELS,
  EVIDENCE_LEVEL_LABELS,
  type Labels,
  REGULATORY_LABELS,
  shortStatus,
} from "./labels.js";
import { cleanLine } from "../core/sanitize.js";
import { getPath, isPlainObject, NOT_DOCUMENTED } from "./value-paths.js";
import { truncate } from "./width.js";

export interface ColumnSpec {
  header: string;
  /** Candidate paths, first present wins. */
  paths: string[];
  /** Paths whose presence shows the column (defaults to `paths`). */
  presence?: string[];
  /** Link the cell to the item's page (`url`, or these paths in order). */
  linkTo?: string[];
  cell?(item: unknown): Cell;
  fixed?: boolean;
  wide?: boolean;
  /** Wraps onto more lines rather than being cut (a title, a name). */
  wrap?: boolean;
  priority: number;
  min?: number;
  filters?: readonly string[];
  /** Enumerated values shown by their short label; the column's minimum is the widest. */
  labels?: Labels;
  /** A timestamp shown as its date. */
  date?: boolean;
}

export const firstDefined = (item: unknown, paths: readonly string[]): unknown => {
  for (const p of paths) {
    const v = getPath(item, p);
    if (v !== undefined) return v;
  }
  return undefined;
};

export const ITEM_URL = ["url", "profile_url"];

/** Text compared without case, spaces or punctuation: `lyophilized-powder` is in "… lyophilized powder". */
export const loose = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, "");

/** Offer product: "BPC-157 (capsules)". */
function offerProduct(item: unknown): Cell {
  const name = firstDefined(item, ["product_name", "product.name", "peptide.name", "name"]);
  const form = firstDefined(item, ["form", "product.form"]);
  const n = name === undefined ? "" : scalarCell(name).text;
  const f = form === undefined || form === null ? "" : scalarCell(form).text;
  // "BPC-157 solution", not "BPC-157 solution (solution)": the form is said once.
  if (n && f) return { text: loose(n).includes(loose(f)) ? n : `${n} (${f})` };
  if (n || f) return { text: n || f };
  return name === null ? scalarCell(null) : { text: "" };
}

/** Offer price: the decimal string as received, with its currency ("1249.00 USD"). */
function offerPrice(item: unknown): Cell {
  const price = getPath(item, "price");
  const currency = getPath(item, "currency");
  if (price === null || price === undefined) return scalarCell(price);
  if (isPlainObject(price)) return humanCell(price);
  // The amount is never cut; a currency is a code of a few letters, and text passing for one is cut.
  const code = typeof currency === "string" ? cleanLine(currency) : undefined;
  const cur = code === undefined ? "" : ` ${truncate(code, 8)}`;
  return { text: `${cleanLine(String(price))}${cur}` };
}

/**
 * A product's price ranges, each as received with its currency, the offer counts left to
 * VENDORS: "1049.00–1249.99 USD, 989.50 EUR" (a range whose ends are equal is one price).
 */
function priceRanges(item: unknown): Cell {
  const v = firstDefined(item, ["price_ranges", "prices", "price_range", "price"]);
  const ranges = Array.isArray(v) ? v : [v];
  if (v === undefined || v === null || !ranges.every(isPlainObject)) return humanCell(v);
  const text = ranges.map((r) => {
    const { min, max, currency } = r as Record<string, unknown>;
    const span =
      min !== undefined && max !== undefined && min !== max
        ? `${String(min)}–${String(max)}`
        : String(min ?? max ?? "");
    return cleanLine(`${span}${typeof currency === "string" ? ` ${currency}` : ""}`.trim());
  });
  return { text: text.join(", ") };
}

/** A change's time as `2026-05-30 16:00` (UTC, to the minute), or as any value. */
function loggedAt(item: unknown): Cell {
  const v = getPath(item, "at");
  const m = typeof v === "string" ? /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(v) : null;
  return m ? { text: `${m[1]} ${m[2]}` } : humanCell(v);
}

/** A value that an added or removed row has not (its field, old and new values): blank, not "unknown". */
const blankIfNull =
  (path: string) =>
  (item: unknown): Cell => {
    const v = getPath(item, path);
    return v === null || v === undefined ? { text: "" } : humanCell(v);
  };

/** A stored setting that may be absent: its value, or a dim "not set". */
const setting =
  (path: string) =>
  (item: unknown): Cell => {
    const v = getPath(item, path);
    return v === null || v === undefined ? { text: "not set", dim: true } : humanCell(v);
  };

/** A free-text status as its first clause ("Investigational; not approved": "Investigational"). */
const shortened =
  (path: string) =>
  (item: unknown): Cell => {
    const v = getPath(item, path);
    return typeof v === "string" && v !== NOT_DOCUMENTED ? { text: shortStatus(cleanLine(v)) } : humanCell(v);
  };

/** The narrowest a title is beside other columns: narrower, it goes on lines of its own. */
export const TITLE_MIN = 40;

/** Studies, as listed and as a profile cites them: the title is what the reader came for. */
const STUDY_COLUMNS: ColumnSpec[] = [
  { header: "ID", paths: ["id"], linkTo: ["url", "source_url"], fixed: true, priority: 100 },
  { header: "YEAR", paths: ["publication_year", "year"], priority: 95, min: 4 },
  // Prose, what the reader came for: whole or wrapped, at least 40 wide beside the short
  // facts, else on lines of its own under them; a journal gives way to it.
  {
    header: "TITLE",
    paths: ["title"],
    linkTo: ["url", "source_url"],
    wide: true,
    wrap: true,
    priority: 60,
    min: TITLE_MIN,
  },
  { header: "JOURNAL", paths: ["journal", "journal.name"], priority: 30, min: 20 },
  {
    header: "EVIDENCE",
    paths: ["evidence_classification", "evidence_classification_label"],
    labels: CLASSIFICATION_LABELS,
    priority: 85,
    filters: ["evidence_classification"],
  },
];

/**
 * The default columns of each resource's table; null where a list of it has no fixed
 * fields (the first item's scalar fields are shown). A new resource says which.
 */
export const DEFAULTS: Record<Resource, ColumnSpec[] | null> = {
  index: null,
  health: null,
  "peptide-profile": null,
  research: null,
  regulatory: null,
  search: null,
  "study-detail": null,
  "vendor-detail": null,
  "vendor-shipping": null,
  "vendor-compare": null,
  config: null,
  "auth-status": null,
  // `pep changes`: when (to the minute, whole), what, and for a changed field its old and
  // new values, which wrap; an added or removed item has no field, and shows none.
  change: [
    { header: "AT", paths: ["at"], cell: loggedAt, fixed: true, priority: 90 },
    { header: "RESOURCE", paths: ["resource"], priority: 45, min: 8 },
    { header: "ID", paths: ["id"], fixed: true, priority: 100 },
    { header: "KIND", paths: ["kind"], priority: 95, min: 7 },
    { header: "FIELD", paths: ["field"], cell: blankIfNull("field"), priority: 60, min: 8 },
    { header: "OLD", paths: ["old_value"], cell: blankIfNull("old_value"), wrap: true, priority: 50, min: 10 },
    { header: "NEW", paths: ["new_value"], cell: blankIfNull("new_value"), wrap: true, priority: 50, min: 10 },
  ],
  generic: null,
  // `pep config profiles`: the one in use marked, a key said stored or not (never shown).
  profile: [
    { header: "PROFILE", paths: ["name"], fixed: true, priority: 100 },
    {
      header: "IN USE",
      paths: ["in_use"],
      cell: (item) => ({ text: getPath(item, "in_use") === true ? "yes" : "" }),
      priority: 90,
    },
    {
      header: "API KEY",
      paths: ["has_key"],
      cell: (item) => (getPath(item, "has_key") === true ? { text: "stored" } : { text: "not set", dim: true }),
      priority: 80,
    },
    { header: "BASE URL", paths: ["base_url"], cell: setting("base_url"), fixed: true, priority: 70 },
  ],
  peptide: [
    { header: "ID", paths: ["id", "slug"], linkTo: ITEM_URL, fixed: true, priority: 100 },
    { header: "NAME", paths: ["name"], linkTo: ITEM_URL, wrap: true, priority: 60, min: 12 },
    { header: "CATEGORIES", paths: ["categories"], priority: 70, min: 20, filters: ["category"] },
    {
      header: "EVIDENCE",
      paths: ["evidence.level", "evidence_level"],
      labels: EVIDENCE_LEVEL_LABELS,
      priority: 90,
      filters: ["evidence_level"],
    },
    {
      header: "REGULATORY",
      paths: ["regulatory_status"],
      labels: REGULATORY_LABELS,
      priority: 50,
      filters: ["regulatory_status"],
    },
    { header: "FDA", paths: ["fda_status"], cell: shortened("fda_status"), priority: 40, min: 12 },
  ],
  study: STUDY_COLUMNS,
  "cited-study": STUDY_COLUMNS,
  vendor: [
    { header: "ID", paths: ["id", "slug"], linkTo: ["url", "profile_url", "website_url"], fixed: true, priority: 100 },
    {
      header: "NAME",
      paths: ["name"],
      linkTo: ["url", "profile_url", "website_url"],
      wrap: true,
      priority: 90,
      min: 16,
    },
    { header: "COUNTRY", paths: ["country"], priority: 50, min: 7, filters: ["country"] },
    { header: "RATING", paths: ["rating.average"], priority: 70, min: 6 },
    {
      header: "REVIEWS",
      paths: ["rating.count", "rating.review_count", "rating.reviews", "review_count"],
      priority: 60,
      min: 7,
    },
    { header: "CATEGORIES", paths: ["product_categories"], priority: 40, min: 16, filters: ["product_category"] },
  ],
  // Each offer leads on: its id, and its vendor's for `pep vendors get` and `compare`.
  offer: [
    { header: "ID", paths: ["id"], fixed: true, priority: 85 },
    {
      header: "VENDOR ID",
      paths: ["vendor.id", "vendor_id", "vendor.slug"],
      linkTo: ["vendor.url", "vendor.profile_url"],
      fixed: true,
      priority: 80,
    },
    {
      header: "VENDOR",
      paths: ["vendor.name", "vendor_name", "vendor"],
      linkTo: ["vendor.url", "vendor.profile_url"],
      wrap: true,
      priority: 60,
      min: 14,
      filters: ["vendor"],
    },
    {
      header: "PRODUCT",
      paths: ["product_name"],
      presence: ["product_name", "product.name", "peptide.name", "name", "form", "product.form"],
      linkTo: ["product_page_url", "url"],
      cell: offerProduct,
      wrap: true,
      priority: 70,
      min: 16,
    },
    {
      header: "PRICE",
      paths: ["price"],
      presence: ["price", "currency"],
      cell: offerPrice,
      fixed: true,
      priority: 100,
    },
    { header: "LAST SEEN", paths: ["last_seen_at"], date: true, priority: 40 },
    {
      header: "LINK",
      paths: ["product_page_url", "url"],
      linkTo: ["product_page_url", "url"],
      fixed: true,
      priority: 20,
    },
  ],
  category: [
    { header: "ID", paths: ["id", "slug"], linkTo: ITEM_URL, fixed: true, priority: 100 },
    { header: "NAME", paths: ["name", "label", "title"], linkTo: ITEM_URL, wrap: true, priority: 60, min: 12 },
    { header: "COUNT", paths: ["peptide_count", "count", "total"], priority: 80, min: 5 },
    { header: "PEPTIDES", paths: ["peptides", "profiles"], priority: 70, min: 20 },
  ],
  "research-area": [
    { header: "ID", paths: ["id", "slug"], linkTo: ITEM_URL, fixed: true, priority: 100 },
    {
      header: "NAME",
      paths: ["name", "area", "title", "label"],
      linkTo: ITEM_URL,
      wrap: true,
      priority: 60,
      min: 12,
    },
    { header: "COUNT", paths: ["peptide_count", "count", "study_count"], priority: 80, min: 5 },
    { header: "PEPTIDES", paths: ["peptides", "profiles"], priority: 70, min: 20 },
  ],
  // A product leads to its offers: `pep prices --peptide <PEPTIDE> --form <FORM>`.
  // The peptide's id and the form are the handle (never cut, kept before the name), the
  // prices the fact; the name is prose, cut first.
  product: [
    { header: "ID", paths: ["id"], fixed: true, priority: 30 },
    { header: "NAME", paths: ["name", "product_name", "title"], linkTo: ITEM_URL, wrap: true, priority: 60, min: 14 },
    {
      header: "PEPTIDE",
      paths: ["peptide.id", "peptide_id", "peptide.slug", "peptide.name", "peptide_name", "peptide"],
      fixed: true,
      priority: 120,
      filters: ["peptide"],
    },
    { header: "FORM", paths: ["form"], fixed: true, priority: 115, filters: ["form"] },
    {
      header: "PRICES",
      paths: ["price_ranges", "prices", "price_range", "price"],
      cell: priceRanges,
      fixed: true,
      priority: 100,
    },
    { header: "VENDORS", paths: ["vendor_count"], priority: 80, min: 7 },
  ],
};

/** Content items of a search (FAQ, articles, courses). */
export const CONTENT_COLUMNS: ColumnSpec[] = [
  {
    header: "TITLE",
    paths: ["title", "name", "question"],
    linkTo: ITEM_URL,
    wide: true,
    wrap: true,
    priority: 60,
    min: TITLE_MIN,
  },
  { header: "TYPE", paths: ["type", "kind", "content_type"], labels: CONTENT_TYPE_LABELS, priority: 70 },
  {
    header: "PEPTIDE",
    paths: ["peptide.id", "peptide.name", "peptide"],
    presence: ["peptide"],
    // An article about no peptide in particular: "none", not "unknown".
    cell: (item) => {
      const v = firstDefined(item, ["peptide.id", "peptide.name", "peptide"]);
      return v === null || v === undefined ? { text: "none", dim: true } : humanCell(v);
    },
    priority: 40,
    min: 12,
  },
  // The row's handle: whole, never cut (a cut address cannot be opened); search.ts stacks
  // title and address when the width cannot hold both.
  { header: "URL", paths: ["url"], linkTo: ["url"], fixed: true, priority: 95 },
];
