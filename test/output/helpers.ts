/** Builders for output tests: results as commands return them, and captured streams. */
import { PassThrough } from "node:stream";
import type { ItemResult, ListResult, Resource } from "../../src/core/command.js";
import type { OutputFormat } from "../../src/api/enums.js";
import type { Meta } from "../../src/http/client-types.js";
import { render, type RenderOptions } from "../../src/output/render.js";

export function capture() {
  const chunks: Buffer[] = [];
  const stream = new PassThrough();
  stream.on("data", (c: Buffer) => chunks.push(c));
  return { stream, text: () => Buffer.concat(chunks).toString("utf8") };
}

export async function* fromArray<T>(items: readonly T[]): AsyncGenerator<T> {
  for (const item of items) yield item;
}

export function list(
  resource: Resource,
  items: readonly unknown[] | AsyncIterable<unknown>,
  extra: {
    meta?: Meta;
    nextCursor?: string;
    fields?: string[];
    progress?: () => { pages: number; items: number };
  } = {},
): ListResult {
  return {
    kind: "list",
    resource,
    items: Symbol.asyncIterator in items ? (items as AsyncIterable<unknown>) : fromArray(items as readonly unknown[]),
    meta: () => extra.meta,
    nextCursor: () => extra.nextCursor,
    ...(extra.progress ? { progress: extra.progress } : {}),
    fields: extra.fields,
  };
}

export function item(resource: Resource, data: unknown, meta?: Meta): ItemResult {
  return { kind: "item", resource, data, meta };
}

/** Renders and returns what went to out and to stderr. */
export async function run(
  result: Parameters<typeof render>[0],
  format: OutputFormat,
  options: Partial<RenderOptions> = {},
): Promise<{ out: string; err: string }> {
  const out = capture();
  const err = capture();
  await render(result, {
    format,
    out: out.stream,
    outIsTTY: false,
    columns: 80,
    color: false,
    hyperlinks: false,
    stderr: err.stream,
    stderrIsTTY: false,
    quiet: false,
    ...options,
  });
  return { out: out.text(), err: err.text() };
}
