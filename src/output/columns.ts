/**
 * Which columns a table shows: `--fields` when given, else sensible defaults per
 * resource, else the first few scalar keys. Each default lists candidate paths, since
 * the spec leaves many field names open; a column none of whose paths is present in the
 * first item is left out rather than shown empty.
 */
import type { Resource } from "../core/command.js";
import { humanCell, idCell, isIdKey, scalarCell, type Cell } from "./cells.js";
import { cleanLine } from "./sanitize.js";
import { expandFields, getPath, isPlainObject, isScalar } from "./values.js";

export interface Column {
  /** The path (or a name for a combined column such as the offer price). */
  key: string;
  header: string;
  cell(item: unknown): Cell;
  /** Never cut (an id, a URL, money): keeps its natural width, or is hidden whole when it cannot. */
  fixed?: boolean;
  /** The column the reader came for (a title): a double share of the room. */
  wide?: boolean;
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
}

const firstDefined = (item: unknown, paths: readonly string[]): unknown => {
  for (const p of paths) {
    const v = getPath(item, p);
    if (v !== undefined) return v;
  }
  return undefined;
};

const ITEM_URL = ["url", "profile_url"];

/** Offer product: "BPC-157 (capsules)". */
function offerProduct(item: unknown): Cell {
  const name = firstDefined(item, ["product_name", "product.name", "peptide.name", "name"]);
  const form = firstDefined(item, ["form", "product.form"]);
  const n = name === undefined ? "" : scalarCell(name).text;
  const f = form === undefined || form === null ? "" : scalarCell(form).text;
  if (n && f) return { text: `${n} (${f})` };
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
    { header: "PROFILE", paths: ["name"], fixed: true },
    { header: "IN USE", paths: ["in_use"], cell: (item) => ({ text: getPath(item, "in_use") === true ? "yes" : "" }) },
    {
      header: "API KEY",
      paths: ["has_key"],
      cell: (item) => (getPath(item, "has_key") === true ? { text: "stored" } : { text: "not set", dim: true }),
    },
    { header: "BASE URL", paths: ["base_url"], cell: setting("base_url"), fixed: true },
  ],
  peptide: [
    { header: "ID", paths: ["id", "slug"], fixed: true },
    { header: "NAME", paths: ["name"], linkTo: ITEM_URL },
    { header: "CATEGORIES", paths: ["categories"] },
    { header: "EVIDENCE", paths: ["evidence.level", "evidence_level"] },
    { header: "REGULATORY", paths: ["regulatory_status"] },
    { header: "FDA", paths: ["fda_status"] },
  ],
  study: [
    { header: "ID", paths: ["id"], fixed: true },
    { header: "YEAR", paths: ["publication_year", "year"] },
    { header: "TITLE", paths: ["title"], linkTo: ["url", "source_url"], wide: true },
    { header: "JOURNAL", paths: ["journal", "journal.name"] },
    { header: "EVIDENCE", paths: ["evidence_classification", "evidence_classification_label"] },
  ],
  "cited-study": [
    { header: "ID", paths: ["id"], fixed: true },
    { header: "YEAR", paths: ["publication_year", "year"] },
    { header: "TITLE", paths: ["title"], linkTo: ["url", "source_url"], wide: true },
    { header: "JOURNAL", paths: ["journal", "journal.name"] },
    { header: "EVIDENCE", paths: ["evidence_classification", "evidence_classification_label"] },
  ],
  vendor: [
    { header: "ID", paths: ["id", "slug"], fixed: true },
    { header: "NAME", paths: ["name"], linkTo: ["url", "profile_url", "website_url"] },
    { header: "COUNTRY", paths: ["country"] },
    { header: "RATING", paths: ["rating.average"] },
    { header: "REVIEWS", paths: ["rating.count", "rating.review_count", "rating.reviews", "review_count"] },
    { header: "CATEGORIES", paths: ["product_categories"] },
  ],
  offer: [
    { header: "VENDOR", paths: ["vendor.name", "vendor_name", "vendor"], linkTo: ["vendor.url", "vendor.profile_url"] },
    {
      header: "PRODUCT",
      paths: ["product_name"],
      presence: ["product_name", "product.name", "peptide.name", "name", "form", "product.form"],
      cell: offerProduct,
    },
    { header: "PRICE", paths: ["price"], presence: ["price", "currency"], cell: offerPrice, fixed: true },
    { header: "LAST SEEN", paths: ["last_seen_at"] },
    { header: "LINK", paths: ["product_page_url", "url"], linkTo: ["product_page_url", "url"], fixed: true },
  ],
  category: [
    { header: "ID", paths: ["id", "slug"], fixed: true },
    { header: "NAME", paths: ["name", "label", "title"], linkTo: ITEM_URL },
    { header: "COUNT", paths: ["peptide_count", "count", "total"] },
    { header: "PEPTIDES", paths: ["peptides", "profiles"] },
  ],
  "research-area": [
    { header: "ID", paths: ["id", "slug"], fixed: true },
    { header: "AREA", paths: ["name", "area", "title", "label"], linkTo: ITEM_URL },
    { header: "COUNT", paths: ["peptide_count", "count", "study_count"] },
    { header: "PEPTIDES", paths: ["peptides", "profiles"] },
  ],
  product: [
    { header: "NAME", paths: ["name", "product_name", "title"], linkTo: ITEM_URL },
    { header: "PEPTIDE", paths: ["peptide.name", "peptide_name", "peptide"] },
    { header: "FORM", paths: ["form"] },
    { header: "PRICES", paths: ["price_ranges", "prices", "price_range", "price"], fixed: true },
  ],
};

/** Content items of a search (FAQ, articles, courses). */
export const CONTENT_COLUMNS: ColumnSpec[] = [
  { header: "TITLE", paths: ["title", "name", "question"], linkTo: ITEM_URL, wide: true },
  { header: "TYPE", paths: ["type", "kind", "content_type"] },
  { header: "PEPTIDE", paths: ["peptide.name", "peptide"] },
  // Whole or hidden (with a note), never cut: a cut address cannot be opened.
  { header: "URL", paths: ["url"], linkTo: ["url"], fixed: true },
];

function withLink(cell: Cell, item: unknown, linkTo: readonly string[] | undefined): Cell {
  if (!linkTo) return cell;
  const url = firstDefined(item, linkTo);
  return url === undefined ? cell : { ...cell, link: url };
}

function fromSpec(spec: ColumnSpec, first: unknown): Column | undefined {
  const present = (spec.presence ?? spec.paths).some((p) => getPath(first, p) !== undefined);
  if (!present) return undefined;
  const path = spec.paths.find((p) => getPath(first, p) !== undefined) ?? spec.paths[0]!;
  const base = spec.cell ?? ((item: unknown) => (isIdKey(path) ? idCell : humanCell)(getPath(item, path)));
  return {
    key: path,
    header: spec.header,
    cell: (item) => withLink(base(item), item, spec.linkTo),
    ...(spec.fixed ? { fixed: true } : {}),
    ...(spec.wide ? { wide: true } : {}),
  };
}

/** Columns for a path: the header is the path itself, names and titles link to the item. */
function pathColumn(path: string): Column {
  const linkTo = path === "name" || path === "title" ? ITEM_URL : undefined;
  const money = /(?:^|[._])(?:price|prices|amount|min_price|max_price)$/.test(path);
  return {
    key: path,
    header: cleanLine(path).toUpperCase(),
    cell: (item) => withLink((isIdKey(path) ? idCell : humanCell)(getPath(item, path)), item, linkTo),
    ...(money ? { fixed: true } : {}),
  };
}

/** The first few scalar keys of an item (any resource without defaults). */
function genericColumns(first: unknown, max = 6): Column[] {
  if (!isPlainObject(first)) return [{ key: "", header: "VALUE", cell: (item) => humanCell(item) }];
  const keys = Object.keys(first).filter(
    (k) => isScalar(first[k]) || (Array.isArray(first[k]) && (first[k] as unknown[]).every(isScalar)),
  );
  const chosen = (keys.length > 0 ? keys : Object.keys(first)).slice(0, max);
  return chosen.map(pathColumn);
}

export function columnsFromSpecs(specs: readonly ColumnSpec[], first: unknown): Column[] {
  return specs.map((s) => fromSpec(s, first)).filter((c): c is Column => c !== undefined);
}

/**
 * The columns of a table: `--fields` (objects expanded to their leaves), else the
 * resource's defaults that are present in the first item, else generic ones.
 */
export function resolveColumns(resource: Resource, fields: readonly string[] | undefined, first: unknown): Column[] {
  if (fields && fields.length > 0) return expandFields(fields, first).map(pathColumn);
  const specs = DEFAULTS[resource];
  if (specs) {
    const cols = columnsFromSpecs(specs, first);
    if (cols.length > 0) return cols;
  }
  return genericColumns(first);
}
