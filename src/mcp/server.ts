/**
 * The MCP server of `pep mcp`: every tool of the catalog registered with the official
 * SDK, served over the run's standard input and output until the client closes its end
 * or the run is interrupted. Only the protocol is written to standard output.
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { ENDPOINTS } from "../api/endpoints.js";
import { TOOLS } from "./catalog.js";
import type { Context } from "../core/context.js";
import { RESEARCH_NOTICE } from "../core/research-notice.js";
import { inputSchema, outputSchema } from "./schemas.js";
import { callTool } from "./tools.js";

export const INSTRUCTIONS = [
  "Tools over a read-only peptide research API: research profiles, cited studies, research and regulatory summaries, categories and research areas; vendors, products and prices with a key that has their scope.",
  RESEARCH_NOTICE,
  "The API holds no dose figures, regimens or reconstitution instructions; do not supply them. Lists return next_cursor: pass it as cursor to continue. When a result says sandbox: true, its data is synthetic and must not be presented as real research.",
].join(" ");

/** A fresh server with every tool registered; `connect()` it to a transport. */
export function createServer(ctx: Context, inflight: Set<Promise<unknown>> = new Set()): McpServer {
  const server = new McpServer(
    { name: "pep", title: "pep: peptide research API", version: __PEP_VERSION__ },
    { instructions: INSTRUCTIONS, capabilities: { tools: {} } },
  );
  for (const entry of TOOLS) {
    const endpoint = ENDPOINTS[entry.endpoint];
    const keyed = endpoint.keyRequired ? ` Needs an API key with the ${endpoint.scope} scope.` : "";
    server.registerTool(
      entry.name,
      {
        title: entry.title,
        description: `${entry.summary}${keyed} (GET ${endpoint.path})`,
        inputSchema: inputSchema(entry),
        outputSchema: outputSchema(entry),
        annotations: {
          title: entry.title,
          readOnlyHint: true,
          destructiveHint: false,
          idempotentHint: true,
          openWorldHint: true,
        },
      },
      (args: Record<string, unknown>, extra: { signal: AbortSignal }) => {
        const call = callTool(entry, args, ctx, AbortSignal.any([ctx.io.signal, extra.signal]));
        inflight.add(call);
        void call.finally(() => inflight.delete(call));
        return call;
      },
    );
  }
  return server;
}

/** Serves over the run's stdin and stdout; resolves when the client goes away or the run is interrupted. */
export async function serve(ctx: Context): Promise<void> {
  const inflight = new Set<Promise<unknown>>();
  const server = createServer(ctx, inflight);
  const transport = new StdioServerTransport(ctx.io.stdin, ctx.io.stdout);
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = () => resolve();
  });
  server.server.onerror = (err) => ctx.debug(`mcp: ${err.message}`);
  const stop = () => void server.close();
  // The client closed its end: answer the calls already made, then stop.
  const drain = () => {
    void Promise.allSettled([...inflight])
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(stop);
  };
  ctx.io.signal.addEventListener("abort", stop, { once: true });
  ctx.io.stdin.once("end", drain);
  ctx.io.stdin.once("close", drain);
  await server.connect(transport);
  ctx.notice(`pep mcp: serving ${TOOLS.length} tools on standard input and output`);
  try {
    await closed;
  } finally {
    ctx.io.signal.removeEventListener("abort", stop);
  }
}
