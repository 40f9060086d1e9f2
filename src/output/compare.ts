/**
 * `vendors compare`: the vendors side by side, one column each, one row per field
 * (nested fields flattened, sourced facts and money inline). Fitted to the width like
 * any table; other keys of the comparison follow as a card.
 */
import { factText, humanCell, type Cell } from "./cells.js";
import { renderCard } from "./card.js";
import { fitWidths, formatRow, naturalWidths } from "./layout.js";
import { cleanLine } from "./sanitize.js";
import type { Style } from "./style.js";
import { asFact, asMoney, getPath, humanize, isPlainObject, titleKeyOf, type Plain } from "./values.js";

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
  const lines = [formatRow(header, widths, style, true), ...rows.map((r) => formatRow(r, widths, style))];
  if (widths.length < header.length)
    lines.push(style.dim(`(${header.length - widths.length} vendor(s) not shown for lack of width; use -o json)`));
  if (found.key !== undefined && isPlainObject(data)) {
    const rest = Object.fromEntries(Object.entries(data).filter(([k]) => k !== found.key));
    if (Object.keys(rest).length > 0) lines.push("", ...renderCard(rest, { titleKeys: [] }, { width, style }));
  }
  return lines;
}
