/**
 * The values of a card's lines, and its lists of like objects as small tables: each kind
 * of value read one way (an evidence level by its label, a midnight timestamp as its date,
 * a byte count in MB), as tables read them.
 */
import { factText, idCell, isIdKey, scalarCell, type Cell } from "./cells.js";
import { IDENTIFIER_KEYS, leafOf } from "./card-value-kinds.js";
import { EVIDENCE_LEVEL_LABELS, isByteCount, labelOf, megabytes, midnightAsDate } from "./labels.js";
import { cleanLine } from "../core/sanitize.js";
import type { Style } from "./style.js";
import { renderTable } from "./table.js";
import { resolveColumns } from "./table-columns.js";
import { asFact, asMoney, asPerson, humanize, isPlainObject, isScalar, type Plain } from "./value-paths.js";
import { displayWidth, padEnd } from "./width.js";
import { valueText } from "./cells.js";

/** A value on a card's `Label  value` line. */
export function cardCell(v: unknown, path = "", nullText?: string): Cell {
  if (v === null) return { text: IDENTIFIER_KEYS.has(leafOf(path)) ? "none" : (nullText ?? "unknown"), dim: true };
  if (isPlainObject(v)) {
    if (Object.keys(v).length === 0) return { text: "none", dim: true };
    const money = asMoney(v);
    if (money !== undefined) return { text: cleanLine(money) };
    const fact = asFact(v);
    if (fact) return { text: factText(fact) };
    const person = asPerson(v);
    if (person !== undefined) return { text: cleanLine(person) };
  }
  if (Array.isArray(v)) return v.length === 0 ? { text: "none", dim: true } : { text: valueText(v) };
  if (typeof v === "string" && isIdKey(leafOf(path))) return idCell(v);
  // One reading per kind of value, as tables give it: an evidence level by its label, a
  // midnight timestamp as its date.
  if (typeof v === "string" && leafOf(path) === "evidence_level")
    return { text: cleanLine(labelOf(EVIDENCE_LEVEL_LABELS, v)) };
  if (typeof v === "string" && midnightAsDate(v) !== v) return { text: midnightAsDate(v) };
  if (typeof v === "number" && Number.isSafeInteger(v) && v >= 0 && isByteCount(leafOf(path)))
    return { text: megabytes(v) };
  return scalarCell(v, true);
}

/**
 * Three or more objects of the same short scalar fields (an index's endpoints) read
 * best as a small table; undefined when the items are not of that kind or the table
 * would not fit whole.
 */
export function smallTable(
  items: readonly unknown[],
  indent: number,
  width: number,
  style: Style,
  cell: (v: unknown, key: string) => Cell,
): string[] | undefined {
  if (items.length < 3 || !items.every(isPlainObject)) return undefined;
  const rows = items as Plain[];
  const keys = Object.keys(rows[0]!);
  if (keys.length < 2 || keys.length > 8) return undefined;
  const sameKeys = rows.every((r) => {
    const k = Object.keys(r);
    return k.length === keys.length && k.every((x, i) => x === keys[i]);
  });
  if (!sameKeys) return undefined;
  const cells = rows.map((r) => keys.map((k) => cell(r[k], k)));
  if (!rows.every((r) => keys.every((k) => isScalar(r[k]))) || cells.some((c) => c.some((x) => x.text.length > 40)))
    return undefined;
  const header = keys.map((k) => humanize(k).toUpperCase());
  const natural = header.map((h, i) => cells.reduce((m, c) => Math.max(m, displayWidth(c[i]!.text)), displayWidth(h)));
  const total = natural.reduce((a, b) => a + b, 0) + 2 * (keys.length - 1);
  const pad = " ".repeat(indent);
  // Too wide whole: the list table's planner keeps what fits (the first column whole), a
  // column that says the same on every row goes first.
  if (total > width - indent) {
    const lines = renderTable(rows, resolveColumns("generic", undefined, rows[0]), width - indent, style);
    return lines.length > 0 ? lines.map((l) => pad + l) : undefined;
  }
  const line = (texts: Cell[], bold = false) =>
    pad +
    texts
      .map((c, i) => {
        const text = i === texts.length - 1 ? c.text : padEnd(c.text, natural[i]!);
        return bold ? style.bold(text) : c.dim ? style.dim(text) : text;
      })
      .join("  ")
      .trimEnd();
  return [
    line(
      header.map((text) => ({ text })),
      true,
    ),
    ...cells.map((c) => line(c)),
  ];
}
