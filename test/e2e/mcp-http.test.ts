/**
 * `pep mcp --http`: the real executable serving Streamable HTTP, driven by the SDK's own
 * Client. Loopback by default; a browser Origin other than loopback and a Host that is not
 * a loopback name are refused before the protocol; beyond loopback a bearer token from
 * PEP_MCP_TOKEN is required, and without one the server does not start.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, isBuilt, scratch, spawnPep } from "../helpers/cli.js";
import { TOOLS } from "../../src/mcp/catalog.js";

const tmp = scratch("pep-mcp-http-");
const children: ChildProcess[] = [];

/** Starts `pep mcp --sandbox --http --port 0 <argv>` and resolves to its /mcp URL. */
function startHttp(argv: string[], env: Record<string, string> = {}): Promise<{ url: string; stderr: () => string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "mcp", "--sandbox", "--http", "--port", "0", ...argv], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...tmp.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    let err = "";
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString("utf8");
      const m = /serving Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(err);
      if (m) resolve({ url: m[1]!, stderr: () => err });
    });
    child.on("exit", (code) => reject(new Error(`pep mcp --http exited ${code}: ${err}`)));
  });
}

async function connect(url: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: "http-test", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
  return client;
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};
const post = (url: string, headers: Record<string, string>, body: unknown = INIT) =>
  fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

let loopback: { url: string; stderr: () => string };

beforeAll(async () => {
  if (!isBuilt()) throw new Error("dist/ is missing: run `npm run build` before these tests");
  loopback = await startHttp([]);
});
afterAll(async () => {
  const exits = children.map((c) => {
    c.removeAllListeners("exit");
    return c.exitCode !== null ? Promise.resolve() : new Promise((resolve) => c.once("exit", resolve));
  });
  for (const c of children) c.kill("SIGTERM");
  await Promise.all(exits);
  tmp.cleanup();
});

describe("pep mcp --http", () => {
  it("serves on 127.0.0.1: the SDK's Client lists the tools and calls one; two sessions at once", async () => {
    expect(loopback.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const client = await connect(loopback.url);
    try {
      expect((await client.listTools()).tools).toHaveLength(TOOLS.length);
      const r = await client.callTool({ name: "list_peptides", arguments: { limit: 2 } });
      expect(r.isError).toBeFalsy();
      expect((r.structuredContent as { count: number; sandbox: boolean }).count).toBe(2);
      // Two sessions at once, each its own.
      const other = await connect(loopback.url);
      expect((await other.callTool({ name: "list_categories", arguments: { limit: 1 } })).isError).toBeFalsy();
      await other.close();
    } finally {
      await client.close();
    }
  });

  it("refuses a browser Origin other than loopback, and a Host that is not a loopback name (DNS rebinding)", async () => {
    const evil = await post(loopback.url, { Origin: "https://evil.example" });
    expect(evil.status).toBe(403);
    expect(((await evil.json()) as { error: { message: string } }).error.message).toMatch(
      /origin https:\/\/evil\.example is not allowed/,
    );
    const local = await post(loopback.url, { Origin: "http://localhost:3000" });
    expect(local.status).toBe(200);
    const port = new URL(loopback.url).port;
    // fetch sets Host from the URL; a raw request says another one.
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: "127.0.0.1",
          port,
          path: "/mcp",
          method: "POST",
          headers: {
            Host: `attacker.example:${port}`,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.end(JSON.stringify(INIT));
    });
    expect(status).toBe(403);
  });

  it("answers JSON-RPC errors for bodies it cannot take: not JSON, not initialize, another path", async () => {
    const notJson = await post(loopback.url, {}, "{oops");
    expect(notJson.status).toBe(400);
    expect(await notJson.json()).toMatchObject({ id: null, error: { code: -32700 } });
    expect((await post(loopback.url, {}, { jsonrpc: "2.0", id: 2, method: "tools/list" })).status).toBe(400);
    expect((await post(loopback.url.replace(/\/mcp$/, "/other"), {})).status).toBe(404);
  });

  it("beyond loopback: refuses to start without PEP_MCP_TOKEN; with it, requests need the bearer token", async () => {
    const refused = await spawnPep(["mcp", "--sandbox", "--http", "--port", "0", "--host", "0.0.0.0"], {
      env: tmp.env,
    });
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(
      /^error: pep mcp --http on 0\.0\.0\.0, beyond loopback, needs a bearer token: set PEP_MCP_TOKEN$/m,
    );
    const open = await startHttp(["--host", "0.0.0.0"], { PEP_MCP_TOKEN: "s3cret-token" });
    const url = open.url.replace("0.0.0.0", "127.0.0.1");
    expect((await post(url, {})).status).toBe(401);
    expect((await post(url, { Authorization: "Bearer wrong-token!" })).status).toBe(401);
    const client = await connect(url, { Authorization: "Bearer s3cret-token" });
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    expect(open.stderr()).not.toContain("s3cret-token");
  });
});
