/** Commands that show one object: its request, and the result the output pipeline prints. */
import { expandPath, type Endpoint } from "./endpoints.js";
import type { Context } from "../core/command-context.js";
import type { Query } from "../http/client-types.js";
import type { ItemResult, Resource } from "../core/command.js";

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
