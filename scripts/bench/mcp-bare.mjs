// The floor of an MCP stdio server's start: Node reading lines and answering initialize
// and tools/list (with no tools), with nothing loaded. scripts/bench/mcp-startup.mjs
// times it beside pep mcp.
let rest = "";
process.stdin.on("data", (chunk) => {
  rest += chunk;
  for (let nl = rest.indexOf("\n"); nl !== -1; nl = rest.indexOf("\n")) {
    const m = JSON.parse(rest.slice(0, nl));
    rest = rest.slice(nl + 1);
    if (m.id === undefined) continue;
    const result =
      m.method === "initialize"
        ? { protocolVersion: "2025-06-18", capabilities: {}, serverInfo: { name: "bare", version: "1" } }
        : { tools: [] };
    process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: m.id, result })}\n`);
  }
});
