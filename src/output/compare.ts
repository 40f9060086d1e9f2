/**
 * `vendors compare`: the vendors side by side, one column each, one row per field, each
 * value whole in its column at the terminal's width. A field too long to sit beside the
 * others (a long link, a list, a sentence) follows the table, stacked; when the names do
 * not fit, or too many fields would have to follow, the whole comparison is stacked: one
 * block per field with a line per vendor under it. Nothing is ever cut. The sources of
 * the facts follow, each said once per vendor, then other keys of the comparison as a
 * card (a question not asked, a null, says nothing).
 */
import { renderCard } from "./card-writer.js";
import { type CompareCell, type CompareRow, type Comparison, comparisonOf } from "./compare-rows.js";
import { GAP } from "./layout.js";
import type { Style } from "./style.js";
import { isPlainObject, type Plain } from "./values.js";
import { displayWidth, padEnd, wrap } from "./width.js";

function vendorsOf(data: unknown): { vendors: Plain[]; key: string | undefined } | undefined {
  const ok = (v: unknown): v is Plain[] => Array.isArray(v) && v.length > 0 && v.every(isPlainObject);
  if (ok(data)) return { vendors: data, key: undefined };
  if (!isPlainObject(data)) return undefined;
  for (const key of ["vendors", "items", "comparison", "results", "data"]) {
    const v = data[key];
    if (ok(v)) return { vendors: v, key };
  }
  return undefined;
}

const widest = (lines: readonly string[]) => lines.reduce((m, l) => Math.max(m, displayWidth(l)), 0);
const labelWidth = (r: CompareRow) => 2 * r.depth + displayWidth(r.label);

/** The columns' natural widths: the labels', then each vendor's (its name and its values). */
function naturals(cmp: Comparison, rows: readonly CompareRow[]): number[] {
  const label = rows.reduce((m, r) => Math.max(m, labelWidth(r)), 0);
  const cols = cmp.names.map((n, i) =>
    rows.reduce((m, r) => Math.max(m, widest(r.cells?.[i]?.lines ?? [])), displayWidth(n.text)),
  );
  return [label, ...cols];
}

const lineWidth = (widths: readonly number[]) => widths.reduce((s, w) => s + w, 0) + GAP * (widths.length - 1);

/** At most this share of the rows may follow the table; past it the whole comparison is stacked. */
const MAX_BELOW_SHARE = 1 / 4;

/** A group's heading stays in the table only while some field under it does. */
function withoutEmptyHeadings(rows: readonly CompareRow[]): CompareRow[] {
  return rows.filter((r, i) => {
    if (r.cells) return true;
    for (const next of rows.slice(i + 1)) {
      if (next.depth <= r.depth) return false;
      if (next.cells) return true;
    }
    return false;
  });
}

/**
 * The rows laid side by side, and those (a long link, a long list) whose values would
 * not fit whole beside the others, which follow the table stacked, widest first; or
 * undefined when the names do not fit, or too many rows would have to follow.
 */
function planSideBySide(cmp: Comparison, width: number) {
  const leaves = cmp.rows.filter((r) => r.cells);
  // What a row alone needs: its label and its values, names aside.
  const need = new Map(leaves.map((r) => [r, lineWidth([labelWidth(r), ...r.cells!.map((c) => widest(c.lines))])]));
  const byNeed = [...leaves].sort((a, b) => need.get(b)! - need.get(a)!);
  let table = [...cmp.rows];
  const below = new Set<CompareRow>();
  while (lineWidth(naturals(cmp, table)) > width) {
    const next = byNeed[below.size];
    if (!next || below.size + 1 > Math.max(2, leaves.length * MAX_BELOW_SHARE)) return undefined;
    below.add(next);
    table = table.filter((r) => r !== next);
  }
  table = withoutEmptyHeadings(table);
  return { table, widths: naturals(cmp, table), below: below.size > 0 ? withGroups(cmp.rows, below) : [] };
}

const paint = (c: CompareCell | undefined, t: string, style: Style) => (c?.dim ? style.dim(t) : t);
const heading = (r: CompareRow, style: Style) => (r.depth === 0 ? style.heading(r.label) : style.bold(r.label));

/** A line of cells, each padded to its column but the last. */
function joinCells(parts: readonly string[], plain: readonly string[], widths: readonly number[]): string {
  let last = parts.length - 1;
  while (last > 0 && plain[last] === "") last--;
  return parts
    .slice(0, last + 1)
    .map((p, i) => (i < last ? p + " ".repeat(Math.max(0, widths[i]! - displayWidth(plain[i]!)) + GAP) : p))
    .join("");
}

function sideBySide(cmp: Comparison, plan: { table: CompareRow[]; widths: number[] }, style: Style): string[] {
  const { widths } = plan;
  const names = cmp.names.map((n) => n.text);
  const lines = [
    joinCells(["", ...cmp.names.map((n) => style.link(style.bold(n.text), n.link))], ["", ...names], widths),
  ];
  for (const r of plan.table) {
    const indent = " ".repeat(2 * r.depth);
    if (!r.cells) {
      if (r.depth === 0) lines.push("");
      lines.push(indent + heading(r, style));
      continue;
    }
    const height = Math.max(...r.cells.map((c) => c.lines.length));
    for (let j = 0; j < height; j++) {
      const label = j === 0 ? indent + r.label : "";
      const texts = r.cells.map((c) => c.lines[j] ?? "");
      const shown = r.cells.map((c, i) => paint(c, texts[i]!, style));
      lines.push(joinCells([label, ...shown], [label, ...texts], widths));
    }
  }
  return lines;
}

interface StackAt {
  indent: number;
  nameWidth: number;
  width: number;
}

/** A value's lines beside a name: one value may wrap, a list's elements each keep a line. */
const besideLines = (cell: CompareCell, room: number) =>
  cell.list || cell.lines.length !== 1 ? cell.lines : wrap(cell.lines[0]!, room);

/** Whether every vendor's value of the row fits beside its name (else all go under theirs). */
function fitsBeside(cmp: Comparison, cells: readonly CompareCell[], at: StackAt): boolean {
  const room = at.width - at.indent - at.nameWidth - GAP;
  if (room < 16) return false;
  return cells.every(
    (c, i) => displayWidth(cmp.names[i]!.text) <= at.nameWidth && widest(besideLines(c, room)) <= room,
  );
}

/** One vendor's value under a field: beside its name, or on lines under it. */
function stackedValue(
  name: { text: string; link: unknown },
  cell: CompareCell,
  at: StackAt,
  beside: boolean,
  style: Style,
) {
  const pad = " ".repeat(at.indent);
  if (beside) {
    return besideLines(cell, at.width - at.indent - at.nameWidth - GAP).map((l, j) => {
      const label = j === 0 ? style.link(padEnd(name.text, at.nameWidth), name.link) : " ".repeat(at.nameWidth);
      return `${pad}${label}${" ".repeat(GAP)}${paint(cell, l, style)}`.trimEnd();
    });
  }
  const nameLines = wrap(name.text, at.width - at.indent).map((l, j) => pad + (j === 0 ? style.link(l, name.link) : l));
  const under = cell.lines.flatMap((l) => wrap(l, at.width - at.indent - 2));
  return [...nameLines, ...under.map((l) => `${pad}  ${paint(cell, l, style)}`)];
}

/** Field after field, each vendor's value on a line under it. */
function stacked(cmp: Comparison, rows: readonly CompareRow[], width: number, style: Style): string[] {
  const lines: string[] = [];
  const longest = Math.max(...cmp.names.map((n) => displayWidth(n.text)));
  for (const r of rows) {
    const indent = 2 * r.depth;
    if (r.depth === 0 && !r.cells && lines.length > 0) lines.push("");
    const label = wrap(r.label, width - indent).map((l) => " ".repeat(indent) + l);
    lines.push(...label.map((l) => (r.cells ? style.bold(l) : r.depth === 0 ? style.heading(l) : style.bold(l))));
    if (!r.cells) continue;
    const at = { indent: indent + 2, nameWidth: Math.min(longest, Math.floor((width - indent - 2) / 2)), width };
    const beside = fitsBeside(cmp, r.cells, at);
    r.cells.forEach((c, i) => {
      if (c.lines.every((l) => l === "")) return;
      lines.push(...stackedValue(cmp.names[i]!, c, at, beside, style));
    });
  }
  return lines;
}

/** Some rows with the headings of the groups they are in, as headings only. */
function withGroups(all: readonly CompareRow[], picked: ReadonlySet<CompareRow>): CompareRow[] {
  const keep = new Set(picked);
  all.forEach((r, i) => {
    if (!picked.has(r)) return;
    let depth = r.depth;
    for (let j = i - 1; j >= 0 && depth > 0; j--) {
      const up = all[j]!;
      if (up.depth < depth) {
        keep.add(up);
        depth = up.depth;
      }
    }
  });
  return all
    .filter((r) => keep.has(r))
    .map((r) => {
      if (picked.has(r)) return r;
      const { cells: _, ...heading } = r;
      return heading;
    });
}

/** Each vendor's sources: "• destinations, methods: vendor site, checked …, https://…". */
function sourcesBlock(cmp: Comparison, width: number, style: Style): string[] {
  if (cmp.sources.every((s) => s.length === 0)) return [];
  const lines = ["", style.heading("Sources")];
  cmp.sources.forEach((notes, i) => {
    if (notes.length === 0) return;
    const name = cmp.names[i]!;
    lines.push(...wrap(name.text, width - 2).map((l, j) => `  ${j === 0 ? style.link(l, name.link) : l}`));
    for (const n of notes) {
      wrap(`${n.fields.join(", ")}: ${n.text}`, width - 6).forEach((l, j) =>
        lines.push(`${j === 0 ? "    • " : "      "}${l}`),
      );
    }
  });
  return lines;
}

/** The comparison's lines, or undefined when the data holds no list of vendors. */
export function renderCompare(data: unknown, width: number, style: Style): string[] | undefined {
  const found = vendorsOf(data);
  if (!found) return undefined;
  const rest: Plain = isPlainObject(data) && found.key !== undefined ? { ...data } : {};
  if (found.key !== undefined) delete rest[found.key];
  const cmp = comparisonOf(found.vendors, rest.ships_to);
  const plan = planSideBySide(cmp, width);
  let lines: string[];
  if (plan) {
    lines = sideBySide(cmp, plan, style);
    if (plan.below.length > 0) lines.push("", ...stacked(cmp, plan.below, width, style));
  } else lines = stacked(cmp, cmp.rows, width, style);
  lines.push(...sourcesBlock(cmp, width, style));
  // What the comparison answered (`ships_to`) is in the rows; a null says nothing.
  delete rest.ships_to;
  for (const [k, v] of Object.entries(rest)) if (v === null || v === undefined) delete rest[k];
  if (Object.keys(rest).length > 0) lines.push("", ...renderCard(rest, { titleKeys: [] }, { width, style }));
  return lines;
}
