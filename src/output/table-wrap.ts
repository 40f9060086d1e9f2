/**
 * Rows of more than one line: a title (or a long name) wraps onto the lines under its
 * row instead of being cut to a prefix that several rows share, and where the row cannot
 * give a title a readable width it is stacked under the row's short facts, indented, as
 * wide as the terminal allows. A row is still printed as it comes, so a table streams.
 */
import type { Cell } from "./cells.js";
import { formatRow } from "./layout.js";
import type { Style } from "./style.js";
import { displayWidth, truncate, wrap } from "./width.js";

/** A wrapped cell takes at most this many lines; the last is cut with "…" if need be. */
export const MAX_WRAPPED_LINES = 3;

/** How far a stacked title is indented under its row. */
export const STACK_INDENT = 2;

/** `text` as lines of at most `width` columns, at most MAX_WRAPPED_LINES of them. */
export function wrapCell(text: string, width: number): string[] {
  if (displayWidth(text) <= width) return [text];
  // wrap() leaves a line holding a URL long; every line here is cut to the width.
  const lines = wrap(text, width);
  if (lines.length <= MAX_WRAPPED_LINES) return lines.map((l) => truncate(l, width));
  const kept = lines.slice(0, MAX_WRAPPED_LINES - 1).map((l) => truncate(l, width));
  // More than the lines hold: the last one ends with "…" to say the rest was cut.
  const last = truncate(lines.slice(MAX_WRAPPED_LINES - 1).join(" "), width);
  return [...kept, last.endsWith("…") ? last : `${truncate(last, width - 1)}…`];
}

/** What a row's layout needs: its widths, which cells never cut, wrap, or stack. */
export interface RowShape {
  widths: readonly number[];
  fixed: readonly boolean[];
  wraps: readonly boolean[];
  /** The width of the whole line, for a stacked cell. */
  total: number;
}

/**
 * The lines of one row: the cells on the first, a wrapping cell's further lines under it
 * in its own column (the cells before it kept as blank room, a never-cut one at its own
 * width, so the column lines up with the first line), then the stacked cell, if any,
 * indented and wrapped to the width.
 */
export function rowLines(cells: readonly Cell[], shape: RowShape, style: Style, stacked?: Cell): string[] {
  const wrapped = cells.map((cell, i) =>
    shape.wraps[i] && !shape.fixed[i] ? wrapCell(cell.text, shape.widths[i]!) : [cell.text],
  );
  const first = cells.map((cell, i) => ({ ...cell, text: wrapped[i]![0] ?? "" }));
  const lines = [formatRow(first, shape.widths, style, false, shape.fixed)];
  const depth = Math.max(...wrapped.map((w) => w.length));
  for (let k = 1; k < depth; k++) {
    const more = cells.map((cell, i): Cell => {
      const part = wrapped[i]![k];
      if (part !== undefined) return { ...cell, text: part };
      // Blank room as wide as the first line's cell took, so later columns line up.
      return { text: shape.fixed[i] ? " ".repeat(displayWidth(cell.text)) : "" };
    });
    lines.push(formatRow(more, shape.widths, style, false, shape.fixed).trimEnd());
  }
  if (stacked !== undefined && stacked.text !== "") {
    const room = Math.max(1, shape.total - STACK_INDENT);
    const pad = " ".repeat(STACK_INDENT);
    for (const part of wrapCell(stacked.text, room)) {
      let shown = stacked.dim ? style.dim(part) : part;
      if (stacked.link !== undefined) shown = style.link(shown, stacked.link);
      lines.push(pad + shown);
    }
  }
  return lines;
}
