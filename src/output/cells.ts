/**
 * One value as short human text, for table cells and card lines: `not_documented` and
 * `null` become dim words ("not documented", "unknown"), lists are joined, objects are
 * named by their title, money and sourced facts read inline. Text is cleaned of control
 * sequences here, so callers only lay it out.
 */
import { midnightAsDate } from "./labels.js";
import { cleanBlock, cleanId, cleanLine, showInvisible } from "../core/sanitize.js";
import {
  asFact,
  asMoney,
  asPerson,
  isPlainObject,
  isScalar,
  NOT_DOCUMENTED,
  NOT_DOCUMENTED_TEXT,
  titleKeyOf,
  humanize,
} from "./value-paths.js";

export interface Cell {
  text: string;
  /** Printed dim: a placeholder, not a value from the API. */
  dim?: boolean;
  /** Target for an OSC 8 link on the text. */
  link?: unknown;
}

export const UNKNOWN_TEXT = "unknown";

/** A scalar as text; `multiline` keeps line breaks (cards), else one line (tables). */
export function scalarCell(v: unknown, multiline = false): Cell {
  if (v === null) return { text: UNKNOWN_TEXT, dim: true };
  if (v === undefined) return { text: "" };
  if (v === NOT_DOCUMENTED) return { text: NOT_DOCUMENTED_TEXT, dim: true };
  if (typeof v === "string") return { text: multiline ? cardText(v) : cleanLine(v) };
  if (typeof v === "boolean") return { text: v ? "yes" : "no" };
  if (typeof v === "number" || typeof v === "bigint") return { text: String(v) };
  return { text: cleanLine(String(v)) };
}

/** Keys whose value is an id that `get` takes: shown exact, bidi controls included. */
export function isIdKey(key: string): boolean {
  return key === "id" || key === "slug" || key.endsWith(".id") || key.endsWith(".slug");
}

/** An id's cell: its text exact (every invisible or bidi character shown), else as any value. */
export function idCell(v: unknown): Cell {
  return typeof v === "string" ? { text: cleanId(v) } : scalarCell(v);
}

/**
 * A string for a card: a one-line value (an id, a name, a date) shows its invisible
 * characters as a table cell does, so the id on a card is the id it looks like; prose
 * over several lines keeps its line breaks, cleaned like any text.
 */
function cardText(v: string): string {
  return cleanBlock(/[\r\n\u2028\u2029]/.test(v) ? v : showInvisible(v));
}

function scalarText(v: unknown): string {
  if (v === null) return UNKNOWN_TEXT;
  if (v === NOT_DOCUMENTED) return NOT_DOCUMENTED_TEXT;
  return scalarCell(v).text;
}

/** A short one-line name for an object: its title, money, a sourced fact, or `k: v` pairs. */
export function objectText(obj: Record<string, unknown>, depth = 0): string {
  const money = asMoney(obj);
  if (money !== undefined) return cleanLine(money);
  const fact = asFact(obj);
  if (fact) return factText(fact);
  const person = asPerson(obj);
  if (person !== undefined) return cleanLine(person);
  const tk = titleKeyOf(obj);
  if (tk) return scalarText(obj[tk]);
  const parts: string[] = [];
  for (const [k, v] of Object.entries(obj)) {
    if (parts.length >= 4) {
      parts.push("…");
      break;
    }
    const text = isScalar(v)
      ? scalarText(v)
      : Array.isArray(v) && v.length === 0
        ? "none"
        : depth < 1
          ? valueText(v, depth + 1)
          : "…";
    parts.push(`${humanize(k)}: ${text}`);
  }
  return parts.join("; ");
}

/** A source object (`{ type, url, checked_at }`) as "vendor site, checked 2025-05-01, https://…". */
export function sourceText(src: Record<string, unknown>): string {
  const name = [src.name, src.title, src.type].find((v) => typeof v === "string" && v !== "");
  const parts: string[] = [];
  if (typeof name === "string") parts.push(cleanLine(name).replace(/_/g, " "));
  const when = src.checked_at ?? src.as_of ?? src.retrieved_at;
  // A check at midnight UTC is a date: "checked 2025-05-28", not "…T00:00:00Z".
  if (typeof when === "string") parts.push(`checked ${midnightAsDate(cleanLine(when))}`);
  if (typeof src.url === "string") parts.push(cleanLine(src.url));
  return parts.length > 0 ? parts.join(", ") : objectText(src, 1);
}

export function factText(fact: { value: unknown; source: unknown; asOf: unknown }): string {
  const value = valueText(fact.value);
  const sources = (Array.isArray(fact.source) ? fact.source : [fact.source])
    .filter((s) => s !== null && s !== undefined && s !== "")
    .map((s) => (isPlainObject(s) ? sourceText(s) : scalarText(s)));
  const extras: string[] = [];
  if (sources.length > 0) extras.push(`source: ${sources.join(", ")}`);
  if (fact.asOf !== undefined && fact.asOf !== null) extras.push(`as of ${scalarText(fact.asOf)}`);
  return extras.length > 0 ? `${value} (${extras.join(", ")})` : value;
}

/** Any value as one line of text (arrays joined with ", "). */
export function valueText(v: unknown, depth = 0): string {
  if (Array.isArray(v)) {
    const parts = v.map((e) =>
      isPlainObject(e) ? objectText(e, depth) : Array.isArray(e) ? valueText(e, depth + 1) : scalarText(e),
    );
    // "Müller, Jürgen; Doe, Anna": a comma inside an element would blur where it ends.
    return parts.join(parts.some((p) => p.includes(",")) ? "; " : ", ");
  }
  if (isPlainObject(v)) return objectText(v, depth);
  return scalarText(v);
}

/** A value as a table cell: scalars keep their dim placeholders, the rest is `valueText`. */
export function humanCell(v: unknown): Cell {
  if (isScalar(v)) return scalarCell(v);
  return { text: valueText(v) };
}
