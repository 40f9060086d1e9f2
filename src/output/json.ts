/**
 * `json` and `ndjson`. JSON keeps the API's values exactly (`not_documented` stays the
 * token, money stays a string), with every control character escaped. A list is one
 * array streamed item by item, byte for byte what `JSON.stringify(all, null, 2)` would
 * give, without ever holding all items.
 */
import type { ItemResult, ListResult, RawResult } from "../core/command.js";
import type { WriterContext } from "./writer-context.js";
import { stringifyExact } from "../core/exact-number.js";
import { inertJson } from "../core/sanitize.js";

// Numbers the API wrote beyond what JavaScript holds (ExactNumber) go out as written.
function pretty(value: unknown): string {
  return inertJson(stringifyExact(value, 2) ?? "null");
}

function compact(value: unknown): string {
  return inertJson(stringifyExact(value) ?? "null");
}

/** Streams `[`, the items (each mapped, indented two spaces), `]`. An empty list is `[]`. */
export async function writeJsonArray(
  items: AsyncIterable<unknown>,
  ctx: WriterContext,
  map: (item: unknown) => unknown = (x) => x,
): Promise<void> {
  // Going on after an earlier run's items: the array is open already.
  let first = !ctx.options.continuing?.items;
  for await (const item of ctx.each(items)) {
    const text = pretty(map(item)).replace(/\n/g, "\n  ");
    const p = ctx.emit(first ? `[\n  ${text}` : `,\n  ${text}`);
    if (p) await p;
    first = false;
  }
  await ctx.emit(first ? "[]\n" : "\n]\n");
}

export async function writeNdjsonLines(items: AsyncIterable<unknown>, ctx: WriterContext): Promise<void> {
  for await (const item of ctx.each(items)) {
    const p = ctx.emit(`${compact(item)}\n`);
    if (p) await p;
  }
}

export async function writeJson(result: ListResult | ItemResult | RawResult, ctx: WriterContext): Promise<void> {
  if (result.kind === "list") return writeJsonArray(result.items, ctx);
  if (result.kind === "item") return void (await ctx.emit(`${pretty(result.data)}\n`));
  return writeRaw(result, ctx, "as-sent");
}

export async function writeNdjson(result: ListResult | ItemResult | RawResult, ctx: WriterContext): Promise<void> {
  if (result.kind === "list") return writeNdjsonLines(result.items, ctx);
  if (result.kind === "item") return void (await ctx.emit(`${compact(result.data)}\n`));
  return writeRaw(result, ctx, "compact");
}

/**
 * `pep api`: a whole body as the API sent it (`json`), indented (on a terminal) or on one
 * line (`ndjson`) with every token as written, so numbers such as `9007199254740993` or
 * `1.10` are never rounded; paginated items as NDJSON.
 */
export async function writeRaw(
  result: RawResult,
  ctx: WriterContext,
  layout: "as-sent" | "indented" | "compact",
): Promise<void> {
  if (result.items) return writeNdjsonLines(result.items, ctx);
  if (result.text === undefined)
    return void (await ctx.emit(`${layout === "compact" ? compact(result.body) : pretty(result.body)}\n`));
  const { compactJsonText, indentJsonText } = await import("./json-text.js");
  const text =
    layout === "compact"
      ? compactJsonText(result.text)
      : layout === "indented"
        ? indentJsonText(result.text)
        : result.text;
  await ctx.emit(inertJson(text) + (text.endsWith("\n") ? "" : "\n"));
}
