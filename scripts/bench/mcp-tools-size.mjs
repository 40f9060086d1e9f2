// The size of `pep mcp`'s tools/list answer, as a client receives it: characters, and
// tokens estimated at 4 characters each (no tokenizer is a dependency of pep). Each
// tool's share is listed, with whether it declares an output schema.
// Usage: node scripts/bench/mcp-tools-size.mjs [pep mcp flags, e.g. --tools research]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const args = ["bin/pep.js", "mcp", "--sandbox", ...process.argv.slice(2)];
const client = new Client({ name: "tools-size", version: "1" });
await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: "ignore" }));
const { tools } = await client.listTools();
const all = JSON.stringify({ tools });
const out = tools.reduce((n, t) => n + (t.outputSchema ? JSON.stringify(t.outputSchema).length : 0), 0);
console.log(`tools/list: ${tools.length} tools, ${all.length} characters, about ${Math.round(all.length / 4)} tokens`);
console.log(`output schemas: ${out} characters (${((100 * out) / all.length).toFixed(1)}%)`);
for (const t of tools)
  console.log(
    `  ${t.name.padEnd(22)} ${String(JSON.stringify(t).length).padStart(5)}${t.outputSchema ? "  (output schema)" : ""}`,
  );
if (process.env.SHOW)
  console.log(
    JSON.stringify(
      tools.find((t) => t.name === process.env.SHOW),
      null,
      1,
    ),
  );
await client.close();
