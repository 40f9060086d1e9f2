/**
 * Column widths fitted to the terminal, and rows laid out in them. Used by the list
 * tables and by the side-by-side vendor comparison. Lines never exceed the width: long
 * cells are cut with "…", never wrapped onto more lines.
 */
import type { Cell } from "./cells.js";
import type { Style } from "./style.js";
import { displayWidth, truncate } from "./width.js";

export const GAP = 2;
/** Narrowest a shrunk column gets (room for "ab…"). */
const MIN_WIDTH = 4;

/**
 * Widths for columns of the given natural widths within `total` columns. When they fit,
 * each keeps its natural width; else the narrow ones keep theirs and the wide ones share
 * the rest, a `wide` column (a study's title: what the reader came for) getting a
 * double share. The first column names the row (a name or an id), so it keeps its
 * natural width up to half the room before the others share. A `fixed` column (money)
 * always keeps its natural width, so an amount is never cut. Columns that cannot get
 * even the minimum are dropped from the right (the result is shorter). The last
 * column's width is whatever room is left, since it is never padded: later rows may use
 * it.
 */
export function fitWidths(
  natural: readonly number[],
  total: number,
  {
    fixed = [],
    wide = [],
    minWidth = MIN_WIDTH,
  }: { fixed?: readonly boolean[]; wide?: readonly boolean[]; minWidth?: number } = {},
): number[] {
  let n = natural.length;
  const least = (i: number) => (fixed[i] ? natural[i]! : Math.min(natural[i]!, minWidth));
  const need = (k: number) => natural.slice(0, k).reduce((s, _, i) => s + least(i), 0) + GAP * (k - 1);
  while (n > 1 && need(n) > total) n--;
  if (n === 0) return [];
  const nat = natural.slice(0, n).map((w) => Math.max(1, w));
  const avail = Math.max(1, total - GAP * (n - 1));
  let widths: number[];
  if (nat.reduce((s, w) => s + w, 0) <= avail) {
    widths = [...nat];
  } else {
    widths = new Array<number>(n).fill(0);
    let remaining = avail;
    const flexible: (readonly [number, number])[] = [];
    nat.forEach((w, i) => {
      if (i === 0 && !fixed[i] && n > 1) {
        // Half the room, but never so much that another column falls below its least.
        const othersLeast = nat.slice(1).reduce((sum, _, j) => sum + least(j + 1), 0);
        widths[i] = Math.max(least(0), Math.min(w, Math.floor(avail / 2), avail - othersLeast));
        remaining -= widths[i]!;
      } else if (fixed[i]) {
        widths[i] = w;
        remaining -= w;
      } else flexible.push([w, i]);
    });
    // Narrowest (for its weight) first, so what a column does not need goes to the rest.
    const weight = (i: number) => (wide[i] ? 2 : 1);
    flexible.sort((a, b) => a[0] / weight(a[1]) - b[0] / weight(b[1]));
    let weightLeft = flexible.reduce((sum, [, i]) => sum + weight(i), 0);
    for (const [w, i] of flexible) {
      const share = Math.floor((remaining * weight(i)) / weightLeft);
      const given = Math.max(Math.min(w, minWidth), Math.min(w, share));
      widths[i] = given;
      remaining -= given;
      weightLeft -= weight(i);
    }
  }
  const others = widths.slice(0, -1).reduce((s, w) => s + w, 0);
  widths[n - 1] = Math.max(widths[n - 1]!, avail - others);
  return widths;
}

/** Natural width of each column over some rows of cells (headers included). */
export function naturalWidths(headers: readonly string[], rows: readonly (readonly Cell[])[]): number[] {
  return headers.map((h, i) => rows.reduce((m, r) => Math.max(m, displayWidth(r[i]?.text ?? "")), displayWidth(h)));
}

/**
 * One line: each cell cut to its width (except `fixed` ones), styled (dim placeholders,
 * hyperlinks), padded by its plain width; no padding after the last non-empty cell.
 */
export function formatRow(
  cells: readonly Cell[],
  widths: readonly number[],
  style: Style,
  bold = false,
  fixed: readonly boolean[] = [],
): string {
  let last = -1;
  widths.forEach((_, i) => {
    if ((cells[i]?.text ?? "") !== "") last = i;
  });
  let line = "";
  for (let i = 0; i <= last; i++) {
    const cell = cells[i] ?? { text: "" };
    const w = widths[i]!;
    // Money is never cut: a later, longer amount shifts its row rather than lose digits.
    const plain = fixed[i] ? cell.text : truncate(cell.text, w);
    let shown = cell.dim ? style.dim(plain) : bold ? style.bold(plain) : plain;
    if (cell.link !== undefined) shown = style.link(shown, cell.link);
    line += shown;
    if (i < last) line += " ".repeat(Math.max(0, w - displayWidth(plain)) + GAP);
  }
  return line;
}
