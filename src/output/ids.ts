/**
 * `-o ids`: one id a line, nothing else (EDirect's `-format uid`, gh's plain output to a
 * pipe), for the next command's `-`: `pep peptides list -o ids | pep peptides get -`. An
 * item's `id`, else its `slug`; an item with neither is an error naming the format to use.
 */
import type { ItemResult, ListResult, RawResult } from "../core/command.js";
import { UsageError } from "../core/errors.js";
import { searchRows } from "./rows.js";
import { cleanLine } from "../core/sanitize.js";
import { isPlainObject } from "./value-paths.js";
import type { WriterContext } from "./writer-context.js";

function idOf(item: unknown): string {
  const v = isPlainObject(item) ? (item.id ?? item.slug) : undefined;
  if (typeof v === "string" || typeof v === "number") return cleanLine(String(v));
  throw new UsageError("-o ids: what this command prints has no id", { hints: ["use -o json (or --jq) instead"] });
}

function itemsOf(result: ListResult | ItemResult | RawResult): AsyncIterable<unknown> | Iterable<unknown> {
  if (result.kind === "list") return result.items;
  if (result.kind === "raw") {
    if (result.items) return result.items;
    const body = result.body as { data?: unknown } | undefined;
    return Array.isArray(body?.data) ? body.data : [body?.data ?? body];
  }
  // Search hits as its CSV rows: profiles first, then content (`--types peptides` for
  // ids that `pep peptides get -` takes).
  if (result.resource === "search") return searchRows(result.data);
  return Array.isArray(result.data) ? result.data : [result.data];
}

export async function writeIds(result: ListResult | ItemResult | RawResult, ctx: WriterContext): Promise<void> {
  for await (const item of ctx.each(itemsOf(result))) {
    const p = ctx.emit(`${idOf(item)}\n`);
    if (p) await p;
  }
}
