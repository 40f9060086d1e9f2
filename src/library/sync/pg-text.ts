/**
 * What PostgreSQL cannot hold as the API sent it: a NUL character in text, and the JSON
 * escape `\u0000` in jsonb. The item's text (`item_text`, `body_text`) keeps it as sent;
 * the typed columns and the jsonb copies hold U+FFFD in its place.
 */
import { columnValue } from "../items.js";
import type { Dialect } from "../db.js";
import type { LibraryColumn } from "../schema.js";

/** JSON text jsonb takes: each `\u0000` escape (not an escaped backslash before `u0000`) as `\ufffd`. */
export const jsonbSafe = (text: string): string =>
  text.includes("\\u0000") ? text.replace(/(?<=^|[^\\])((?:\\\\)*)\\u0000/g, "$1\\ufffd") : text;

/** A typed column's value as the store can hold it. */
export function typedValue(dialect: Dialect, item: unknown, column: LibraryColumn): unknown {
  const v = columnValue(item, column);
  if (dialect !== "postgres" || typeof v !== "string") return v;
  if (column.kind === "json") return jsonbSafe(v);
  return v.includes("\0") ? v.replaceAll("\0", "\uFFFD") : v;
}
