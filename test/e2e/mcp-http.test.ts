/**
 * `pep mcp --http`: the real executable serving Streamable HTTP, driven by the SDK's own
 * Client. Loopback by default; a browser Origin other than loopback and a Host that is not
 * a loopback name are refused before the protocol; every request needs the bearer token
 * (PEP_MCP_TOKEN, PEP_MCP_TOKEN_FILE, or one made at start and shown once).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, isBuilt, scratch, spawnPep } from "../helpers/cli.js";
import { TOOLS } from "../../src/mcp/catalog.js";

const tmp = scratch("pep-mcp-http-");
const children: ChildProcess[] = [];

/** The token the tests' servers take (PEP_MCP_TOKEN), and the header that carries it. */
const TOKEN = `${"t".repeat(16)}0123456789abcdef`;
const AUTH = { Authorization: `Bearer ${TOKEN}` };

/** Starts `pep mcp --sandbox --http --port 0 <argv>` and resolves to its /mcp URL. */
function startHttp(
  argv: string[],
  env: Record<string, string> = { PEP_MCP_TOKEN: TOKEN },
): Promise<{ url: string; stderr: () => string; pid: number }> {
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
      // Resolved once the start-up lines (the client configuration last, or the warning) are out.
      if (m && /client configuration:\n.*\n/.test(err)) resolve({ url: m[1]!, stderr: () => err, pid: child.pid! });
    });
    child.on("exit", (code) => reject(new Error(`pep mcp --http exited ${code}: ${err}`)));
  });
}

async function connect(url: string, headers: Record<string, string> = AUTH): Promise<Client> {
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
    headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...AUTH, ...headers },
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
            ...AUTH,
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

  it("without PEP_MCP_TOKEN a token is made, shown once with the client configuration; requests without it get 401", async () => {
    const made = await startHttp([], {});
    const token = /every request needs this bearer token[^\n]*\n {4}(\S+)\n/.exec(made.stderr())?.[1];
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const snippet = JSON.parse(/client configuration:\n {4}(.*)\n/.exec(made.stderr())![1]!);
    expect(snippet).toEqual({
      mcpServers: { pep: { type: "http", url: made.url, headers: { Authorization: `Bearer ${token}` } } },
    });
    // Another user of the machine, without the token: refused before the protocol.
    const anon = await post(made.url, { Authorization: "" });
    expect(anon.status).toBe(401);
    expect(anon.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await post(made.url, { Authorization: `Bearer ${token}x` })).status).toBe(401);
    const client = await connect(made.url, { Authorization: `Bearer ${token}` });
    expect((await client.callTool({ name: "list_categories", arguments: { limit: 1 } })).isError).toBeFalsy();
    await client.close();
    // Shown once: the token appears in the start-up lines only.
    expect(made.stderr().split(token!).length - 1).toBe(2);
  });

  it("refuses a token shorter than 32 characters, from PEP_MCP_TOKEN or PEP_MCP_TOKEN_FILE, before listening", async () => {
    const short = await spawnPep(["mcp", "--sandbox", "--http", "--port", "0"], {
      env: { ...tmp.env, PEP_MCP_TOKEN: "s3cret-token" },
    });
    expect(short.code).toBe(2);
    expect(short.err).toMatch(
      /^error: PEP_MCP_TOKEN holds a token of 12 characters; pep mcp --http takes at least 32$/m,
    );
    expect(short.err).not.toContain("s3cret-token");
    const { writeFileSync } = await import("node:fs");
    const file = `${tmp.dir}/token`;
    writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
    const fromFile = await startHttp([], { PEP_MCP_TOKEN_FILE: file });
    expect(fromFile.stderr()).not.toContain(TOKEN);
    expect((await post(fromFile.url, {})).status).toBe(200);
  });

  it("refuses a token file others could read or write, or another user's, before listening", async () => {
    const { chmodSync, chownSync, writeFileSync } = await import("node:fs");
    const file = `${tmp.dir}/shared-token`;
    writeFileSync(file, `${TOKEN}\n`, { mode: 0o600 });
    chmodSync(file, 0o644);
    const open = await spawnPep(["mcp", "--sandbox", "--http", "--port", "0"], {
      env: { ...tmp.env, PEP_MCP_TOKEN_FILE: file },
    });
    expect(open.code, open.err).toBe(2);
    expect(open.err).toContain(`PEP_MCP_TOKEN_FILE: ${file} is not used: others can read or write it (mode 0644)`);
    expect(open.err).not.toContain(TOKEN);
    if (process.getuid?.() === 0) {
      chmodSync(file, 0o600);
      chownSync(file, 65534, 65534);
      const theirs = await spawnPep(["mcp", "--sandbox", "--http", "--port", "0"], {
        env: { ...tmp.env, PEP_MCP_TOKEN_FILE: file },
      });
      expect(theirs.code, theirs.err).toBe(2);
      expect(theirs.err).toContain("belongs to uid 65534, not to you");
    }
  });

  it("beyond loopback: a loud warning that plain HTTP exposes the token and the data; the token is still required", async () => {
    const open = await startHttp(["--host", "0.0.0.0"]);
    expect(open.stderr()).toMatch(
      /WARNING: 0\.0\.0\.0 is beyond loopback and this is plain HTTP: the token, the questions and the answers cross the network unencrypted.*TLS/,
    );
    const url = open.url.replace("0.0.0.0", "127.0.0.1");
    expect((await post(url, { Authorization: "" })).status).toBe(401);
    expect((await post(url, { Authorization: "Bearer wrong-token!" })).status).toBe(401);
    const client = await connect(url);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    expect(open.stderr()).not.toContain(TOKEN);
  });
});

describe("pep mcp --http --socket", () => {
  it("listens on a Unix socket only this user can open, and still wants the token", async () => {
    const { statSync } = await import("node:fs");
    const { request } = await import("node:http");
    const socketPath = `${tmp.dir}/pep.sock`;
    const child = spawn(process.execPath, [BIN, "mcp", "--sandbox", "--http", "--socket", socketPath], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...tmp.env, PEP_MCP_TOKEN: TOKEN },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    let err = "";
    await new Promise<void>((resolve) => {
      child.stderr!.on("data", (c: Buffer) => {
        err += c.toString("utf8");
        if (/no client configuration is printed for a socket.*\n/.test(err)) resolve();
      });
    });
    // No TCP URL anywhere: one would carry the token to whatever listens on that port.
    const told = await new Promise<string>((resolve) => setImmediate(() => resolve(err)));
    expect(told).toContain(`connect a client that speaks HTTP over a Unix socket to ${socketPath}, path /mcp`);
    expect(told).not.toMatch(/https?:\/\//);
    expect(statSync(socketPath).mode & 0o777).toBe(0o600);
    const status = (headers: Record<string, string>) =>
      new Promise<number>((resolve, reject) => {
        const req = request(
          {
            socketPath,
            path: "/mcp",
            method: "POST",
            headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...headers },
          },
          (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          },
        );
        req.on("error", reject);
        req.end(JSON.stringify(INIT));
      });
    expect(await status({})).toBe(401);
    expect(await status(AUTH)).toBe(200);
  });
});
