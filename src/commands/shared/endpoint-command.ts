/**
 * The code of a command that is nothing but its endpoint: a definition with `calls` and
 * no loader of its own (`commands/loaders.ts`) runs this. A list endpoint runs the list
 * runner, a record by id `runGet`, and a list under a path parameter
 * (`GET /peptides/{slug}/studies`) the list runner once per id given (one, several, or
 * `-` for standard input), each id checked as the descriptor says before any request.
 * All of them read every fact from the descriptor, so such a command is its definition
 * alone (docs/adding-an-endpoint.md).
 */
import { ENDPOINTS, type Endpoint, type EndpointName, pathValue } from "../../api/endpoints.js";
import type { CommandModule } from "../../core/command.js";
import { perId } from "./batch.js";
import { runGet } from "./get.js";
import { runList } from "./list.js";

/** A list under a path parameter: the list of each id given, one after another, in their order. */
function listUnder(endpoint: Endpoint, name: string): CommandModule {
  const check = (id: string) => pathValue(endpoint, id);
  return {
    run: (input, ctx) =>
      perId(ctx, input, { name, resource: endpoint.resource, check }, (id) =>
        runList(ctx, input.opts, { endpoint, pathParams: { [name]: check(id) } }),
      ),
  };
}

export function endpointCommand(name: EndpointName): CommandModule {
  const endpoint: Endpoint = ENDPOINTS[name];
  if (!endpoint.list) return { run: (input, ctx) => runGet(ctx, input, endpoint) };
  if (endpoint.pathParam === undefined) return { run: ({ opts }, ctx) => runList(ctx, opts, { endpoint }) };
  return listUnder(endpoint, endpoint.pathParam);
}
