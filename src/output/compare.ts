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
import { type CompareCell, type CompareRow, type Comparison, comparisonOf, type SourceNote } from "./compare-rows.js";
import { GAP } from "./layout.js";
import type { Style } from "./style.js";
import { isPlainObject, type Plain } from "./value-paths.js";
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

type Name = { text: string; link: unknown };

/** The columns' natural widths: the labels', then each vendor's (its heading and its values). */
function naturals(names: readonly Name[], rows: readonly CompareRow[]): number[] {
  const label = rows.reduce((m, r) => Math.max(m, labelWidth(r)), 0);
  const cols = names.map((n, i) =>
    rows.reduce((m, r) => Math.max(m, widest(r.cells?.[i]?.lines ?? [])), displayWidth(n.text)),
  );
  return [label, ...cols];
}

const lineWidth = (widths: readonly number[]) => widths.reduce((s, w) => s + w, 0) + GAP * (widths.length - 1);

/** Column headings A, B, C, D when the vendors' names do not fit side by side. */
const SHORT = ["A", "B", "C", "D", "E", "F", "G", "H"];

interface Plan {
  /** The column headings: the vendors' names, or their short labels (then a legend comes first). */
  names: Name[];
  short: boolean;
  widths: number[];
  /** Fields whose values would not fit whole in a column: stacked in their place, a line per vendor. */
  stacked: ReadonlySet<CompareRow>;
}

/**
 * The fields laid side by side under `names`: each vendor's column gets an equal share of
 * the room beside the labels, and a field with a value wider than its share is stacked in
 * its place instead, unless the room the other columns leave holds it; undefined when not
 * even the headings fit.
 */
function planWith(cmp: Comparison, names: Name[], short: boolean, width: number): Plan | undefined {
  const labels = cmp.rows.reduce((m, r) => Math.max(m, labelWidth(r)), 0);
  const share = Math.floor((width - labels - GAP * names.length) / names.length);
  if (names.some((n) => displayWidth(n.text) > share)) return undefined;
  const stacked = new Set(cmp.rows.filter((r) => r.cells?.some((c) => widest(c.lines) > share)));
  const inTable = () => cmp.rows.filter((r) => !stacked.has(r));
  // Room another column leaves unused takes back the narrowest stacked fields that then fit.
  const need = (r: CompareRow) => lineWidth([labelWidth(r), ...r.cells!.map((c) => widest(c.lines))]);
  for (const r of [...stacked].sort((a, b) => need(a) - need(b))) {
    stacked.delete(r);
    if (lineWidth(naturals(names, inTable())) > width) stacked.add(r);
  }
  return { names, short, widths: naturals(names, inTable()), stacked };
}

/**
 * Full names as column headings while every field fits in the columns; else short labels
 * (A, B, …) named once in a legend, so that no vendor's name is repeated on every row.
 */
function planLayout(cmp: Comparison, width: number): Plan | undefined {
  const full = planWith(cmp, cmp.names, false, width);
  // A stacked field would repeat every name: then short labels, named once in a legend.
  if (full && full.stacked.size === 0) return full;
  const labels = cmp.names.map((n, i) => ({ text: SHORT[i] ?? String(i + 1), link: n.link }));
  return planWith(cmp, labels, true, width) ?? full;
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

/**
 * What each short label stands for, on one line when it fits
 * ("A  Neskax Research Materials   B  Jorvax Supply"), else a line each.
 */
function legend(cmp: Comparison, plan: Plan, width: number, style: Style): string[] {
  if (!plan.short) return [];
  const items = cmp.names.map((n, i) => ({ label: plan.names[i]!.text, name: n }));
  const plain = items.map((it) => `${it.label}  ${it.name.text}`).join("   ");
  const shown = items.map((it) => `${it.label}  ${style.link(style.bold(it.name.text), it.name.link)}`);
  if (displayWidth(plain) <= width) return [shown.join("   ")];
  return items.flatMap((it) =>
    wrap(it.name.text, Math.max(8, width - 3)).map((l, j) =>
      j === 0 ? `${it.label}  ${style.link(style.bold(l), it.name.link)}` : `   ${l}`,
    ),
  );
}

/** Each field once, in its group: in the columns, or (too wide for them) stacked in its place. */
function sideBySide(cmp: Comparison, plan: Plan, width: number, style: Style): string[] {
  const { widths, names } = plan;
  const lines = [
    ...legend(cmp, plan, width, style),
    joinCells(
      ["", ...names.map((n) => style.link(style.bold(n.text), n.link))],
      ["", ...names.map((n) => n.text)],
      widths,
    ),
  ];
  const nameWidth = Math.max(...names.map((n) => displayWidth(n.text)));
  for (const r of cmp.rows) {
    const indent = " ".repeat(2 * r.depth);
    if (!r.cells) {
      // Under short labels the groups' headings, bold and underlined, need no blank line to stand out.
      if (r.depth === 0 && !plan.short) lines.push("");
      lines.push(indent + heading(r, style));
      continue;
    }
    if (plan.stacked.has(r)) {
      lines.push(...stackedRow(names, r, { indent: 2 * r.depth, nameWidth, width }, style));
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

/** A field stacked: its label, then each vendor's value beside the vendor's heading (or under it). */
function stackedRow(names: readonly Name[], r: CompareRow, at: StackAt, style: Style): string[] {
  const lines = wrap(r.label, at.width - at.indent).map((l) => " ".repeat(at.indent) + l);
  const inner = {
    ...at,
    indent: at.indent + 2,
    nameWidth: Math.min(at.nameWidth, Math.floor((at.width - at.indent - 2) / 2)),
  };
  // Beside a short label always (a link longer than the line is left long); a name, when all fit.
  const beside = inner.nameWidth <= 2 || fitsBeside(names, r.cells!, inner);
  r.cells!.forEach((c, i) => {
    if (c.lines.every((l) => l === "")) return;
    lines.push(...stackedValue(names[i]!, c, inner, beside, style));
  });
  return lines;
}

interface StackAt {
  indent: number;
  nameWidth: number;
  width: number;
}

/** A value's lines beside a name: one value may wrap, a list's elements each keep a line. */
const besideLines = (cell: CompareCell, room: number) =>
  cell.list || cell.lines.length !== 1 ? wrapList(cell.lines, room) : wrap(cell.lines[0]!, room);

/** A list's elements joined by "; " and wrapped between them (an element longer than the room keeps a line). */
function wrapList(items: readonly string[], room: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const whole of items) {
    // An element longer than the room wraps on its own lines.
    const parts = displayWidth(whole) > room ? wrap(whole, room) : [whole];
    const item = parts.pop()!;
    if (parts.length > 0) {
      if (line !== "") lines.push(`${line};`);
      lines.push(...parts);
      line = "";
    }
    const next = line === "" ? item : `${line}; ${item}`;
    if (line !== "" && displayWidth(next) > room) {
      lines.push(`${line};`);
      line = item;
    } else line = next;
  }
  if (line !== "") lines.push(line);
  return lines;
}

/** Whether every vendor's value of the row fits beside its heading (else all go under theirs). */
function fitsBeside(names: readonly Name[], cells: readonly CompareCell[], at: StackAt): boolean {
  const room = at.width - at.indent - at.nameWidth - GAP;
  if (room < 16) return false;
  return cells.every((c, i) => displayWidth(names[i]!.text) <= at.nameWidth && widest(besideLines(c, room)) <= room);
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
    const beside = fitsBeside(cmp.names, r.cells, at);
    r.cells.forEach((c, i) => {
      if (c.lines.every((l) => l === "")) return;
      lines.push(...stackedValue(cmp.names[i]!, c, at, beside, style));
    });
  }
  return lines;
}

/**
 * A vendor's notes, those of one source checked on one day said once:
 * "vendor site, checked 2025-05-26: destinations, methods (https://…/shipping); returns (https://…/returns)".
 */
function sourceLines(notes: readonly SourceNote[]): string[] {
  const bySource = new Map<string, string[]>();
  for (const n of notes) {
    const m = /^(.*), (https?:\/\/\S+)$/.exec(n.text);
    const [source, what] = m ? [m[1]!, `${n.fields.join(", ")} (${m[2]})`] : [n.text, n.fields.join(", ")];
    bySource.set(source, [...(bySource.get(source) ?? []), what]);
  }
  return [...bySource].map(([source, what]) => `${source}: ${what.join("; ")}`);
}

/**
 * Each vendor's sources, said once per vendor: its heading (or short label), then
 * "destinations, methods: vendor site, checked …, https://…" a note at a time, beside a
 * short label or under a name.
 */
function sourcesBlock(cmp: Comparison, names: readonly Name[], width: number, style: Style): string[] {
  if (cmp.sources.every((s) => s.length === 0)) return [];
  const lines = ["", style.heading("Sources")];
  const labelWidth = Math.max(...names.map((n) => displayWidth(n.text)));
  const beside = labelWidth <= 2;
  cmp.sources.forEach((notes, i) => {
    if (notes.length === 0) return;
    const name = names[i]!;
    const pad = beside ? " ".repeat(2 + labelWidth + GAP) : "      ";
    if (!beside) lines.push(...wrap(name.text, width - 2).map((l, j) => `  ${j === 0 ? style.link(l, name.link) : l}`));
    sourceLines(notes).forEach((text, k) => {
      wrap(text, width - pad.length).forEach((l, j) => {
        const lead =
          beside && k === 0 && j === 0
            ? `  ${style.link(padEnd(name.text, labelWidth), name.link)}${" ".repeat(GAP)}`
            : beside
              ? pad
              : j === 0
                ? "    • "
                : pad;
        lines.push(lead + l);
      });
    });
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
  const plan = planLayout(cmp, width);
  const lines = plan ? sideBySide(cmp, plan, width, style) : stacked(cmp, cmp.rows, width, style);
  lines.push(...sourcesBlock(cmp, plan?.short ? plan.names : cmp.names, width, style));
  // What the comparison answered (`ships_to`) is in the rows; a null says nothing.
  delete rest.ships_to;
  for (const [k, v] of Object.entries(rest)) if (v === null || v === undefined) delete rest[k];
  if (Object.keys(rest).length > 0) lines.push("", ...renderCard(rest, { titleKeys: [] }, { width, style }));
  return lines;
}
