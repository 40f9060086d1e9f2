/**
 * The `table` format: lists as streamed tables, single objects as cards (with the
 * comparison and search layouts for those two), and the research notice under cards
 * about research. `pep api` output stays JSON even here: it is raw by definition.
 */
import type { ItemResult, ListResult, RawResult, Resource } from "../core/command.js";
import { renderCard } from "./card-writer.js";
import { RESEARCH_NOTICE } from "../core/research-notice.js";
import { layoutFor, RESEARCH_CARDS } from "./card-layouts.js";
import { renderCompare } from "./compare.js";
import type { WriterContext } from "./writer-context.js";
import { writeRaw } from "./json.js";
import { renderSearch, type HiddenColumns } from "./search.js";
import { makeStyle, type Style } from "./style.js";
import { hiddenNote, tableNote, writeListTable } from "./table.js";
import { shapeForCard } from "./card-reshape.js";
import { wrap } from "./width.js";

function cardLines(
  resource: Resource,
  data: unknown,
  ctx: WriterContext,
  style: Style,
  hidden: HiddenColumns,
): string[] {
  const width = ctx.options.columns;
  if (resource === "vendor-compare") {
    const lines = renderCompare(data, width, style);
    if (lines) return lines;
  }
  if (resource === "search") {
    const lines = renderSearch(data, ctx, style, hidden);
    if (lines) return lines;
  }
  const nullText = RESEARCH_CARDS.has(resource) ? "not documented" : undefined;
  return renderCard(shapeForCard(resource, data), layoutFor(resource), { width, style, nullText });
}

async function writeItem(result: ItemResult, ctx: WriterContext, style: Style): Promise<void> {
  if (Array.isArray(result.data)) {
    const rows = await writeListTable(result.data, result.resource, ctx, style);
    if (rows === 0) await ctx.notice("No results.");
  } else {
    const hidden: HiddenColumns = { hidden: [], repeats: new Map() };
    await ctx.emit(`${cardLines(result.resource, result.data, ctx, style, hidden).join("\n")}\n`);
    // A search's tables have no --fields: -o json has every field. Each column named once.
    const once = hidden.hidden.filter((c, i) => hidden.hidden.findIndex((h) => h.key === c.key) === i);
    await tableNote(ctx, hiddenNote({ columns: [], widths: [], hidden: once, repeats: hidden.repeats }, "json"));
  }
  if (RESEARCH_CARDS.has(result.resource)) {
    const notice = wrap(RESEARCH_NOTICE, ctx.options.columns).map((line) => style.dim(line));
    await ctx.emit(`\n${notice.join("\n")}\n`);
  }
}

export async function writeHuman(result: ListResult | ItemResult | RawResult, ctx: WriterContext): Promise<void> {
  const style = makeStyle(ctx.options);
  if (result.kind === "raw") return writeRaw(result, ctx, "indented");
  if (result.kind === "item") return writeItem(result, ctx, style);
  const rows = await writeListTable(result.items, result.resource, ctx, style, result.filters);
  if (rows === 0) await ctx.notice("No results.");
}
