/**
 * An item as the library keeps it: its JSON text cut from the page exactly as the API
 * sent it, its key, its typed column values, and what changed between two versions of it.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { ExactNumber, jsonStringEnd, stringifyExact } from "../core/exact-number.js";
import type { LibraryColumn } from "./schema.js";

const WS = new Set([" ", "\t", "\n", "\r"]);

/** The index just past the JSON string starting at `i` (a `"`). */
function stringEnd(text: string, i: number): number {
  const end = jsonStringEnd(text, i);
  if (end === -1) throw new Error("unterminated string");
  return end;
}

/** The index just past the JSON value starting at `i`. */
function valueEnd(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return stringEnd(text, i);
  if (c !== "{" && c !== "[") {
    let j = i;
    while (j < text.length && !/[\s,\]}]/.test(text[j]!)) j++;
    return j;
  }
  let depth = 0;
  for (let j = i; j < text.length; ) {
    const d = text[j]!;
    if (d === '"') {
      j = stringEnd(text, j);
      continue;
    }
    if (d === "{" || d === "[") depth++;
    else if (d === "}" || d === "]") {
      depth--;
      if (depth === 0) return j + 1;
    }
    j++;
  }
  throw new Error("unterminated value");
}

const skipWs = (text: string, i: number): number => {
  while (i < text.length && WS.has(text[i]!)) i++;
  return i;
};

/** The elements of the JSON array starting at `i`, each as its text. */
function arrayElements(text: string, i: number): string[] {
  const out: string[] = [];
  let j = skipWs(text, i + 1);
  if (text[j] === "]") return out;
  for (;;) {
    const end = valueEnd(text, j);
    out.push(text.slice(j, end));
    j = skipWs(text, end);
    if (text[j] === "]") return out;
    if (text[j] !== ",") throw new Error("bad array");
    j = skipWs(text, j + 1);
  }
}

/** Where the value of an envelope's `data` starts in `body`, or -1. */
function dataStart(body: string): number {
  let i = skipWs(body, 0);
  if (body[i] !== "{") return -1;
  i = skipWs(body, i + 1);
  while (body[i] === '"') {
    const keyEnd = stringEnd(body, i);
    const key = JSON.parse(body.slice(i, keyEnd)) as string;
    i = skipWs(body, keyEnd);
    if (body[i] !== ":") return -1;
    i = skipWs(body, i + 1);
    if (key === "data") return i;
    i = skipWs(body, valueEnd(body, i));
    if (body[i] === ",") i = skipWs(body, i + 1);
  }
  return -1;
}

/** The text of an envelope's `data`, byte for byte as in `body`; undefined when there is none. */
export function dataText(body: string): string | undefined {
  try {
    const i = dataStart(body);
    return i === -1 ? undefined : body.slice(i, valueEnd(body, i));
  } catch {
    return undefined;
  }
}

/**
 * The text of each item of an envelope's `data` list, byte for byte as in `body` (numbers,
 * escapes and spacing as the API wrote them); undefined when `body` is not such an envelope.
 */
export function dataItemTexts(body: string): string[] | undefined {
  try {
    const i = dataStart(body);
    return i !== -1 && body[i] === "[" ? arrayElements(body, i) : undefined;
  } catch {
    return undefined;
  }
}

const hex = (s: string): string => bytesToHex(sha256(utf8ToBytes(s)));

/** An item's key: its `id`; an item without one is keyed by the sha256 of its text (`sha256:<hex>`). */
export function itemKey(item: unknown, text: string): string {
  const id = (item as { id?: unknown } | null)?.id;
  if (typeof id === "string" && id !== "") return id;
  if (typeof id === "number" || id instanceof ExactNumber) return String(id);
  return `sha256:${hex(text)}`;
}

/** The value at a dotted path (`evidence.level`). */
export function valueAt(item: unknown, path: string): unknown {
  let v: unknown = item;
  for (const part of path.split(".")) {
    if (v === null || typeof v !== "object" || Array.isArray(v)) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

const asNumber = (v: unknown): number | undefined =>
  typeof v === "number" ? v : v instanceof ExactNumber && Number.isFinite(Number(v.text)) ? Number(v.text) : undefined;

/**
 * The value of one typed column. A value that does not fit the column's kind (text where
 * a count was expected) is NULL there: `item` keeps it as sent.
 */
export function columnValue(item: unknown, column: LibraryColumn): unknown {
  const v = valueAt(item, column.path);
  if (v === undefined || v === null) return null;
  switch (column.kind) {
    case "text":
      return typeof v === "string" ? v : v instanceof ExactNumber ? v.text : (stringifyExact(v) ?? null);
    case "integer": {
      const n = asNumber(v);
      return n !== undefined && Number.isSafeInteger(n) ? n : null;
    }
    case "real":
      return asNumber(v) ?? null;
    case "boolean":
      return typeof v === "boolean" ? v : null;
    case "json":
      return stringifyExact(v) ?? null;
    case "decimal": {
      // The decimal as sent, as text: SQLite's REAL column reads it as a number, PostgreSQL's numeric exactly.
      const text =
        typeof v === "string" ? v : v instanceof ExactNumber ? v.text : typeof v === "number" ? String(v) : "";
      return DECIMAL.test(text) ? text : null;
    }
  }
}

/** A decimal as a price is sent (`12.50`, `-3`): what a `decimal` column reads as a number (else NULL). */
export const DECIMAL = /^-?\d+(\.\d+)?$/;

/** JSON text of a value for the change log; undefined (absent) is NULL. */
const jsonOf = (v: unknown): string | null => (v === undefined ? null : (stringifyExact(v) ?? null));

/**
 * What changed between two versions of an item: one entry per field that differs, named
 * by its CSV path (`evidence.level`) where the CSV columns name it, else by its top-level
 * key; values as JSON text.
 */
export function fieldChanges(
  before: unknown,
  after: unknown,
  paths: readonly string[],
): Array<{ field: string; old: string | null; new: string | null }> {
  // A path with two columns (price and price_value) is one field.
  const fields = [...new Set(paths)];
  const covered = (key: string) => paths.some((p) => p === key || p.startsWith(`${key}.`));
  for (const obj of [before, after]) {
    if (obj === null || typeof obj !== "object") continue;
    for (const key of Object.keys(obj)) if (!covered(key) && !fields.includes(key)) fields.push(key);
  }
  const out: Array<{ field: string; old: string | null; new: string | null }> = [];
  for (const field of fields) {
    const o = jsonOf(valueAt(before, field));
    const n = jsonOf(valueAt(after, field));
    if (o !== n) out.push({ field, old: o, new: n });
  }
  // A nested key the CSV paths do not name (evidence.extra): its top-level object.
  for (const key of new Set(paths.filter((p) => p.includes(".")).map((p) => p.split(".")[0]!))) {
    if (out.some((c) => c.field.startsWith(`${key}.`))) continue;
    const o = jsonOf(valueAt(before, key));
    const n = jsonOf(valueAt(after, key));
    if (o !== n) out.push({ field: key, old: o, new: n });
  }
  return out;
}

/**
 * The API's own links (`api_url`) hold the base URL an answer came from. Fetched from
 * another base URL (the in-process sandbox listens on a new port each run, a mirror),
 * the same item is the same data: before comparing, the earlier text's base URL is read
 * as the current one, so only real changes are logged.
 */
export interface Rebase {
  from: string;
  to: string;
}

/** `text` with the earlier base URL read as the current one (unchanged without a rebase). */
export function rebased(text: string, rebase: Rebase | undefined): string {
  return rebase === undefined ? text : text.split(rebase.from).join(rebase.to);
}
