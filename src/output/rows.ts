/**
 * Rows for the delimited formats (CSV, TSV), each value as plain text. A list of a
 * resource of the column map (src/api/csv-columns.ts) gets that map's header, or `--fields`
 * expanded by it: the same header whatever the data, with what the map does not name in
 * its `other` column. Anything else (a single item, `pep api`, search) takes its columns
 * from the first item's flattened keys.
 */
import { stringifyExact } from "../core/exact-number.js";
import { leftOver, mappedColumns, OTHER_COLUMN } from "../api/csv-columns.js";
import type { ItemResult, ListResult, RawResult } from "../core/command.js";
import type { WriterContext } from "./writer-context.js";
import { inertJson, stripTerminalControls } from "../core/sanitize.js";
import {
  expandFields,
  flattenKeys,
  getPath,
  isPlainObject,
  isScalar,
  NOT_DOCUMENTED,
  NOT_DOCUMENTED_TEXT,
} from "./value-paths.js";
import { parseKeepingNumbers } from "./json-text.js";

/** Header of the single column used when items are not objects. */
const VALUE_COLUMN = "value";

function scalarText(v: unknown, guard: CellGuard): string {
  if (v === null || v === undefined) return "";
  if (v === NOT_DOCUMENTED) return NOT_DOCUMENTED_TEXT;
  return guard === "as-sent" ? String(v) : stripTerminalControls(String(v));
}

/**
 * A value as cell text: `null` empty, `not_documented` as "not documented", a list of
 * scalars joined with "; ", anything else nested as compact JSON (exact, and inert).
 * Money strings pass through untouched.
 */
export function delimitedText(v: unknown, guard: CellGuard = "guarded"): string {
  if (isScalar(v)) return scalarText(v, guard);
  if (Array.isArray(v) && v.every(isScalar)) return v.map((s) => scalarText(s, guard)).join("; ");
  // JSON escapes C0 controls itself; C1 and bidi controls as \u escapes too. Stripping
  // them instead would change the data, and an OSC opened by a raw U+009D would take the
  // rest of the cell, its closing brackets with it.
  return inertJson(stringifyExact(v) ?? "null");
}

const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * A cell a spreadsheet would run as a formula (starting with = + - @, tab or CR) gets a
 * leading `'`; plain numbers such as "-12.5" stay as they are. This and the removal of
 * control characters are the formula guard, on by default (`--no-formula-guard` and the
 * config key `formula_guard` turn it off for a database load).
 */
/** How a cell is made safe: guarded (the default) or, off a terminal with the guard off, as sent. */
export type CellGuard = "guarded" | "as-sent";

/** The guard of this run's cells: as sent only when asked for and not bound for a terminal. */
export function cellGuard(ctx: WriterContext): CellGuard {
  return ctx.options.formulaGuard === false && !ctx.options.outIsTTY ? "as-sent" : "guarded";
}

export function neutraliseFormula(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

function itemsOf(result: ListResult | ItemResult | RawResult): AsyncIterable<unknown> | Iterable<unknown> {
  if (result.kind === "list") return result.items;
  if (result.kind === "raw" && result.items) return result.items;
  if (result.kind === "item" && result.resource === "search") return searchRows(result.data);
  // `pep api`'s body is read from its text: a number JavaScript cannot hold exactly
  // (9007199254740993, 1.10, 1e400) becomes a cell as written, not a rounded one.
  let data =
    result.kind === "item" ? result.data : result.text !== undefined ? parseKeepingNumbers(result.text) : result.body;
  // `pep api`: the rows are the answer's `data` (a list's items, or the one object), as
  // with --paginate; a body without `data` is one row.
  if (
    result.kind === "raw" &&
    isPlainObject(data) &&
    "data" in data &&
    (isPlainObject(data.data) || Array.isArray(data.data))
  )
    data = data.data;
  return Array.isArray(data) ? data : [data];
}

/**
 * `pep search` as rows: one a hit, profiles first, then content, each with the same
 * columns (`kind` says which group it came from), so the two groups share one header.
 */
/** The columns of `pep search -o csv`, in order: also the header when nothing matched. */
export const SEARCH_COLUMNS = ["kind", "id", "title", "type", "url", "score", "excerpt"] as const;

export function searchRows(data: unknown): Record<string, unknown>[] {
  if (!isPlainObject(data)) return [data as Record<string, unknown>];
  const rows: Record<string, unknown>[] = [];
  const row = (kind: string, hit: unknown, title: unknown, type: unknown, excerpt: unknown) => {
    const h = isPlainObject(hit) ? hit : {};
    rows.push({
      kind,
      id: h.id ?? null,
      title: title ?? null,
      type: type ?? null,
      url: h.url ?? null,
      score: h.score ?? null,
      excerpt: excerpt ?? null,
    });
  };
  for (const p of Array.isArray(data.peptides) ? data.peptides : []) {
    const h = isPlainObject(p) ? p : {};
    row("peptide", p, h.name, "peptide", h.summary);
  }
  const content = Array.isArray(data.content)
    ? data.content
    : isPlainObject(data.content)
      ? Object.values(data.content).flatMap((v) => (Array.isArray(v) ? v : []))
      : [];
  for (const c of content) {
    const h = isPlainObject(c) ? c : {};
    row("content", c, h.title, h.type, h.excerpt);
  }
  return rows;
}

/**
 * Streams rows: `line(cells)` turns the texts of one row (header first) into output.
 * With `--fields` and no items, only the header is printed.
 */
export async function writeRows(
  result: ListResult | ItemResult | RawResult,
  ctx: WriterContext,
  format: (cells: string[], guard: CellGuard) => string,
): Promise<void> {
  const guard = cellGuard(ctx);
  const line = (cells: string[]) => format(cells, guard);
  // Going on after an earlier run's rows: their header is written already.
  const headerWritten = (ctx.options.continuing?.items ?? 0) > 0;
  const header = (cells: string[]) => (headerWritten ? undefined : ctx.emit(line(cells)));
  const mapped = result.kind === "list" ? mappedColumns(result.resource, ctx.fields) : undefined;
  let columns: string[] | undefined;
  const other = mapped?.at(-1) === OTHER_COLUMN && !ctx.fields?.length;
  let byValue = false;
  for await (const item of ctx.each(itemsOf(result))) {
    if (mapped) {
      // The header goes out with the first row (a list that fails before one has nothing).
      if (!columns) {
        columns = mapped;
        await header(columns);
      }
      const held = other ? columns.slice(0, -1) : columns;
      const cells = held.map((c) => delimitedText(getPath(item, c), guard));
      if (other) {
        const rest = leftOver(item, held);
        cells.push(rest === undefined ? "" : delimitedText(rest, guard));
      }
      const p = ctx.emit(line(cells));
      if (p) await p;
      continue;
    }
    if (!columns) {
      if (ctx.fields && ctx.fields.length > 0) columns = expandFields(ctx.fields, item);
      else if (isPlainObject(item)) columns = flattenKeys(item);
      else {
        columns = [VALUE_COLUMN];
        byValue = true;
      }
      await header(columns);
    }
    const cells = byValue ? [delimitedText(item, guard)] : columns.map((c) => delimitedText(getPath(item, c), guard));
    const p = ctx.emit(line(cells));
    if (p) await p;
  }
  // An empty list still has its header: the map's, search's, or --fields.
  if (!columns && mapped) await header(mapped);
  else if (!columns && result.kind === "item" && result.resource === "search" && !ctx.fields?.length)
    await header([...SEARCH_COLUMNS]);
  else if (!columns && ctx.fields && ctx.fields.length > 0) await header(ctx.fields);
}
