/**
 * `csv`: RFC 4180 (CRLF line ends, fields quoted when they hold a comma, quote or line
 * break) by csv-stringify, one row at a time so a long export streams. Cells are
 * formula-neutralised for spreadsheets and cleaned of terminal control sequences (a lone
 * carriage return becomes a line feed); the header too, since keys come from the API.
 */
import { stringify } from "csv-stringify/sync";
import type { ItemResult, ListResult, RawResult } from "../core/command.js";
import type { WriterContext } from "./writer-context.js";
import { type CellGuard, neutraliseFormula, writeRows } from "./rows.js";
import { csvText, stripTerminalControls } from "../core/sanitize.js";

export function csvLine(cells: readonly string[], guard: CellGuard = "guarded"): string {
  // Cleaned here too, not only by the caller: the header is the API's keys as they came.
  const cell = (c: string) => (guard === "as-sent" ? c : csvText(neutraliseFormula(stripTerminalControls(c))));
  return stringify([cells.map(cell)], {
    record_delimiter: "\r\n",
    quoted_match: /[\r\n]/,
  });
}

export async function writeCsv(result: ListResult | ItemResult | RawResult, ctx: WriterContext): Promise<void> {
  await writeRows(result, ctx, csvLine);
}
