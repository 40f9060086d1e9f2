import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
const args = process.argv.slice(2);
const t = new StdioClientTransport({
  command: process.execPath,
  args: ["bin/pep.js", "mcp", ...args],
  stderr: "ignore",
  env: {
    PATH: process.env.PATH,
    HOME: "/tmp/measure-home",
    PEP_CONFIG_DIR: "/tmp/measure-home/c",
    PEP_CACHE_DIR: "/tmp/measure-home/k",
    ...(process.env.KEY ? { PEP_API_KEY: process.env.KEY } : {}),
  },
});
const c = new Client({ name: "m", version: "1" });
await c.connect(t);
const r = await c.listTools();
const all = JSON.stringify(r);
const os = r.tools.reduce((n, x) => n + JSON.stringify(x.outputSchema ?? {}).length, 0);
console.log(
  `tools=${r.tools.length} chars=${all.length} tokens~${Math.round(all.length / 4)} outputSchemas=${Math.round((100 * os) / all.length)}% instructions=${(c.getInstructions() ?? "").length} chars`,
);
await c.close();
