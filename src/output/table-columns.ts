/**
 * Which columns a table shows: `--fields` when given, else sensible defaults per
 * resource, else the first few scalar keys. Each default lists candidate paths, since
 * the spec leaves many field names open; a column none of whose paths is present in the
 * first item is left out rather than shown empty.
 */
import type { Resource } from "../core/command.js";
import { humanCell, idCell, isIdKey, scalarCell, type Cell } from "./cells.js";
import {
  CLASSIFICATION_LABELS,
  CONTENT_TYPE_LABELS,
  dateOnly,
  EVIDENCE_LEVEL_LABELS,
  labelOf,
  type Labels,
  REGULATORY_LABELS,
  shortStatus,
  widestLabel,
} from "./labels.js";
import { cleanLine } from "../core/sanitize.js";
import { expandFields, getPath, isPlainObject, isScalar, NOT_DOCUMENTED } from "./values.js";
import { displayWidth } from "./width.js";

export interface Column {
  /** The path (or a name for a combined column such as the offer price). */
  key: string;
  header: string;
  cell(item: unknown): Cell;
  /** Never cut (an id, a URL, money): keeps its natural width, or is hidden whole when it cannot. */
  fixed?: boolean;
  /** The column the reader came for (a title): a double share of the room. */
  wide?: boolean;
  /**
   * How much the column matters: when the width runs short, the lowest go first, whole
   * (docs/cli.md#tables). Absent: by position, the leftmost kept longest.
   */
  priority?: number;
  /** The narrowest it is cut to (its header is never cut); narrower than that, it is hidden. */
  min?: number;
  /** Query parameters whose one value every row would repeat here (`peptide` for PEPTIDE). */
  filters?: readonly string[];
  /** Named with `--fields`: the user's choice, kept (cut if need be) before any is hidden. */
  chosen?: boolean;
  /** The paths its cells link to, and its cells without the link (one link a row is enough). */
  links?: readonly string[];
  unlinked?(item: unknown): Cell;
}

/** The narrowest a default column is cut to when its definition names none. */
export const DEFAULT_MIN = 10;

/** The narrowest a column is cut to: its `min`, and never less than its header. */
export function minWidthOf(column: Pick<Column, "header" | "min">): number {
  return Math.max(displayWidth(column.header), column.min ?? DEFAULT_MIN);
}

interface ColumnSpec {
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
  priority: number;
  min?: number;
  filters?: readonly string[];
  /** Enumerated values shown by their short label; the column's minimum is the widest. */
  labels?: Labels;
  /** A timestamp shown as its date. */
  date?: boolean;
}

const firstDefined = (item: unknown, paths: readonly string[]): unknown => {
  for (const p of paths) {
    const v = getPath(item, p);
    if (v !== undefined) return v;
  }
  return undefined;
};

const ITEM_URL = ["url", "profile_url"];

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
  const cur = typeof currency === "string" ? ` ${cleanLine(currency)}` : "";
  return { text: `${cleanLine(String(price))}${cur}` };
}

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

/** Studies, as listed and as a profile cites them: the title is what the reader came for. */
const STUDY_COLUMNS: ColumnSpec[] = [
  { header: "ID", paths: ["id"], linkTo: ["url", "source_url"], fixed: true, priority: 100 },
  { header: "YEAR", paths: ["publication_year", "year"], priority: 70, min: 4 },
  { header: "TITLE", paths: ["title"], linkTo: ["url", "source_url"], wide: true, priority: 90, min: 20 },
  { header: "JOURNAL", paths: ["journal", "journal.name"], priority: 30, min: 20 },
  {
    header: "EVIDENCE",
    paths: ["evidence_classification", "evidence_classification_label"],
    labels: CLASSIFICATION_LABELS,
    priority: 80,
    filters: ["evidence_classification"],
  },
];

/**
 * The default columns of each resource's table; null where a list of it has no fixed
 * fields (the first item's scalar fields are shown). A new resource says which.
 */
const DEFAULTS: Record<Resource, ColumnSpec[] | null> = {
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
    { header: "NAME", paths: ["name"], linkTo: ITEM_URL, priority: 60, min: 12 },
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
    { header: "NAME", paths: ["name"], linkTo: ["url", "profile_url", "website_url"], priority: 90, min: 16 },
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
    { header: "NAME", paths: ["name", "label", "title"], linkTo: ITEM_URL, priority: 60, min: 12 },
    { header: "COUNT", paths: ["peptide_count", "count", "total"], priority: 80, min: 5 },
    { header: "PEPTIDES", paths: ["peptides", "profiles"], priority: 70, min: 20 },
  ],
  "research-area": [
    { header: "ID", paths: ["id", "slug"], linkTo: ITEM_URL, fixed: true, priority: 100 },
    { header: "AREA", paths: ["name", "area", "title", "label"], linkTo: ITEM_URL, priority: 60, min: 12 },
    { header: "COUNT", paths: ["peptide_count", "count", "study_count"], priority: 80, min: 5 },
    { header: "PEPTIDES", paths: ["peptides", "profiles"], priority: 70, min: 20 },
  ],
  // A product leads to its offers: `pep prices --peptide <PEPTIDE> --form <FORM>`.
  product: [
    { header: "ID", paths: ["id"], fixed: true, priority: 30 },
    // The name says which product a row is: kept first, as an id is elsewhere.
    { header: "NAME", paths: ["name", "product_name", "title"], linkTo: ITEM_URL, priority: 110, min: 14 },
    {
      header: "PEPTIDE",
      paths: ["peptide.id", "peptide_id", "peptide.name", "peptide_name", "peptide"],
      priority: 40,
      filters: ["peptide"],
    },
    { header: "FORM", paths: ["form"], priority: 35, filters: ["form"] },
    { header: "PRICES", paths: ["price_ranges", "prices", "price_range", "price"], fixed: true, priority: 100 },
    { header: "VENDORS", paths: ["vendor_count"], priority: 50, min: 7 },
  ],
};

/** Content items of a search (FAQ, articles, courses). */
export const CONTENT_COLUMNS: ColumnSpec[] = [
  { header: "TITLE", paths: ["title", "name", "question"], linkTo: ITEM_URL, wide: true, priority: 90, min: 20 },
  { header: "TYPE", paths: ["type", "kind", "content_type"], labels: CONTENT_TYPE_LABELS, priority: 60 },
  { header: "PEPTIDE", paths: ["peptide.name", "peptide"], priority: 40, min: 12 },
  // Whole or hidden (with a note), never cut: a cut address cannot be opened.
  { header: "URL", paths: ["url"], linkTo: ["url"], fixed: true, priority: 20 },
];

function withLink(cell: Cell, item: unknown, linkTo: readonly string[] | undefined): Cell {
  if (!linkTo) return cell;
  const url = firstDefined(item, linkTo);
  return url === undefined ? cell : { ...cell, link: url };
}

/** A value by its short label, or as any value when it is not a string. */
const labelled =
  (path: string, labels: Labels) =>
  (item: unknown): Cell => {
    const v = getPath(item, path);
    return typeof v === "string" && v !== NOT_DOCUMENTED ? { text: cleanLine(labelOf(labels, v)) } : humanCell(v);
  };

/** A timestamp as its date (`2025-05-30`), or as any value. */
const dated =
  (path: string) =>
  (item: unknown): Cell => {
    const v = getPath(item, path);
    return typeof v === "string" ? { text: dateOnly(cleanLine(v)) } : humanCell(v);
  };

function baseCell(spec: ColumnSpec, path: string): (item: unknown) => Cell {
  if (spec.cell) return spec.cell;
  if (spec.labels) return labelled(path, spec.labels);
  if (spec.date) return dated(path);
  return (item) => (isIdKey(path) ? idCell : humanCell)(getPath(item, path));
}

/** A column of labels is as wide as its widest label: shown whole, or hidden. */
function specMin(spec: ColumnSpec): number | undefined {
  return spec.labels ? Math.max(spec.min ?? 0, widestLabel(spec.labels, displayWidth)) : spec.min;
}

/**
 * The default columns of a resource's table (or of a search's content), by header: the
 * narrowest each is cut to, and whether it is never cut. What a check of the screens
 * holds the tables to.
 */
export function columnRules(resource: Resource | "search-content"): { header: string; min: number; fixed: boolean }[] {
  const specs = resource === "search-content" ? CONTENT_COLUMNS : (DEFAULTS[resource] ?? []);
  return specs.map((spec) => ({
    header: spec.header,
    min: minWidthOf({ header: spec.header, min: specMin(spec) }),
    fixed: spec.fixed === true || isIdKey(spec.paths[0]!),
  }));
}

function fromSpec(spec: ColumnSpec, first: unknown): Column | undefined {
  const present = (spec.presence ?? spec.paths).some((p) => getPath(first, p) !== undefined);
  if (!present) return undefined;
  const path = spec.paths.find((p) => getPath(first, p) !== undefined) ?? spec.paths[0]!;
  const base = baseCell(spec, path);
  const min = specMin(spec);
  return {
    key: path,
    header: spec.header,
    cell: (item) => withLink(base(item), item, spec.linkTo),
    ...(spec.linkTo ? { links: spec.linkTo, unlinked: base } : {}),
    priority: spec.priority,
    ...(min !== undefined ? { min } : {}),
    ...(spec.filters ? { filters: spec.filters } : {}),
    ...(spec.fixed || isIdKey(path) ? { fixed: true } : {}),
    ...(spec.wide ? { wide: true } : {}),
  };
}

/** Columns for a path: the header is the path itself, names and titles link to the item. */
function pathColumn(path: string, chosen = false): Column {
  const linkTo = path === "name" || path === "title" ? ITEM_URL : undefined;
  const money = /(?:^|[._])(?:price|prices|amount|min_price|max_price)$/.test(path);
  return {
    key: path,
    header: cleanLine(path).toUpperCase(),
    cell: (item) => withLink((isIdKey(path) ? idCell : humanCell)(getPath(item, path)), item, linkTo),
    // Ids and money are never cut.
    ...(money || isIdKey(path) ? { fixed: true } : {}),
    ...(chosen ? { chosen: true } : {}),
  };
}

/** The first few scalar keys of an item (any resource without defaults). */
function genericColumns(first: unknown, max = 6): Column[] {
  if (!isPlainObject(first)) return [{ key: "", header: "VALUE", cell: (item) => humanCell(item) }];
  const keys = Object.keys(first).filter(
    (k) => isScalar(first[k]) || (Array.isArray(first[k]) && (first[k] as unknown[]).every(isScalar)),
  );
  const chosen = (keys.length > 0 ? keys : Object.keys(first)).slice(0, max);
  return chosen.map((k) => pathColumn(k));
}

export function columnsFromSpecs(specs: readonly ColumnSpec[], first: unknown): Column[] {
  return specs.map((s) => fromSpec(s, first)).filter((c): c is Column => c !== undefined);
}

/**
 * The columns of a table: `--fields` (objects expanded to their leaves), else the
 * resource's defaults that are present in the first item, else generic ones.
 */
export function resolveColumns(resource: Resource, fields: readonly string[] | undefined, first: unknown): Column[] {
  if (fields && fields.length > 0) return expandFields(fields, first).map((f) => pathColumn(f, true));
  const specs = DEFAULTS[resource];
  if (specs) {
    const cols = columnsFromSpecs(specs, first);
    if (cols.length > 0) return cols;
  }
  return genericColumns(first);
}
