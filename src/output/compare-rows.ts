/**
 * The rows of `vendors compare`, from the vendors as the API sends them: each sourced
 * fact (`{ value, source }`) is replaced by its value, its source kept apart for a list
 * of sources under the comparison; nested objects become headed groups whose fields are
 * rows of their own ("Shipping" > "Free shipping" > "Threshold"), so a label never holds
 * its parent's words twice and a value never carries labels of its own. The shape of
 * the vendors is left open (docs/api.md#resources): the rows are the union of every
 * vendor's fields in the order first seen, a field one vendor lacks reads "—", a null
 * "unknown" (also for every field under a null group).
 */
import { idCell, isIdKey, scalarCell, sourceText, valueText } from "./cells.js";
import { midnightAsDate } from "./labels.js";
import { cleanLine } from "../core/sanitize.js";
import { asFact, asMoney, asPerson, humanize, isPlainObject, isScalar, titleKeyOf, type Plain } from "./value-paths.js";

/** A value as lines (a list of objects: one element a line); `dim` for placeholders. */
export interface CompareCell {
  lines: string[];
  dim?: boolean;
  /** The lines are a list's elements (each kept on a line of its own), not one value. */
  list?: boolean;
}

export interface CompareRow {
  /** Nesting under groups: 0 for a vendor's own fields. */
  depth: number;
  label: string;
  /** The labels of the groups above, outermost first. */
  parents: string[];
  /** One per vendor; undefined for a group's heading. */
  cells?: CompareCell[];
  /** Every value is a link (a URL), read whole or not at all. */
  link?: boolean;
}

/** The facts one source backs, for one vendor: "destinations, exclusions: vendor site, …". */
export interface SourceNote {
  fields: string[];
  text: string;
}

export const MISSING_TEXT = "—";

/** "vendor site, checked 2025-05-26, https://…", with "as of" when the fact says when. */
function sourceNoteText(fact: { source: unknown; asOf: unknown }): string {
  const parts = (Array.isArray(fact.source) ? fact.source : [fact.source])
    .filter((s) => s !== null && s !== undefined && s !== "")
    .map((s) => (isPlainObject(s) ? sourceText(s) : valueText(s)));
  if (fact.asOf !== undefined && fact.asOf !== null) parts.push(`as of ${valueText(fact.asOf)}`);
  return parts.join(", ");
}

/** The vendor with each sourced fact replaced by its value; the sources noted by field. */
function unwrapFacts(v: unknown, key: string, notes: { field: string; text: string }[]): unknown {
  if (!isPlainObject(v) || asMoney(v) !== undefined) return v;
  const fact = asFact(v, { anyValue: true });
  if (fact) {
    const text = sourceNoteText(fact);
    if (text !== "") notes.push({ field: humanize(key).toLowerCase(), text });
    return unwrapFacts(fact.value, key, notes);
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, unwrapFacts(x, k, notes)]));
}

/** The sources of one vendor, each said once with the fields it backs. */
function groupNotes(notes: readonly { field: string; text: string }[]): SourceNote[] {
  const byText = new Map<string, SourceNote>();
  for (const n of notes) {
    const g = byText.get(n.text) ?? { fields: [], text: n.text };
    if (!g.fields.includes(n.field)) g.fields.push(n.field);
    byText.set(n.text, g);
  }
  return [...byText.values()];
}

/** An object shown in one cell rather than as a group of rows. */
const isLeafObject = (v: Plain) => Object.keys(v).length === 0 || asMoney(v) !== undefined || asPerson(v) !== undefined;
const isGroup = (v: unknown): v is Plain => isPlainObject(v) && !isLeafObject(v);

/** A field of the union: its key, its children when some vendor has it as a group. */
interface Field {
  key: string;
  children: Map<string, Field>;
  group: boolean;
}

function mergeInto(fields: Map<string, Field>, obj: Plain): void {
  for (const [k, v] of Object.entries(obj)) {
    const f = fields.get(k) ?? { key: k, children: new Map(), group: false };
    fields.set(k, f);
    if (isGroup(v)) {
      f.group = true;
      mergeInto(f.children, v);
    }
  }
}

/** The value at `path`; null when a group on the way is null (unknown all the way down). */
function lookup(obj: unknown, path: readonly string[]): unknown {
  let cur = obj;
  for (const k of path) {
    if (cur === null) return null;
    if (!isGroup(cur)) return undefined;
    cur = cur[k];
  }
  return cur;
}

/** A count of days without its label says its unit: "2-3 days", "1 day". */
const days = (k: string, text: string) =>
  /(^|_)days$/i.test(k) && /^[\d.\s–-]+$/.test(text) ? `${text} ${text === "1" ? "day" : "days"}` : text;

/** One element of a list of objects: its name, then its other facts ("Express (Courier, 2-3 days)"). */
function elementText(obj: Plain): string {
  const tk = titleKeyOf(obj);
  if (!tk || asMoney(obj) !== undefined) return valueText(obj);
  const details = Object.entries(obj)
    .filter(([k, v]) => k !== tk && !isIdKey(k) && v !== null && v !== undefined && v !== "" && isScalar(v))
    .map(([k, v]) => days(k, scalarCell(v).text));
  const title = scalarCell(obj[tk]).text;
  return details.length > 0 ? `${title} (${details.join(", ")})` : title;
}

/** A value as a comparison cell. */
export function compareCell(v: unknown, key: string): CompareCell {
  if (v === undefined) return { lines: [MISSING_TEXT], dim: true };
  if (isIdKey(key)) return { lines: [idCell(v).text], dim: idCell(v).dim };
  if (Array.isArray(v) && v.length === 0) return { lines: ["none"] };
  if (isPlainObject(v) && Object.keys(v).length === 0) return { lines: ["none"] };
  if (Array.isArray(v) && v.some(isPlainObject))
    return { lines: v.map((e) => (isPlainObject(e) ? elementText(e) : valueText(e))), list: true };
  if (typeof v === "string" && midnightAsDate(v) !== v) return { lines: [midnightAsDate(v)] };
  if (isScalar(v)) {
    const c = scalarCell(v);
    return { lines: [c.text], dim: c.dim };
  }
  return { lines: [valueText(v)] };
}

/** "Shipping methods" under "Shipping" reads "Methods". */
function labelUnder(key: string, parent: string | undefined): string {
  const label = humanize(key);
  if (parent === undefined) return label;
  const head = `${parent.toLowerCase()} `;
  if (!label.toLowerCase().startsWith(head) || label.length === head.length) return label;
  const rest = label.slice(head.length);
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

const URL_TEXT = /^https?:\/\/\S+$/i;
const isLinkRow = (cells: readonly CompareCell[]) =>
  cells.some((c) => !c.dim) && cells.every((c) => c.dim || (c.lines.length === 1 && URL_TEXT.test(c.lines[0]!)));

/** Rows of the fields, depth first; a field some vendor has as a value and another as a group gets both. */
function rowsOf(fields: Map<string, Field>, vendors: readonly unknown[], path: string[], parents: string[]) {
  const rows: CompareRow[] = [];
  // A vendor's own fields before its groups, so that none reads as part of the group above it.
  const all = [...fields.values()];
  const ordered = path.length === 0 ? all.sort((a, b) => Number(a.group) - Number(b.group)) : all;
  for (const f of ordered) {
    const p = [...path, f.key];
    const label = labelUnder(f.key, parents[parents.length - 1]);
    const values = vendors.map((v) => lookup(v, p));
    const depth = path.length;
    if (!f.group) {
      const cells = values.map((v) => compareCell(v, f.key));
      rows.push({ depth, label, parents, cells, ...(isLinkRow(cells) ? { link: true } : {}) });
      continue;
    }
    // A vendor whose field is a plain value where others have a group: said on the heading's row.
    const plain = values.map((v) => (v !== null && v !== undefined && !isGroup(v) ? v : undefined));
    const cells = plain.some((v) => v !== undefined)
      ? plain.map((v) => (v === undefined ? { lines: [""] } : compareCell(v, f.key)))
      : undefined;
    rows.push({ depth, label, parents, ...(cells ? { cells } : {}) });
    rows.push(...rowsOf(f.children, vendors, p, [...parents, label]));
  }
  return rows;
}

export interface Comparison {
  /** Each vendor's name (whole), with the page its name links to. */
  names: { text: string; link: unknown }[];
  rows: CompareRow[];
  /** Per vendor, its sources. */
  sources: SourceNote[][];
}

function nameOf(v: Plain, i: number): { text: string; link: unknown } {
  const tk = titleKeyOf(v);
  const text = tk ? cleanLine(String(v[tk])) : "";
  return { text: text === "" ? `Vendor ${i + 1}` : text, link: v.url ?? v.profile_url ?? v.website_url };
}

/**
 * The comparison's rows. `shipsTo` is the destination asked about (`--ships-to`), if
 * any: the vendors' answers lead, labelled with it; not asked, no row.
 */
export function comparisonOf(vendors: readonly Plain[], shipsTo: unknown): Comparison {
  const notes = vendors.map(() => [] as { field: string; text: string }[]);
  const plain = vendors.map((v, i) => unwrapFacts(v, "", notes[i]!) as Plain);
  const fields = new Map<string, Field>();
  for (const v of plain) mergeInto(fields, v);
  fields.delete("name");
  const asked = typeof shipsTo === "string" && shipsTo !== "" ? shipsTo : undefined;
  const shipsField = fields.get("ships_to");
  if (shipsField && !shipsField.group) fields.delete("ships_to");
  const answered = plain.some((v) => v.ships_to !== null && v.ships_to !== undefined);
  const rows = rowsOf(fields, plain, [], []);
  if (shipsField && !shipsField.group && (asked !== undefined || answered)) {
    // "Ships to", as the vendor's card says it: the destination is the one typed.
    rows.unshift({
      depth: 0,
      label: "Ships to",
      parents: [],
      cells: plain.map((v) => compareCell(v.ships_to, "ships_to")),
    });
  }
  return { names: vendors.map(nameOf), rows, sources: notes.map(groupNotes) };
}
