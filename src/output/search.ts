/**
 * `search`: peptide profiles and educational content as two sections, each a small
 * table (the same columns as `peptides list` for profiles).
 */
import type { WriterContext } from "./writer-context.js";
import { renderCard } from "./card-writer.js";
import { columnsFromSpecs, CONTENT_COLUMNS, resolveColumns, type Column } from "./table-columns.js";
import { renderTable, type TableSetup } from "./table.js";
import type { Style } from "./style.js";
import { humanize, isPlainObject } from "./value-paths.js";
import { CONTENT_TYPE_LABELS, labelOf } from "./labels.js";
import { cleanLine } from "../core/sanitize.js";
import { displayWidth, truncate } from "./width.js";
import { wrapCell } from "./table-wrap.js";
import { TITLE_MIN } from "./table-column-specs.js";

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

/**
 * Content items as two lines or more each (the title with its type, wrapped, then the
 * address, whole) when the width cannot hold the title (up to TITLE_MIN) beside the
 * whole address: the address is the row's handle (`pep browse` has no content kind), so
 * it is never the one to go.
 */
function stackedContent(title: string, items: unknown[], width: number, style: Style): string[] | undefined {
  const urls = items.map((i) => (isPlainObject(i) && typeof i.url === "string" ? cleanLine(i.url) : ""));
  const widest = Math.max(0, ...urls.map(displayWidth));
  const titles = items.map((i) => (isPlainObject(i) ? cleanLine(String(i.title ?? i.name ?? "")) : ""));
  const room = Math.min(TITLE_MIN, Math.max(0, ...titles.map(displayWidth)));
  if (items.length === 0 || widest === 0 || widest + 2 + room + 2 + 12 <= width) return undefined;
  const lines = [style.heading(`${title} (${items.length})`)];
  items.forEach((item, i) => {
    const it = isPlainObject(item) ? item : {};
    const type = typeof it.type === "string" ? cleanLine(labelOf(CONTENT_TYPE_LABELS, it.type)) : "";
    const name = titles[i]!;
    const suffix = type ? ` · ${type}` : "";
    const parts = wrapCell(name, Math.max(8, width - 2));
    const last = parts.length - 1;
    // The type after the title's last line when it fits there, else on a line of its own.
    const fits = displayWidth(parts[last]!) + displayWidth(suffix) <= width - 2;
    parts.forEach((p, k) => lines.push(`${k === 0 ? "•" : " "} ${p}${k === last && fits ? style.dim(suffix) : ""}`));
    if (!fits && type) lines.push(`  ${style.dim(truncate(type, Math.max(1, width - 2)))}`);
    if (urls[i]) lines.push(`  ${style.link(urls[i]!, urls[i])}`);
  });
  return lines;
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
  const contentBlock = (title: string, items: unknown[]) =>
    stackedContent(title, items, width, style) ?? section(title, items, contentColumns, width, style, hidden);
  if (Array.isArray(content)) blocks.push(contentBlock("Content", content));
  else if (isPlainObject(content)) {
    for (const [k, v] of Object.entries(content)) {
      if (Array.isArray(v)) blocks.push(contentBlock(`Content: ${humanize(k)}`, v));
    }
  }
  const restLines = Object.keys(rest).length > 0 ? renderCard(rest, { titleKeys: [] }, { width, style }) : [];
  return [...(restLines.length > 0 ? [restLines] : []), ...blocks].flatMap((b, i) => (i === 0 ? b : ["", ...b]));
}
