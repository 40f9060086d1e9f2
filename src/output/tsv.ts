/**
 * `tsv`: the CSV columns, tab-separated, one row a line; tab, newline, carriage return
 * and backslash inside a value are written as `\t`, `\n`, `\r`, `\\` so a value never
 * breaks a row, and control sequences are removed. Cells are formula-neutralised like
 * CSV, as spreadsheets open TSV too.
 */
import type { ItemResult, ListResult, RawResult } from "../core/command.js";
import type { WriterContext } from "./writer-context.js";
import { type CellGuard, neutraliseFormula, writeRows } from "./rows.js";
import { escapeTsv, stripTerminalControls } from "../core/sanitize.js";

export function tsvLine(cells: readonly string[], guard: CellGuard = "guarded"): string {
  // Cleaned before the guard, not only after it: a header is the API's keys as they came,
  // and "\x07=F()" guarded first would lose its BEL and open as the formula =F().
  const cell = (c: string) => escapeTsv(guard === "as-sent" ? c : neutraliseFormula(stripTerminalControls(c)));
  return `${cells.map(cell).join("\t")}\n`;
}

export async function writeTsv(result: ListResult | ItemResult | RawResult, ctx: WriterContext): Promise<void> {
  await writeRows(result, ctx, tsvLine);
}
