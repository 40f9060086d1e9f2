/**
 * `search`: peptide profiles and educational content as two sections, each a small
 * table (the same columns as `peptides list` for profiles).
 */
import type { WriterContext } from "./writer-context.js";
import { renderCard } from "./card-writer.js";
import { columnsFromSpecs, CONTENT_COLUMNS, resolveColumns, type Column } from "./table-columns.js";
import { renderTable, type TableSetup } from "./table.js";
import type { Style } from "./style.js";
import { humanize, isPlainObject } from "./values.js";

function section(
  title: string,
  items: unknown[],
  columns: (first: unknown) => Column[],
  width: number,
  style: Style,
  hidden: HiddenColumns,
): string[] {
  const head = style.heading(`${title} (${items.length})`);
  if (items.length === 0) return [head, style.dim("none")];
  const collect = (setup: TableSetup) => {
    hidden.hidden.push(...setup.hidden);
    for (const [c, why] of setup.repeats ?? []) hidden.repeats.set(c, why);
  };
  return [head, ...renderTable(items, columns(items[0]), width, style, collect)];
}

/** What the search's tables hid, and why, gathered for one note. */
export interface HiddenColumns {
  hidden: Column[];
  repeats: Map<Column, "id" | "filter">;
}

const contentColumns = (first: unknown) => {
  const cols = columnsFromSpecs(CONTENT_COLUMNS, first);
  return cols.length > 0 ? cols : resolveColumns("generic", undefined, first);
};

/**
 * The search card, or undefined when the data has neither `peptides` nor `content`.
 * Columns its tables hid for lack of width go into `hidden`, for one note.
 */
export function renderSearch(
  data: unknown,
  ctx: WriterContext,
  style: Style,
  hidden: HiddenColumns = { hidden: [], repeats: new Map() },
): string[] | undefined {
  if (!isPlainObject(data)) return undefined;
  const { peptides, content, ...rest } = data;
  if (!Array.isArray(peptides) && !Array.isArray(content) && !isPlainObject(content)) return undefined;
  const width = ctx.options.columns;
  const blocks: string[][] = [];
  if (Array.isArray(peptides))
    blocks.push(section("Peptides", peptides, (f) => resolveColumns("peptide", undefined, f), width, style, hidden));
  if (Array.isArray(content)) blocks.push(section("Content", content, contentColumns, width, style, hidden));
  else if (isPlainObject(content)) {
    for (const [k, v] of Object.entries(content)) {
      if (Array.isArray(v)) blocks.push(section(`Content: ${humanize(k)}`, v, contentColumns, width, style, hidden));
    }
  }
  const restLines = Object.keys(rest).length > 0 ? renderCard(rest, { titleKeys: [] }, { width, style }) : [];
  return [...(restLines.length > 0 ? [restLines] : []), ...blocks].flatMap((b, i) => (i === 0 ? b : ["", ...b]));
}
