/**
 * The client configurations of docs/mcp.md, as written: each JSON block parses,
 * has the shape its client reads (`mcpServers` for Claude Desktop and Cursor, `servers`
 * with `type: "stdio"` for VS Code), and starts a server the SDK's Client can use, with
 * only the placeholders filled in (`pep` is this checkout's bin/pep.js).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { BIN, ROOT, isBuilt, scratch } from "../helpers/cli.js";

interface Entry {
  type?: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
}

const readme = readFileSync(path.join(ROOT, "docs", "mcp.md"), "utf8");
const section = readme.slice(
  readme.indexOf("## Serving MCP clients"),
  readme.indexOf("What it never does: it sends only GET"),
);
const blocks = [...section.matchAll(/```json\n([\s\S]*?)```/g)].map(
  (m) => JSON.parse(m[1]!) as Record<string, unknown>,
);
const tmp = scratch("pep-mcp-readme-");
let sandbox: Sandbox;

beforeAll(async () => {
  if (!isBuilt()) throw new Error("dist/ is missing: run `npm run build` before these tests");
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
  tmp.cleanup();
});

function fill(value: string): string {
  return value
    .replace("https://<host>/v1", sandbox.baseUrl)
    .replace("<key>", sandbox.keys.full)
    .replace("${input:pep-key}", sandbox.keys.full);
}

async function toolsOf(entry: Entry): Promise<string[]> {
  expect(entry.command).toBe("pep");
  const env = Object.fromEntries(Object.entries(entry.env ?? {}).map(([k, v]) => [k, fill(v)]));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, ...entry.args],
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...tmp.env, ...env },
    stderr: "ignore",
  });
  const client = new Client({ name: "readme", version: "1" });
  await client.connect(transport);
  try {
    expect(client.getInstructions()).not.toMatch(/CONFIGURATION PROBLEM/);
    const r = await client.callTool({ name: "list_categories", arguments: { limit: 1 } });
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
  }
}

describe("docs/mcp.md: MCP client configurations", () => {
  it("has the Claude Desktop/Cursor, VS Code and sandbox snippets", () => {
    expect(blocks).toHaveLength(3);
    expect(Object.keys(blocks[0]!)).toEqual(["mcpServers"]);
    expect(Object.keys(blocks[1]!)).toEqual(["inputs", "servers"]);
    expect((blocks[1]!.servers as Record<string, Entry>).pep!.type).toBe("stdio");
    expect(Object.keys(blocks[2]!)).toEqual(["mcpServers"]);
  });

  it("each starts a server that answers, with every tool when it gives a key", async () => {
    const desktop = (blocks[0]!.mcpServers as Record<string, Entry>).pep!;
    expect(await toolsOf(desktop)).toContain("list_prices");
    const vscode = (blocks[1]!.servers as Record<string, Entry>).pep!;
    expect(vscode.env?.PEP_API_KEY).toBe("${input:pep-key}");
    expect(await toolsOf(vscode)).toContain("list_prices");
    const trial = (blocks[2]!.mcpServers as Record<string, Entry>)["pep-sandbox"]!;
    expect(await toolsOf(trial)).toHaveLength(16);
  });
});
