/** Commands that show one object: the positional argument that names it, and the request. */
import { expandPath, type Endpoint } from "./endpoints.js";
import { LIMITS } from "./enums.js";
import type { Context } from "../core/command-context.js";
import { UsageError } from "../core/errors.js";
import type { Query } from "../http/types.js";
import type { ItemResult, Resource } from "../core/command.js";

/** Checks a positional argument that names a resource (slug, id). */
export function requireArg(value: string | undefined, name: string, max = LIMITS.searchMaxLength): string {
  const v = (value ?? "").trim();
  if (v === "") throw new UsageError(`<${name}> must not be empty`);
  if (v.length > max) throw new UsageError(`<${name}> must be at most ${max} characters`);
  // A path segment of "." or ".." would be resolved away by the URL: `peptides get ..` would fetch the index.
  if (v === "." || v === "..") throw new UsageError(`<${name}> must be an id, name or slug, not "${v}"`);
  return v;
}

/** One object. */
export async function itemOf(
  ctx: Context,
  endpoint: Endpoint,
  resource: Resource,
  options: { query?: Query; pathParams?: Record<string, string> } = {},
): Promise<ItemResult> {
  const client = await ctx.client(endpoint);
  const res = await client.request(expandPath(endpoint.path, options.pathParams), {
    query: options.query ?? {},
    signal: ctx.io.signal,
  });
  return { kind: "item", resource, data: res.data, meta: res.meta };
}
