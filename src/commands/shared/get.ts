/**
 * A command that shows records by id, in one call: `runGet(ctx, input, endpoint)` checks
 * each id as the endpoint's descriptor says (`pathValue`: a slug or id, or a study id
 * in any of its forms), builds the query from the endpoint's options, and looks each id
 * up through `perId` (one id, several, or `-` for standard input). A keyed endpoint's
 * 401/403 is explained (which key, which scope).
 */
import { type Endpoint, pathValue } from "../../api/endpoints.js";
import { explained } from "../../api/auth-hints.js";
import { itemOf } from "../../api/item.js";
import { commandQuery } from "../../api/query.js";
import type { Context } from "../../core/command-context.js";
import type { CommandInput, Result } from "../../core/command.js";
import { perId } from "./batch.js";

export async function runGet(
  ctx: Context,
  input: CommandInput<Record<string, unknown> & { concurrency?: string | undefined }>,
  endpoint: Endpoint,
): Promise<Result> {
  const query = endpoint.options.length > 0 ? commandQuery(endpoint, input.opts, endpoint.options) : {};
  const name = endpoint.pathParam ?? "id";
  const check = (id: string) => pathValue(endpoint, id);
  const one = (id: string) => itemOf(ctx, endpoint, endpoint.resource, { query, pathParams: { [name]: check(id) } });
  return perId(ctx, input, { name, resource: endpoint.resource, check }, (id) =>
    endpoint.keyRequired ? explained(ctx, endpoint, () => one(id)) : one(id),
  );
}
