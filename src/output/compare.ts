/**
 * `vendors compare`: the vendors side by side, one column each, one row per field
 * (nested fields flattened, sourced facts and money inline). Fitted to the width like
 * any table; other keys of the comparison follow as a card.
 */
import { factText, humanCell, type Cell } from "./cells.js";
import { renderCard } from "./card.js";
import { fitWidths, formatRow, GAP, naturalWidths } from "./layout.js";
import { cleanLine } from "./sanitize.js";
import type { Style } from "./style.js";
import { asFact, asMoney, getPath, humanize, isPlainObject, titleKeyOf, type Plain } from "./values.js";
import { displayWidth, wrap } from "./width.js";

const LABEL_MAX = 40;
/** Shown in the header, not as rows. */
const HEADER_KEYS = new Set(["name", "url"]);

/** A sourced fact, whatever its value, is one row: the vendors' facts read side by side. */
const isLeaf = (v: unknown): boolean =>
  !isPlainObject(v) ||
  Object.keys(v).length === 0 ||
  asFact(v, { anyValue: true }) !== undefined ||
  asMoney(v) !== undefined;

function leafPaths(obj: Plain, prefix: string, out: string[]): void {
  for (const [k, v] of Object.entries(obj)) {
    const path = prefix === "" ? k : `${prefix}.${k}`;
    if (!isLeaf(v)) leafPaths(v as Plain, path, out);
    else if (!out.includes(path)) out.push(path);
  }
}

/**
 * The rows: every vendor's leaves, except those under a path that is a leaf for another
 * vendor (one vendor's fact is `{ value: null, source }`, another's value an object): that
 * path is one row for all, so the vendors stay side by side on it.
 */
function rowPathsOf(vendors: readonly Plain[]): string[] {
  const paths: string[] = [];
  for (const v of vendors) leafPaths(v, "", paths);
  const leaves = new Set(paths);
  const underALeaf = (p: string) =>
    p.split(".").some((_, i, parts) => i > 0 && leaves.has(parts.slice(0, i).join(".")));
  return paths.filter((p) => !HEADER_KEYS.has(p) && !underALeaf(p));
}

function compareCell(v: unknown): Cell {
  const fact = isPlainObject(v) ? asFact(v, { anyValue: true }) : undefined;
  return fact ? { text: factText(fact) } : humanCell(v);
}

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

/** Rows whose values must be read whole: identifiers and links. */
const isWholeRow = (path: string) => /(^|\.|_)(id|slug|url)$/.test(path);

const fits = (c: Cell | undefined, w: number | undefined) => w !== undefined && displayWidth(c?.text ?? "") <= w;

/** Side by side works when every vendor has its column and no vendor's name is cut. */
function headerFits(header: Cell[], widths: number[]): boolean {
  return widths.length >= header.length && header.every((c, i) => i === 0 || fits(c, widths[i]));
}

const rowFits = (row: Cell[], widths: number[]) => row.every((c, i) => i === 0 || fits(c, widths[i]));

/**
 * Too narrow for columns: one block per fact, a line per vendor under it, so that names,
 * identifiers and links stay whole and the vendors still read one above the other. Also
 * the form of the identifier and link rows that a side-by-side table would cut.
 */
function stacked(header: Cell[], rows: Cell[][], width: number, style: Style): string[] {
  const names = header.slice(1);
  const nameWidth = Math.min(
    Math.max(...names.map((n) => displayWidth(n.text))),
    Math.max(8, Math.floor((width - 4) / 2)),
  );
  const lines: string[] = [];
  for (const row of rows) {
    lines.push(style.bold(row[0]?.text ?? ""));
    const room = width - 2 - nameWidth - GAP;
    // A row of links too long for the room puts every link under its vendor's name.
    const longLinks = row.slice(1).some((c) => /^https?:\/\//i.test(c.text) && displayWidth(c.text) > room);
    names.forEach((name, i) => {
      const cell = row[i + 1] ?? { text: "" };
      const paint = (t: string) => (cell.dim ? style.dim(t) : t);
      const nameText = style.link(name.text, name.link);
      if (displayWidth(name.text) > nameWidth || room < 12 || longLinks) {
        wrap(name.text, width - 2).forEach((l, j) => lines.push(`  ${j === 0 ? style.link(l, name.link) : l}`));
        for (const l of wrap(cell.text, width - 4)) lines.push(`    ${paint(l)}`);
        return;
      }
      wrap(cell.text, room).forEach((l, j) => {
        const label = j === 0 ? nameText + " ".repeat(nameWidth - displayWidth(name.text)) : " ".repeat(nameWidth);
        lines.push(`  ${label}${" ".repeat(GAP)}${paint(l)}`);
      });
    });
  }
  return lines;
}

/** The comparison's lines, or undefined when the data holds no list of vendors. */
export function renderCompare(data: unknown, width: number, style: Style): string[] | undefined {
  const found = vendorsOf(data);
  if (!found) return undefined;
  const { vendors } = found;
  const rowPaths = rowPathsOf(vendors);
  const header: Cell[] = [
    { text: "" },
    ...vendors.map((v): Cell => {
      const tk = titleKeyOf(v);
      return { text: tk ? cleanLine(String(v[tk])) : "", link: v.url };
    }),
  ];
  const rows: Cell[][] = rowPaths.map((p) => [
    { text: humanize(p) },
    ...vendors.map((v) => compareCell(getPath(v, p))),
  ]);
  const natural = naturalWidths(
    header.map((h) => h.text),
    rows,
  );
  natural[0] = Math.min(natural[0]!, LABEL_MAX);
  const widths = fitWidths(natural, width);
  let lines: string[];
  if (!headerFits(header, widths)) lines = stacked(header, rows, width, style);
  else {
    // Identifiers and links that would be cut are stacked under the table, whole.
    const cut = rows.map((r, j) => isWholeRow(rowPaths[j]!) && !rowFits(r, widths));
    lines = [
      formatRow(header, widths, style, true),
      ...rows.filter((_, j) => !cut[j]).map((r) => formatRow(r, widths, style)),
    ];
    const below = rows.filter((_, j) => cut[j]);
    if (below.length > 0) lines.push("", ...stacked(header, below, width, style));
  }
  if (found.key !== undefined && isPlainObject(data)) {
    const rest = Object.fromEntries(Object.entries(data).filter(([k]) => k !== found.key));
    if (Object.keys(rest).length > 0) lines.push("", ...renderCard(rest, { titleKeys: [] }, { width, style }));
  }
  return lines;
}
