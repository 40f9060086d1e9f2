/**
 * The code of a command that is nothing but its endpoint: a definition with `calls` and
 * no loader of its own (`commands/loaders.ts`) runs this. A list endpoint runs the list
 * runner, a record by id `runGet`: both read every fact from the descriptor, so such a
 * command is its definition alone (docs/adding-an-endpoint.md).
 */
import { ENDPOINTS, type EndpointName } from "../../api/endpoints.js";
import type { CommandModule } from "../../core/command.js";
import { runGet } from "./get.js";
import { runList } from "./list.js";

export function endpointCommand(name: EndpointName): CommandModule {
  const endpoint = ENDPOINTS[name];
  if (endpoint.list && endpoint.pathParam === undefined)
    return { run: ({ opts }, ctx) => runList(ctx, opts, { endpoint }) };
  if (!endpoint.list) return { run: (input, ctx) => runGet(ctx, input, endpoint) };
  throw new Error(`${name}: a list under a path parameter needs code of its own (see commands/peptides/studies.ts)`);
}
