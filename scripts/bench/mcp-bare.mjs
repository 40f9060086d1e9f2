// The floor of an MCP stdio server's start: Node reading one line and answering
// initialize, with nothing loaded. scripts/bench/mcp-startup.mjs times it beside pep mcp.
process.stdin.once("data", () => {
  const result = { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "bare", version: "1" } };
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: 1, result })}\n`);
});
