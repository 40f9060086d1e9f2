/**
 * `pep mcp --http` sessions over raw HTTP (fetch), against the real executable: idle
 * expiry, the cap (the oldest idle session goes; 503 saying why when all are in use;
 * concurrent newcomers never push out a session still starting), a flood of initializes that does not grow the server past its bound, a dropped
 * GET stream reopened at once, event ids and Last-Event-ID, a call's messages on its own
 * POST stream, and CORS for loopback origins with the preflight answered.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, isBuilt, scratch } from "../helpers/cli.js";

const tmp = scratch("pep-mcp-sessions-");
const children: ChildProcess[] = [];
const TOKEN = "s".repeat(32);
const BASE = {
  "Content-Type": "application/json",
  Accept: "application/json, text/event-stream",
  Authorization: `Bearer ${TOKEN}`,
};

function startHttp(argv: string[]): Promise<{ url: string; pid: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, "mcp", "--sandbox", "--http", "--port", "0", ...argv], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...tmp.env, PEP_MCP_TOKEN: TOKEN },
      stdio: ["ignore", "ignore", "pipe"],
    });
    children.push(child);
    let err = "";
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString("utf8");
      const m = /serving Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(err);
      if (m) resolve({ url: m[1]!, pid: child.pid! });
    });
    child.on("exit", (code) => reject(new Error(`pep mcp --http exited ${code}: ${err}`)));
  });
}

const INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
};

/** Starts a session: initialize (its answer read whole), then the initialized notification. */
async function session(url: string): Promise<string> {
  const res = await fetch(url, { method: "POST", headers: BASE, body: JSON.stringify(INIT) });
  expect(res.status).toBe(200);
  const id = res.headers.get("mcp-session-id")!;
  await res.text();
  const note = await fetch(url, {
    method: "POST",
    headers: { ...BASE, "Mcp-Session-Id": id, "Mcp-Protocol-Version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }),
  });
  expect(note.status).toBe(202);
  return id;
}

function send(url: string, sid: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { ...BASE, "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25", ...headers },
    body: JSON.stringify(body),
  });
}

/** The events of an SSE body: id and parsed data of each. */
function events(text: string): Array<{ id?: string; data?: { id?: unknown; method?: string; result?: unknown } }> {
  return text
    .split("\n\n")
    .filter((b) => b.trim() !== "")
    .map((block) => {
      const id = /^id: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.+)$/m.exec(block)?.[1];
      return { ...(id ? { id } : {}), ...(data ? { data: JSON.parse(data) } : {}) };
    });
}

const listTools = (n: number) => ({ jsonrpc: "2.0", id: n, method: "tools/list" });
const rssMiB = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))![1]) / 1024;

beforeAll(() => {
  if (!isBuilt()) throw new Error("dist/ is missing: run `npm run build` before these tests");
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

describe("pep mcp --http: sessions end", () => {
  it("an idle session expires after --session-idle: its id then gets 404, initialize again", async () => {
    const { url } = await startHttp(["--session-idle", "1"]);
    const sid = await session(url);
    expect((await send(url, sid, listTools(2))).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 1600));
    const gone = await send(url, sid, listTools(3));
    expect(gone.status).toBe(404);
    expect(await gone.text()).toMatch(/unknown, expired or closed session: initialize again/);
  });

  it("at --max-sessions the session idle longest goes; when all are in use a new one gets 503 saying why", async () => {
    const { url } = await startHttp(["--max-sessions", "2"]);
    const a = await session(url);
    const b = await session(url);
    await send(url, a, listTools(2)).then((r) => r.text());
    const c = await session(url); // b is idle longest now
    expect((await send(url, b, listTools(3))).status).toBe(404);
    expect((await send(url, a, listTools(4))).status).toBe(200);
    // Both left in use: an open GET stream each.
    const streams = [a, c].map((sid) => {
      const abort = new AbortController();
      const res = fetch(url, {
        headers: { ...BASE, Accept: "text/event-stream", "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25" },
        signal: abort.signal,
      });
      return { abort, res };
    });
    for (const s of streams) expect((await s.res).status).toBe(200);
    const refused = await fetch(url, { method: "POST", headers: BASE, body: JSON.stringify(INIT) });
    expect(refused.status).toBe(503);
    // Sessions holding streams free no place at a time anyone can promise: the reason, no Retry-After.
    expect(refused.headers.get("retry-after")).toBeNull();
    expect(await refused.text()).toMatch(
      /all 2 sessions are taken \(--max-sessions\) and all are in use, .*so no time to try again can be promised/,
    );
    for (const s of streams) s.abort.abort();
  });

  it("concurrent newcomers at the cap never push out a session still starting: they get 503 with a Retry-After of seconds", async () => {
    const { url } = await startHttp(["--max-sessions", "4"]);
    // Five initializes at once, none followed by its initialized notification yet.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => fetch(url, { method: "POST", headers: BASE, body: JSON.stringify(INIT) })),
    );
    const started = answers.filter((r) => r.status === 200);
    const refused = answers.filter((r) => r.status === 503);
    expect(started).toHaveLength(4);
    expect(refused).toHaveLength(1);
    expect(Number(refused[0]!.headers.get("retry-after"))).toBe(2);
    expect(await refused[0]!.text()).toMatch(/still starting; try again in 2 s/);
    // Every session started is still there: each finishes starting.
    for (const r of started) {
      await r.text();
      const note = await send(url, r.headers.get("mcp-session-id")!, {
        jsonrpc: "2.0",
        method: "notifications/initialized",
      });
      expect(note.status).toBe(202);
    }
  });

  it("a flood of initializes without DELETE keeps at most --max-sessions, and the server's memory stays bounded", async () => {
    const { url, pid } = await startHttp(["--max-sessions", "16"]);
    const first = await session(url);
    for (let i = 0; i < 40; i++) await session(url);
    const settled = rssMiB(pid);
    // Clients that finish starting (a session still starting is never pushed out) and never DELETE.
    for (let i = 0; i < 200; i++) await session(url);
    expect((await send(url, first, listTools(2))).status).toBe(404);
    // The bound docs/mcp.md gives: past the cap, memory stops growing with sessions (the heap settles
    // about 80 MiB above start; scripts/bench/mcp-sessions.mjs).
    expect(rssMiB(pid) - settled).toBeLessThan(100);
  }, 60_000);
});

describe("pep mcp --http: streams", () => {
  let url: string;
  beforeAll(async () => {
    ({ url } = await startHttp([]));
  });

  it("a dropped GET stream can be reopened at once", async () => {
    const sid = await session(url);
    const open = () => {
      const abort = new AbortController();
      const res = fetch(url, {
        headers: { ...BASE, Accept: "text/event-stream", "Mcp-Session-Id": sid, "Mcp-Protocol-Version": "2025-11-25" },
        signal: abort.signal,
      });
      return { abort, res };
    };
    const one = open();
    expect((await one.res).status).toBe(200);
    one.abort.abort();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const two = open();
    expect((await two.res).status).toBe(200);
    two.abort.abort();
  });

  it("a call's progress and log messages travel on its own POST stream, with event ids; Last-Event-ID resumes it", async () => {
    const sid = await session(url);
    await send(url, sid, { jsonrpc: "2.0", id: 2, method: "logging/setLevel", params: { level: "debug" } }).then((r) =>
      r.text(),
    );
    const call = await send(url, sid, {
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "list_peptides", arguments: { limit: 1 }, _meta: { progressToken: "p1" } },
    });
    expect(call.headers.get("content-type")).toMatch(/text\/event-stream/);
    const got = events(await call.text());
    const messages = got.filter((e) => e.data?.method === "notifications/message");
    expect(messages.length).toBeGreaterThan(0);
    const result = got.find((e) => e.data?.id === 3 && e.data.result);
    expect(result?.id).toBeDefined();
    for (const e of got.filter((x) => x.data)) expect(e.id, "every event has an id").toMatch(/\S/);
    // Resumed after its first event: the rest of the stream again, the answer included.
    const firstId = got.find((e) => e.id)!.id!;
    const resumed = await fetch(url, {
      headers: {
        ...BASE,
        Accept: "text/event-stream",
        "Mcp-Session-Id": sid,
        "Mcp-Protocol-Version": "2025-11-25",
        "Last-Event-ID": firstId,
      },
      signal: AbortSignal.timeout(2000),
    });
    expect(resumed.status).toBe(200);
    const reader = resumed.body!.getReader();
    let text = "";
    while (!text.includes('"id":3')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(events(text).some((e) => e.data?.id === 3)).toBe(true);
  });

  it("CORS: a loopback origin's preflight is answered and its responses carry the headers; other origins get 403", async () => {
    const pre = await fetch(url, {
      method: "OPTIONS",
      headers: {
        Origin: "http://localhost:5173",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "authorization, content-type, mcp-session-id",
      },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(pre.headers.get("access-control-allow-headers")).toMatch(/Authorization/);
    expect(pre.headers.get("access-control-allow-methods")).toMatch(/POST/);
    const init = await fetch(url, {
      method: "POST",
      headers: { ...BASE, Origin: "http://localhost:5173" },
      body: JSON.stringify(INIT),
    });
    expect(init.status).toBe(200);
    expect(init.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(init.headers.get("access-control-expose-headers")).toMatch(/Mcp-Session-Id/);
    await init.text();
    const evil = await fetch(url, {
      method: "OPTIONS",
      headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" },
    });
    expect(evil.status).toBe(403);
    expect(evil.headers.get("access-control-allow-origin")).toBeNull();
  });
});
