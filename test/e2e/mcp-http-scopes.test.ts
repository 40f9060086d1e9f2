/**
 * A scope refused over HTTP is refused for the whole server: a 403 met by one session
 * hides that scope's tools, and the prompt that needs them, in every open session at once
 * (one tools/list_changed each), and a session started after lists none of them. The real
 * executable (`--http` needs a process to listen), a sandbox with a research-only key,
 * and the SDK's Client over Streamable HTTP.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  PromptListChangedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { BIN, ROOT, scratch, stopped } from "../helpers/cli.js";

const tmp = scratch("pep-mcp-http-scopes-");
const TOKEN = "t".repeat(32);
let sandbox: Sandbox;
let child: ChildProcess | undefined;
let url: URL;
const clients: Client[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  child = spawn(process.execPath, [BIN, "mcp", "--http", "--port", "0"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      ...tmp.env,
      PEP_MCP_TOKEN: TOKEN,
      PEP_BASE_URL: sandbox.baseUrl,
      PEP_API_KEY: sandbox.keys.research,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  url = await new Promise<URL>((resolve, reject) => {
    let err = "";
    child!.stderr!.on("data", (c: Buffer) => {
      err += c.toString("utf8");
      const m = /serving Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(err);
      if (m) resolve(new URL(m[1]!));
    });
    child!.on("exit", (code) => reject(new Error(`pep mcp --http exited ${code}: ${err}`)));
  });
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await stopped(child, "SIGINT");
  await sandbox?.close();
  tmp.cleanup();
});

async function connect(): Promise<{ client: Client; tools: () => number; prompts: () => number }> {
  const client = new Client({ name: "scopes", version: "1" });
  const counts = { tools: 0, prompts: 0 };
  client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
    counts.tools++;
  });
  client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
    counts.prompts++;
  });
  await client.connect(
    new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
  );
  clients.push(client);
  return { client, tools: () => counts.tools, prompts: () => counts.prompts };
}

const names = async (c: Client) => (await c.listTools()).tools.map((t) => t.name);

describe("pep mcp --http: a refused scope, server-wide", () => {
  it("a 403 in one session hides the scope's tools and prompt in every session, told once each; new sessions never list them", async () => {
    const a = await connect();
    const b = await connect();
    expect(await names(b.client)).toContain("list_vendors");
    expect((await b.client.listPrompts()).prompts.map((p) => p.name)).toContain("compare_vendors_for_peptide");
    const refused = await a.client.callTool({ name: "list_vendors", arguments: { limit: 1 } });
    expect(refused.isError).toBe(true);
    await vi.waitFor(() => expect(b.tools()).toBe(1));
    await vi.waitFor(() => expect(a.tools()).toBe(1));
    const left = await names(b.client);
    expect(left).not.toContain("list_vendors");
    expect(left).not.toContain("compare_vendors");
    expect(left).toContain("list_peptides");
    expect((await b.client.listPrompts()).prompts.map((p) => p.name)).not.toContain("compare_vendors_for_peptide");
    expect(b.prompts()).toBe(1);
    const c = await connect();
    expect(await names(c.client)).not.toContain("get_vendor");
    expect(c.client.getInstructions()).toMatch(/was refused the vendors:read scope/);
    // Still one notice each after more calls of the refused scope.
    await a.client.callTool({ name: "get_vendor", arguments: { id: "x" } }).catch(() => {});
    expect(b.tools()).toBe(1);
  });
});
