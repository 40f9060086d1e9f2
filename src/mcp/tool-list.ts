/**
 * The tool list `pep mcp`'s server gives, rendered by the MCP SDK's own server from the
 * catalog (`catalog.ts`) and each tool's registration (`toolConfigOf`, the server's), as
 * one JSON text per tool: the build (scripts/build.mjs) runs this and puts the table in
 * the quick start's bundle (`early-tools.ts`), which answers `tools/list` from it before
 * the SDK is loaded (`early.ts`). Every tool of the catalog is in it, whatever group it
 * is in; which of them a configuration lists is chosen at start-up (`listing.ts`).
 */
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { TOOLS, type ToolEntry } from "./catalog.js";
import { toolConfigOf } from "./schemas.js";

type Handler = (request: unknown, extra: unknown) => Promise<unknown>;

/** Each tool's entry of the SDK server's `tools/list` result, as JSON, by name, in the catalog's order. */
export async function toolListTable(entries: readonly ToolEntry[] = TOOLS): Promise<Record<string, string>> {
  const server = new McpServer({ name: "pep", version: "0" }, { capabilities: { tools: {} } });
  for (const entry of entries) server.registerTool(entry.name, toolConfigOf(entry), () => ({ content: [] }));
  // The SDK's handler of tools/list, as the server calls it (server.ts wraps the same map).
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, Handler> })._requestHandlers;
  const list = handlers.get("tools/list");
  if (!list) throw new Error("the MCP SDK's server has no tools/list handler");
  const result = (await list({ jsonrpc: "2.0", id: 0, method: "tools/list" }, {})) as { tools: { name: string }[] };
  const table: Record<string, string> = {};
  for (const tool of result.tools) table[tool.name] = JSON.stringify(tool);
  return table;
}
