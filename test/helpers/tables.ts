/**
 * Reading list tables back from a screen: each header line (upper-case headers two or
 * more spaces apart), where its columns start, and the rows under it (a row's first
 * line; the lines under it that start with a space are its wrapped or stacked cells);
 * and the check that no kept column is cut below the minimum its definition gives, nor a
 * never-cut one cut at all.
 */
import { expect } from "vitest";
import type { Resource } from "../../src/core/command.js";
import { columnRules } from "../../src/output/table-columns.js";

export interface ScreenTable {
  headers: string[];
  starts: number[];
  /** Each row's first line. */
  rows: string[];
  /** Each row's further lines (a title wrapped in its column, or stacked under the row). */
  more: string[][];
  /** The header of a column stacked under each row ("  TITLE" under the header line). */
  stacked?: string;
}

/** The tables of a screen, in order. */
export function tablesOf(text: string): ScreenTable[] {
  const lines = text.split("\n");
  const tables: ScreenTable[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^[A-Z]+(?: [A-Z]+)*(?: {2,}[A-Z]+(?: [A-Z]+)*)*$/.test(lines[i]!)) continue;
    const starts = [...lines[i]!.matchAll(/(?:^|(?<= {2}))[A-Z]+(?: [A-Z]+)*/g)].map((m) => m.index);
    const headers = starts.map((at, j) => lines[i]!.slice(at, starts[j + 1]).trim());
    const under = /^ {2}([A-Z]+(?: [A-Z]+)*)$/.exec(lines[i + 1] ?? "");
    if (under) i++;
    const rows: string[] = [];
    const more: string[][] = [];
    while (i + 1 < lines.length && lines[i + 1] !== "" && !/^(--- |note: |to continue: )/.test(lines[i + 1]!)) {
      const line = lines[++i]!;
      if (line.startsWith(" ") && rows.length > 0) more[more.length - 1]!.push(line);
      else {
        rows.push(line);
        more.push([]);
      }
    }
    tables.push({ headers, starts, rows, more, ...(under ? { stacked: under[1]! } : {}) });
  }
  return tables;
}

/**
 * Every column of `table` is a default column of `resource`; a cut cell (ending in "…")
 * is in a column at least its minimum wide, and never in one that is never cut.
 */
export function expectMinimums(table: ScreenTable, resource: Resource | "search-content", label: string): void {
  const rules = new Map(columnRules(resource).map((r) => [r.header, r]));
  if (table.stacked !== undefined)
    expect(rules.get(table.stacked), `${label}: ${table.stacked} is a default column of ${resource}`).toBeDefined();
  table.headers.forEach((header, j) => {
    const rule = rules.get(header);
    expect(rule, `${label}: ${header} is a default column of ${resource}`).toBeDefined();
    const end = table.starts[j + 1];
    // A stacked title's lines are the width's own, under the row: not in a column.
    const wrapped = table.more.flat().filter((l) => table.stacked === undefined || !/^ {2}\S/.test(l));
    for (const row of [...table.rows, ...wrapped]) {
      const cell = row.slice(table.starts[j], end).trimEnd();
      if (!cell.endsWith("…")) continue;
      const where = `${label}: ${header} cut to "${cell}"`;
      expect(rule!.fixed, where).toBe(false);
      // The cut cell fills its column: the column is at least the minimum wide.
      expect(end === undefined ? cell.length : end - table.starts[j]! - 2, where).toBeGreaterThanOrEqual(rule!.min);
    }
  });
}
