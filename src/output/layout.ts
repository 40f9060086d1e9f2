/**
 * Column widths fitted to the terminal, and rows laid out in them. Used by the list
 * tables and by the side-by-side vendor comparison. Lines never exceed the width: long
 * cells are cut with "…", or, for a title or a name, wrapped onto more lines by
 * table-wrap.ts.
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

/** What the planner knows of a column. */
export interface ColumnNeeds {
  /** Its widest cell (or header) in the rows at hand. */
  natural: number;
  /** The narrowest it may be cut to. */
  min: number;
  /** Higher is kept longer. */
  priority: number;
  /** Never cut: shown at its natural width, or hidden. */
  fixed?: boolean;
  /** A double share of the room left over (a title). */
  wide?: boolean;
  /** Rows may follow (a streamed list): room to spare widens it to its minimum for them. */
  reserve?: boolean;
}

/**
 * Columns of lower priority than this are extras (a journal, a link, a last-seen date):
 * hidden too, though they would fit, when that lets a more important column be whole.
 */
export const EXTRA_PRIORITY = 50;

/**
 * Which columns a table keeps within `total` columns, and their widths. Each column
 * needs its `min` (its natural width when narrower; all of it when `fixed`); columns are
 * taken by priority, highest first, while their needs fit, so the lowest-priority ones
 * are hidden whole before any cell is cut below its minimum (a column too wide for the
 * room left is passed over for a narrower one of lower priority). A `fixed` column is
 * taken only when the kept columns of higher priority that can be cut would still get
 * their natural widths, if it is an extra (below EXTRA_PRIORITY): a long URL does not
 * push a title below its length. Then an extra is let go, lowest first, whenever a
 * column that matters more is cut and would then be whole, or is cramped (under half
 * again its minimum); and any column, lowest first, while a `wide` one is cramped.
 * Columns passed over or let go are then taken back where they fit without undoing
 * that. The column of highest priority is always kept. What room is left goes to the
 * kept columns up to their natural widths, evenly (a `wide` one twice over), then to any
 * `reserve` one whose first rows were narrower than its minimum (later pages may be
 * wider), then to
 * the last column, which is never padded.
 */
export function planColumns(cols: readonly ColumnNeeds[], total: number): { keep: number[]; widths: number[] } {
  const nat = cols.map((c) => Math.max(1, c.natural));
  const least = cols.map((c, i) => (c.fixed ? nat[i]! : Math.max(1, Math.min(nat[i]!, c.min))));
  const order = cols.map((_, i) => i).sort((a, b) => cols[b]!.priority - cols[a]!.priority || a - b);
  const need = (k: readonly number[]) => k.reduce((s, i) => s + least[i]!, 0) + GAP * Math.max(0, k.length - 1);
  let keep = byPriority(cols, nat, least, order, total);
  const widthsOf = (k: readonly number[]) => shareRoom(cols, nat, least, k, total);
  const yielding = givingWay(cols, nat, order[0]!, widthsOf);
  for (let x = yielding(keep); x !== undefined; x = yielding(keep)) keep = keep.filter((i) => i !== x);
  // A column passed over or let go may fit in the room another's going made.
  for (const x of order.filter((i) => !keep.includes(i))) {
    const trial = [...keep, x].sort((a, b) => a - b);
    if (need(trial) <= total && yielding(trial) === undefined) keep = trial;
  }
  return { keep, widths: widthsOf(keep) };
}

/** Columns taken by priority while their needs fit (see planColumns). */
function byPriority(
  cols: readonly ColumnNeeds[],
  nat: readonly number[],
  least: readonly number[],
  order: readonly number[],
  total: number,
): number[] {
  const kept = new Set<number>();
  let used = 0;
  for (const i of order) {
    const cost = least[i]! + (kept.size > 0 ? GAP : 0);
    // A never-cut extra takes all its width at once: only when the columns that matter
    // more, and can be cut, still get theirs whole.
    const owed =
      cols[i]!.fixed && cols[i]!.priority < EXTRA_PRIORITY
        ? [...kept].reduce(
            (sum, k) => sum + (cols[k]!.fixed || cols[k]!.priority <= cols[i]!.priority ? 0 : nat[k]! - least[k]!),
            0,
          )
        : 0;
    if (kept.size > 0 && used + cost + owed > total) continue;
    kept.add(i);
    used += cost;
  }
  return [...kept].sort((a, b) => a - b);
}

/**
 * Which kept column, if any, should give way: an extra to a more important column it
 * keeps from being whole, or cramps (cut to under half again its minimum), or to a cut
 * `wide` one it would give more room; any column to a cramped `wide` one (the title the reader came for). The lowest priority goes first;
 * the `top` column never.
 */
function givingWay(
  cols: readonly ColumnNeeds[],
  nat: readonly number[],
  top: number,
  widthsOf: (keep: readonly number[]) => number[],
): (keep: readonly number[]) => number | undefined {
  const comfort = (i: number) => Math.min(nat[i]!, Math.ceil(cols[i]!.min * 1.5));
  return (keep) => {
    const widths = widthsOf(keep);
    const cut = keep.filter((i, j) => !cols[i]!.fixed && widths[j]! < nat[i]!);
    const cramped = (c: number) => widths[keep.indexOf(c)]! < comfort(c);
    const candidates = keep.filter((i) => i !== top).sort((a, b) => cols[a]!.priority - cols[b]!.priority || b - a);
    return candidates.find((x) => {
      const rest = keep.filter((i) => i !== x);
      const after = widthsOf(rest);
      return cut.some(
        (c) =>
          cols[c]!.priority > cols[x]!.priority &&
          (cols[x]!.priority < EXTRA_PRIORITY
            ? after[rest.indexOf(c)]! >= nat[c]! ||
              cramped(c) ||
              // A title is given all the room an extra would take (it wraps, or is whole).
              (cols[c]!.wide === true && after[rest.indexOf(c)]! > widths[keep.indexOf(c)]!)
            : cols[c]!.wide === true && cramped(c)),
      );
    });
  };
}

/** Widths of the kept columns: each its least, the room left shared, the rest to the last. */
function shareRoom(
  cols: readonly ColumnNeeds[],
  nat: readonly number[],
  least: readonly number[],
  keep: readonly number[],
  total: number,
): number[] {
  const widths = keep.map((i) => least[i]!);
  const used = widths.reduce((s, w) => s + w, 0) + GAP * Math.max(0, keep.length - 1);
  let slack = share(
    widths,
    keep.map((i, j) => (cols[i]!.fixed ? widths[j]! : nat[i]!)),
    keep.map((i) => (cols[i]!.wide ? 2 : 1)),
    total - used,
  );
  // Room to spare: a column whose first rows were short gets its minimum for later pages.
  keep.forEach((i, j) => {
    const give =
      !cols[i]!.reserve || cols[i]!.fixed || j === keep.length - 1
        ? 0
        : Math.min(slack, Math.max(0, cols[i]!.min - widths[j]!));
    widths[j]! += give;
    slack -= give;
  });
  if (widths.length > 0 && slack > 0) widths[widths.length - 1]! += slack;
  return widths;
}

/**
 * Grows `widths` toward `caps` with `slack` columns of room, evenly by weight, the
 * columns needing least first so what one does not need goes to the rest; returns the
 * room left.
 */
function share(widths: number[], caps: readonly number[], weights: readonly number[], slack: number): number {
  let left = slack;
  for (let progress = true; progress && left > 0; ) {
    progress = false;
    const open = widths.map((_, j) => j).filter((j) => widths[j]! < caps[j]!);
    open.sort((a, b) => (caps[a]! - widths[a]!) / weights[a]! - (caps[b]! - widths[b]!) / weights[b]!);
    let weightLeft = open.reduce((s, j) => s + weights[j]!, 0);
    for (const j of open) {
      const give = Math.min(caps[j]! - widths[j]!, Math.floor((left * weights[j]!) / weightLeft));
      weightLeft -= weights[j]!;
      if (give <= 0) continue;
      widths[j]! += give;
      left -= give;
      progress = true;
    }
    // What rounding left over goes one column at a time.
    if (!progress)
      for (const j of open) {
        if (left <= 0) break;
        widths[j]! += 1;
        left -= 1;
        progress = true;
      }
  }
  return left;
}

/** Natural width of each column over some rows of cells (headers included). */
export function naturalWidths(headers: readonly string[], rows: readonly (readonly Cell[])[]): number[] {
  return headers.map((h, i) => rows.reduce((m, r) => Math.max(m, displayWidth(r[i]?.text ?? "")), displayWidth(h)));
}

/**
 * One line: each cell cut to its width (except `fixed` ones), styled (dim placeholders,
 * hyperlinks), padded by its plain width; no padding after the last non-empty cell. A
 * fixed cell longer than its column (a later page's longer id or amount) is kept whole,
 * and the cells after it give up the columns it took, so the line keeps its width.
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
  let owed = 0;
  for (let i = 0; i <= last; i++) {
    const cell = cells[i] ?? { text: "" };
    let w = widths[i]!;
    if (!fixed[i] && owed > 0) {
      const given = Math.min(owed, w - 1);
      w -= given;
      owed -= given;
    }
    // Money and ids are never cut: a later, longer one takes room from the cells after it.
    const plain = fixed[i] ? cell.text : truncate(cell.text, w);
    if (fixed[i]) owed += Math.max(0, displayWidth(plain) - w);
    let shown = cell.dim ? style.dim(plain) : bold ? style.bold(plain) : plain;
    if (cell.link !== undefined) shown = style.link(shown, cell.link);
    line += shown;
    if (i < last) line += " ".repeat(Math.max(0, w - displayWidth(plain)) + GAP);
  }
  return line;
}
