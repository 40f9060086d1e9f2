/**
 * Reading API values the same way in every writer: dotted paths, flattened keys, the
 * `not_documented` token, labels for objects, and the two small shapes that read better
 * inline (a fact with its source, a money amount with its currency). The API leaves most
 * nested types open (docs/api.md#resources), so everything here is tolerant of
 * shapes it has not seen.
 */
import { ExactNumber } from "../core/exact-number.js";
import { cleanLine } from "../core/sanitize.js";

/** The API's token for an undocumented research field (docs/api.md#content-rules). */
export const NOT_DOCUMENTED = "not_documented";
export const NOT_DOCUMENTED_TEXT = "not documented";

export type Plain = Record<string, unknown>;

export function isPlainObject(v: unknown): v is Plain {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function isScalar(v: unknown): boolean {
  return v === null || v === undefined || typeof v !== "object" || v instanceof ExactNumber;
}

/** An array holding no objects or arrays (printed joined on one line). */
export function isScalarArray(v: unknown): v is unknown[] {
  return Array.isArray(v) && v.every(isScalar);
}

/**
 * The value at a dotted path (`vendor.name`); a key that itself holds a dot is found
 * too. `undefined` when any step is missing.
 */
export function getPath(obj: unknown, path: string): unknown {
  if (!isPlainObject(obj)) return undefined;
  if (Object.hasOwn(obj, path)) return obj[path];
  const dot = path.indexOf(".");
  if (dot < 0) return undefined;
  // Try each split point, shortest head first: `a.b.c` -> obj["a"] then obj["a.b"].
  for (let i = dot; i >= 0; i = path.indexOf(".", i + 1)) {
    const head = path.slice(0, i);
    if (Object.hasOwn(obj, head)) {
      const found = getPath(obj[head], path.slice(i + 1));
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/**
 * Leaf paths of an object in key order: nested objects are walked (`evidence.level`),
 * arrays and scalars are leaves, an empty object is a leaf of its own.
 */
export function flattenKeys(obj: Plain, prefix = "", out: string[] = []): string[] {
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix === "" ? k : `${prefix}.${k}`;
    if (isPlainObject(v) && Object.keys(v).length > 0) flattenKeys(v, path, out);
    else out.push(path);
  }
  return out;
}

/**
 * Columns for `--fields`: each name as given, except that a name whose value in the
 * first item is an object is replaced by that object's leaf paths (`rating` ->
 * `rating.average`, `rating.count`), as CSV needs flat columns.
 */
export function expandFields(fields: readonly string[], first: unknown): string[] {
  const out: string[] = [];
  for (const f of fields) {
    const v = getPath(first, f);
    if (isPlainObject(v) && Object.keys(v).length > 0) flattenKeys(v, f, out);
    else out.push(f);
  }
  return [...new Set(out)];
}

const ACRONYMS: Record<string, string> = {
  id: "ID",
  url: "URL",
  urls: "URLs",
  api: "API",
  fda: "FDA",
  wada: "WADA",
  doi: "DOI",
  pmid: "PMID",
  nct: "NCT",
  iso: "ISO",
  faq: "FAQ",
  faqs: "FAQs",
  usd: "USD",
  eur: "EUR",
};

const UNITS: Record<string, string> = { da: "Da", kda: "kDa", mb: "MB", kb: "KB", gb: "GB" };

/** Labels whose plain humanised form would mislead or read oddly. */
const LABELS: Record<string, string> = {
  nct_id: "NCT ID",
  openapi: "OpenAPI",
  openapi_version: "OpenAPI version",
  openapi_url: "OpenAPI URL",
  studies_cited: "Studies cited",
  estimated_days: "Estimated days",
  also_known_as: "Also known as",
  verified_count: "Verified reviews",
  verified_reviews: "Verified reviews",
  verified_review_count: "Verified reviews",
  review_count: "Reviews",
  ships_to: "Ships to",
  last_seen_at: "Last seen",
  content_reviewed_at: "Content reviewed",
  publication_year: "Year",
  evidence_classification: "Evidence class",
  evidence_classification_label: "Evidence class",
};

/**
 * `fda_status` -> "FDA status", `evidence.level` -> "Evidence level". Keys come from the
 * API, so the label is made of the key's text only: its control sequences are removed
 * first, before a split could cut one apart (every caller gets an inert label).
 */
export function humanize(rawKey: string): string {
  const key = cleanLine(rawKey);
  const known = LABELS[key];
  if (known) return known;
  // A unit at the end of a key reads as a unit: `molecular_weight_da` -> "Molecular weight (Da)".
  const unit = /^(.+?)[_-](da|kda|days|hours|minutes|seconds|ms|mb|kb|gb)$/i.exec(key);
  if (unit?.[1] !== undefined && unit[2] !== undefined) {
    const name = unit[1];
    return `${humanize(name)} (${UNITS[unit[2].toLowerCase()] ?? unit[2]})`;
  }
  const words = key
    .split(/[._\-\s]+|(?<=[a-z])(?=[A-Z])/)
    .filter((w) => w !== "")
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase());
  if (words.length === 0) return key;
  const [first, ...rest] = words as [string, ...string[]];
  return [first.charAt(0).toUpperCase() + first.slice(1), ...rest].join(" ");
}

const TITLE_KEYS = ["name", "title", "label", "question", "vendor_name", "product_name", "slug", "id"] as const;

/** The key that names an object (`name`, `title`, ...), if any holds a scalar. */
export function titleKeyOf(obj: Plain): string | undefined {
  for (const k of TITLE_KEYS) {
    const v = obj[k];
    if (typeof v === "string" && v !== "") return k;
    if (typeof v === "number") return k;
  }
  return undefined;
}

const SOURCE_KEYS = ["source", "source_url", "source_name", "sources"];
const FACT_VALUE_KEYS = ["value", "fact", "text", "status", "summary"];
const FACT_EXTRA_KEYS = ["as_of", "checked_at", "updated_at", "verified_at", "observed_at", "date"];

/**
 * A fact with its source, `{ value, source }` (vendor shipping facts): printed inline as
 * "value (source: …)". Only when the object holds nothing else, so nothing is dropped,
 * and, unless `anyValue` (a side-by-side row, where one line per fact is the point),
 * only when the value itself is short: a scalar or a list of them.
 */
export function asFact(
  obj: Plain,
  { anyValue = false } = {},
): { value: unknown; source: unknown; asOf: unknown } | undefined {
  const keys = Object.keys(obj);
  const valueKey = FACT_VALUE_KEYS.find((k) => k in obj);
  const sourceKeys = SOURCE_KEYS.filter((k) => k in obj);
  if (!valueKey || sourceKeys.length === 0) return undefined;
  const extra = FACT_EXTRA_KEYS.find((k) => k in obj);
  const allowed = new Set([valueKey, ...sourceKeys, ...(extra ? [extra] : [])]);
  if (keys.some((k) => !allowed.has(k))) return undefined;
  if (!anyValue && !isScalar(obj[valueKey]) && !isScalarArray(obj[valueKey])) return undefined;
  const source = sourceKeys.length === 1 ? obj[sourceKeys[0]!] : sourceKeys.map((k) => obj[k]);
  return { value: obj[valueKey], source, asOf: extra ? obj[extra] : undefined };
}

const PERSON_KEYS = new Set(["family", "given", "literal", "suffix", "last_name", "first_name"]);

/** A person's name as an object (`{ family, given }`, as CSL writes authors): "Family, Given". */
export function asPerson(obj: Plain): string | undefined {
  const keys = Object.keys(obj);
  if (keys.length === 0 || !keys.every((k) => PERSON_KEYS.has(k))) return undefined;
  if (!keys.every((k) => typeof obj[k] === "string")) return undefined;
  const family = (obj.family ?? obj.last_name ?? obj.literal) as string | undefined;
  const given = (obj.given ?? obj.first_name) as string | undefined;
  if (family === undefined) return given;
  return given ? `${family}, ${given}` : family;
}

/**
 * Money: `{ price, currency }` or a range `{ min, max, currency }`, printed as received
 * ("1249.00 USD", "10.00–20.00 EUR"). The amount is the API's decimal string, never
 * parsed to a number.
 */
export function asMoney(obj: Plain): string | undefined {
  const currency = obj.currency;
  if (typeof currency !== "string") return undefined;
  const keys = Object.keys(obj);
  const amount = (v: unknown) => (typeof v === "string" || typeof v === "number" ? String(v) : undefined);
  const price = amount(obj.price ?? obj.amount);
  if (price !== undefined && keys.length === 2) return `${price} ${currency}`;
  const min = amount(obj.min ?? obj.min_price ?? obj.low);
  const max = amount(obj.max ?? obj.max_price ?? obj.high);
  if (min === undefined || max === undefined) return undefined;
  const range = min === max ? `${min} ${currency}` : `${min}–${max} ${currency}`;
  if (keys.length === 3) return range;
  // A product's price range also counts its offers: "46.84–52.00 USD (3 offers)".
  const count = obj.offer_count;
  if (keys.length === 4 && typeof count === "number") return `${range} (${count} offer${count === 1 ? "" : "s"})`;
  return undefined;
}

/** A study detail may come as `{ study: {...}, citing_profiles }`: one flat object reads better. */
export function flattenStudyDetail(data: unknown): unknown {
  if (isPlainObject(data) && isPlainObject(data.study)) {
    const { study, ...rest } = data;
    return { ...study, ...rest };
  }
  return data;
}
