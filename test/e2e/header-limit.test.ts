/**
 * The limit on an answer's headers is Node's, as it was when undici asked node:http for
 * it: 16 KiB unless `--max-http-header-size` raises it (on the command line or in
 * NODE_OPTIONS). pep gives the limit to its agent itself (so that a run need not load
 * node:http), and must give the same one.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessPep, scratch, spawnPep } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

let api: TestServer;
const tmp = scratch("pep-headers-");

beforeAll(async () => {
  api = await startServer((req, res) => {
    // About 20 KiB of headers: over Node's default limit, under 64 KiB.
    res.setHeader("x-padding", "a".repeat(20 * 1024));
    sendJson(res, 200, envelope({ status: "ok", path: req.path }));
  });
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

describe("the limit on response headers", () => {
  const argv = () => ["health", "-o", "json", "--no-retry", "--base-url", `${api.url}/v1`];
  const run = (env: Record<string, string>) => inProcessPep(argv(), { env: { ...tmp.env, ...env } });

  it("is 16 KiB by default: a larger header block fails as a network error, exit 6", async () => {
    const r = await run({});
    expect(r.code, r.err).toBe(6);
    expect(r.out).toBe("");
  });

  it("follows --max-http-header-size in NODE_OPTIONS", async () => {
    // Spawned: Node reads NODE_OPTIONS when a process starts.
    const r = await spawnPep(argv(), { env: { ...tmp.env, NODE_OPTIONS: "--max-http-header-size=65536" } });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ status: "ok" });
  });
});
