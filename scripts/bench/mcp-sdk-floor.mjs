// What the MCP SDK alone costs a stdio server's start: its McpServer and stdio transport,
// no tools, answering initialize. Bundled by scripts/bench/mcp-startup.mjs (as pep is) so
// the figure compares like with like.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "floor", version: "1" }, { capabilities: { tools: {} } });
await server.connect(new StdioServerTransport());
