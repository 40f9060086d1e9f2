/**
 * Which columns a table shows: `--fields` when given, else sensible defaults per
 * resource, else the first few scalar keys. Each default lists candidate paths, since
 * the spec leaves many field names open; a column none of whose paths is present in the
 * first item is left out rather than shown empty.
 */
import type { Resource } from "../core/command.js";
import { humanCell, idCell, isIdKey, type Cell } from "./cells.js";
import { dateOnly, labelOf, type Labels, widestLabel } from "./labels.js";
import { cleanLine } from "../core/sanitize.js";
import { type ColumnSpec, CONTENT_COLUMNS, DEFAULTS, firstDefined, ITEM_URL } from "./table-column-specs.js";
export { CONTENT_COLUMNS, loose } from "./table-column-specs.js";
import { expandFields, getPath, isPlainObject, isScalar, NOT_DOCUMENTED } from "./value-paths.js";
import { displayWidth, truncate } from "./width.js";

export interface Column {
  /** The path (or a name for a combined column such as the offer price). */
  key: string;
  header: string;
  cell(item: unknown): Cell;
  /** Never cut (an id, a URL, money): keeps its natural width, or is hidden whole when it cannot. */
  fixed?: boolean;
  /** The column the reader came for (a title): a double share of the room. */
  wide?: boolean;
  /**
   * Prose that wraps onto the lines under its row rather than being cut (a title, a
   * name); a `wide` one that cannot get its `min` beside the other columns is stacked
   * under them instead (table-wrap.ts).
   */
  wrap?: boolean;
  /**
   * How much the column matters: when the width runs short, the lowest go first, whole
   * (docs/cli.md#tables). Absent: by position, the leftmost kept longest.
   */
  priority?: number;
  /** The narrowest it is cut to (its header is never cut); narrower than that, it is hidden. */
  min?: number;
  /** Query parameters whose one value every row would repeat here (`peptide` for PEPTIDE). */
  filters?: readonly string[];
  /** Named with `--fields`: the user's choice, kept (cut if need be) before any is hidden. */
  chosen?: boolean;
  /** The paths its cells link to, and its cells without the link (one link a row is enough). */
  links?: readonly string[];
  unlinked?(item: unknown): Cell;
}

/** The narrowest a default column is cut to when its definition names none. */
export const DEFAULT_MIN = 10;

/** The narrowest a column is cut to: its `min`, and never less than its header. */
export function minWidthOf(column: Pick<Column, "header" | "min">): number {
  return Math.max(displayWidth(column.header), column.min ?? DEFAULT_MIN);
}

function withLink(cell: Cell, item: unknown, linkTo: readonly string[] | undefined): Cell {
  if (!linkTo) return cell;
  const url = firstDefined(item, linkTo);
  return url === undefined ? cell : { ...cell, link: url };
}

/** A value by its short label, or as any value when it is not a string. */
const labelled =
  (path: string, labels: Labels) =>
  (item: unknown): Cell => {
    const v = getPath(item, path);
    return typeof v === "string" && v !== NOT_DOCUMENTED ? { text: cleanLine(labelOf(labels, v)) } : humanCell(v);
  };

/** A timestamp as its date (`2025-05-30`), or as any value. */
const dated =
  (path: string) =>
  (item: unknown): Cell => {
    const v = getPath(item, path);
    return typeof v === "string" ? { text: dateOnly(cleanLine(v)) } : humanCell(v);
  };

function baseCell(spec: ColumnSpec, path: string): (item: unknown) => Cell {
  if (spec.cell) return spec.cell;
  if (spec.labels) return labelled(path, spec.labels);
  if (spec.date) return dated(path);
  return (item) => (isIdKey(path) ? idCell : humanCell)(getPath(item, path));
}

/** A column of labels is as wide as its widest label: shown whole, or hidden. */
function specMin(spec: ColumnSpec): number | undefined {
  return spec.labels ? Math.max(spec.min ?? 0, widestLabel(spec.labels, displayWidth)) : spec.min;
}

/**
 * The default columns of a resource's table (or of a search's content), by header: the
 * narrowest each is cut to, and whether it is never cut. What a check of the screens
 * holds the tables to.
 */
export function columnRules(resource: Resource | "search-content"): { header: string; min: number; fixed: boolean }[] {
  const specs = resource === "search-content" ? CONTENT_COLUMNS : (DEFAULTS[resource] ?? []);
  return specs.map((spec) => ({
    header: spec.header,
    min: minWidthOf({ header: spec.header, min: specMin(spec) }),
    fixed: spec.fixed === true || isIdKey(spec.paths[0]!),
  }));
}

function fromSpec(spec: ColumnSpec, first: unknown): Column | undefined {
  const present = (spec.presence ?? spec.paths).some((p) => getPath(first, p) !== undefined);
  if (!present) return undefined;
  const path = spec.paths.find((p) => getPath(first, p) !== undefined) ?? spec.paths[0]!;
  const base = baseCell(spec, path);
  const min = specMin(spec);
  return {
    key: path,
    header: spec.header,
    cell: (item) => withLink(base(item), item, spec.linkTo),
    ...(spec.linkTo ? { links: spec.linkTo, unlinked: base } : {}),
    priority: spec.priority,
    ...(min !== undefined ? { min } : {}),
    ...(spec.filters ? { filters: spec.filters } : {}),
    ...(spec.fixed || isIdKey(path) ? { fixed: true } : {}),
    ...(spec.wide ? { wide: true } : {}),
    ...(spec.wrap ? { wrap: true } : {}),
  };
}

/**
 * An amount with the currency its record gives beside it (`price` and `currency`, or
 * `min_price` and `price_currency`): money is never shown without its currency, even
 * when `--fields` names the amount alone.
 */
function withCurrency(path: string, item: unknown, cell: Cell): Cell {
  if (cell.dim || cell.text === "" || /[A-Z]{3}$/.test(cell.text)) return cell;
  const at = path.lastIndexOf(".");
  const parent = at < 0 ? "" : `${path.slice(0, at)}.`;
  const currency = [`${parent}currency`, `${path}_currency`, "currency"]
    .map((p) => getPath(item, p))
    .find((v): v is string => typeof v === "string" && v !== "");
  return currency === undefined ? cell : { ...cell, text: `${cell.text} ${truncate(cleanLine(currency), 8)}` };
}

/** Columns for a path: the header is the path itself, names and titles link to the item. */
function pathColumn(path: string, chosen = false): Column {
  const linkTo = path === "name" || path === "title" ? ITEM_URL : undefined;
  const money = /(?:^|[._])(?:price|prices|amount|min_price|max_price)$/.test(path);
  const base = (item: unknown) => (isIdKey(path) ? idCell : humanCell)(getPath(item, path));
  return {
    key: path,
    header: cleanLine(path).toUpperCase(),
    cell: (item) => withLink(money ? withCurrency(path, item, base(item)) : base(item), item, linkTo),
    // Ids and money are never cut; a title or a name wraps.
    ...(money || isIdKey(path) ? { fixed: true } : {}),
    ...(linkTo ? { wrap: true } : {}),
    ...(chosen ? { chosen: true } : {}),
  };
}

/** The first few scalar keys of an item (any resource without defaults). */
function genericColumns(first: unknown, max = 6): Column[] {
  if (!isPlainObject(first)) return [{ key: "", header: "VALUE", cell: (item) => humanCell(item) }];
  const keys = Object.keys(first).filter(
    (k) => isScalar(first[k]) || (Array.isArray(first[k]) && (first[k] as unknown[]).every(isScalar)),
  );
  const chosen = (keys.length > 0 ? keys : Object.keys(first)).slice(0, max);
  return chosen.map((k) => pathColumn(k));
}

export function columnsFromSpecs(specs: readonly ColumnSpec[], first: unknown): Column[] {
  return specs.map((s) => fromSpec(s, first)).filter((c): c is Column => c !== undefined);
}

/**
 * The columns of a table: `--fields` (objects expanded to their leaves), else the
 * resource's defaults that are present in the first item, else generic ones.
 */
export function resolveColumns(resource: Resource, fields: readonly string[] | undefined, first: unknown): Column[] {
  if (fields && fields.length > 0) return expandFields(fields, first).map((f) => pathColumn(f, true));
  const specs = DEFAULTS[resource];
  if (specs) {
    const cols = columnsFromSpecs(specs, first);
    if (cols.length > 0) return cols;
  }
  return genericColumns(first);
}
