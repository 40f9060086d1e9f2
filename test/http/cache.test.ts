import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/http/client.js";
import { cacheKey, cacheUsage, clearCache, createFileCache, pruneCache } from "../../src/http/cache.js";
import type { Client, ClientEvent, ClientOptions } from "../../src/http/client-types.js";
import { envelope, sendJson, startServer, type Handler, type TestServer } from "../helpers/server.js";

const KEY_A = "sk_test_aaaaaaaaaaaaaaaa1111";
const KEY_B = "sk_test_bbbbbbbbbbbbbbbb2222";

/** An endpoint with an ETag that answers 304 to a matching If-None-Match. */
const etagged: Handler = (req, res) => {
  const etag = `"v-${req.query.get("q") ?? "none"}"`;
  if (req.headers["if-none-match"] === etag) {
    res.writeHead(304, { etag, "x-request-id": `r${req.index}` });
    res.end();
    return;
  }
  sendJson(res, 200, envelope({ q: req.query.get("q"), served: req.index }, { meta: { m: 1 } }), {
    etag,
    "x-request-id": `r${req.index}`,
  });
};

let dir: string;
let srv: TestServer | undefined;
const clients: Client[] = [];
beforeEach(async () => {
  dir = join(await mkdtemp(join(tmpdir(), "pep-cache-test-")), "etags");
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await srv?.close();
  srv = undefined;
  await rm(join(dir, ".."), { recursive: true, force: true });
});

async function server(handler: Handler = etagged) {
  srv = await startServer(handler);
  return srv;
}
function client(opts: Partial<ClientOptions> = {}): Client {
  const c = createClient({ baseUrl: `${srv!.url}/v1`, cache: createFileCache(dir), ...opts });
  clients.push(c);
  return c;
}

describe("ETag cache", () => {
  it("stores a 200 with an ETag, then sends If-None-Match and serves the stored body on 304", async () => {
    const srv = await server();
    const events: ClientEvent[] = [];
    const c = client({ onEvent: (e) => events.push(e) });
    const first = await c.request("/peptides", { query: { q: "x" } });
    expect(first).toMatchObject({ status: 200, fromCache: false, data: { q: "x", served: 0 } });
    expect(srv.requests[0]!.headers["if-none-match"]).toBeUndefined();

    const second = await c.request("/peptides", { query: { q: "x" } });
    expect(srv.requests[1]!.headers["if-none-match"]).toBe('"v-x"');
    expect(second).toMatchObject({
      status: 304,
      fromCache: true,
      bytes: 0,
      data: { q: "x", served: 0 },
      meta: { m: 1 },
      etag: '"v-x"',
      requestId: "r1",
    });
    expect(second.body).toEqual(first.body);
    const responses = events.filter((e) => e.type === "response");
    expect(responses.map((e) => e.type === "response" && [e.status, e.fromCache, e.bytes])).toEqual([
      [200, false, first.bytes],
      [304, true, 0],
    ]);
  });

  it("a different query is a different entry; parameter order is not", async () => {
    const srv = await server();
    const c = client();
    await c.request("/peptides", { query: { q: "x", a: "1" } });
    await c.request("/peptides", { query: { q: "y", a: "1" } });
    expect(srv.requests[1]!.headers["if-none-match"]).toBeUndefined();
    await c.request("/peptides", { query: { a: "1", q: "x" } });
    expect(srv.requests[2]!.headers["if-none-match"]).toBe('"v-x"');
    expect(cacheKey("http://h/v1", "/v1/p?b=2&a=1", KEY_A)).toBe(cacheKey("http://h/v1", "/v1/p?a=1&b=2", KEY_A));
  });

  it("entries of different keys never mix", async () => {
    const srv = await server();
    await client({ apiKey: KEY_A }).request("/vendors", { query: { q: "v" } });
    await client({ apiKey: KEY_B }).request("/vendors", { query: { q: "v" } });
    await client().request("/vendors", { query: { q: "v" } });
    expect(srv.requests.map((r) => r.headers["if-none-match"])).toEqual([undefined, undefined, undefined]);
    await client({ apiKey: KEY_A }).request("/vendors", { query: { q: "v" } });
    expect(srv.requests[3]!.headers["if-none-match"]).toBe('"v-v"');
    expect(
      new Set([
        cacheKey("http://h/v1", "/v1/x", KEY_A),
        cacheKey("http://h/v1", "/v1/x", KEY_B),
        cacheKey("http://h/v1", "/v1/x"),
      ]).size,
    ).toBe(3);
  });

  it("never writes the key, and keeps files 0600 in a 0700 folder with no temp files left", async () => {
    await server();
    const c = client({ apiKey: KEY_A });
    await c.request("/vendors", { query: { q: "1" } });
    await c.request("/vendors", { query: { q: "2" } });
    const files = await readdir(dir);
    expect(files).toHaveLength(2);
    expect(files.every((f) => /^[0-9a-f]{64}\.json$/.test(f))).toBe(true);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    for (const f of files) {
      expect((await stat(join(dir, f))).mode & 0o777).toBe(0o600);
      const text = await readFile(join(dir, f), "utf8");
      expect(text).not.toContain(KEY_A);
      expect(text).not.toContain(KEY_A.slice(-8));
      expect(Object.keys(JSON.parse(text) as object).sort()).toEqual(["body", "etag"]);
    }
  });

  it("a corrupt entry is a miss and is replaced by the next answer", async () => {
    const srv = await server();
    const c = client();
    await c.request("/peptides", { query: { q: "z" } });
    const [file] = await readdir(dir);
    for (const junk of ["{not json", JSON.stringify({ etag: '"v-z"', body: "{broken" }), JSON.stringify({ etag: 5 })]) {
      await writeFile(join(dir, file!), junk);
      const n = srv.requests.length;
      const res = await c.request("/peptides", { query: { q: "z" } });
      expect(srv.requests[n]!.headers["if-none-match"]).toBeUndefined();
      expect(res.fromCache).toBe(false);
      const stored = JSON.parse(await readFile(join(dir, file!), "utf8")) as { etag: string; body: string };
      expect(stored.etag).toBe('"v-z"');
      expect(JSON.parse(stored.body)).toEqual(res.body);
    }
  });

  it("noCache skips the cache for that request", async () => {
    const srv = await server();
    const c = client();
    await c.request("/peptides", { query: { q: "n" } });
    const res = await c.request("/peptides", { query: { q: "n" }, noCache: true });
    expect(srv.requests[1]!.headers["if-none-match"]).toBeUndefined();
    expect(res.fromCache).toBe(false);
  });

  it("does not store answers without an ETag", async () => {
    await server((_r, res) => sendJson(res, 200, envelope([])));
    await client().request("/peptides");
    await expect(readdir(dir)).rejects.toThrow();
  });

  it("an unwritable cache folder never fails the request", async () => {
    await server();
    const blocker = join(dir, "..", "file-not-dir");
    await writeFile(blocker, "x");
    const c = createClient({ baseUrl: `${srv!.url}/v1`, cache: createFileCache(join(blocker, "sub")) });
    clients.push(c);
    const res = await c.request("/peptides", { query: { q: "w" } });
    expect(res.status).toBe(200);
  });
});

describe("file cache store", () => {
  it("round-trips entries and misses unknown keys", async () => {
    const store = createFileCache(dir);
    expect(await store.get("k")).toBeUndefined();
    await store.set("k", { etag: '"1"', body: '{"data":1}' });
    expect(await store.get("k")).toEqual({ etag: '"1"', body: '{"data":1}' });
    await store.set("k", { etag: '"2"', body: '{"data":2}' });
    expect(await store.get("k")).toEqual({ etag: '"2"', body: '{"data":2}' });
    expect(await readdir(dir)).toHaveLength(1);
  });
});

describe("the store's size bound", () => {
  const fill = async (store: ReturnType<typeof createFileCache>, name: string, kb: number) =>
    store.set(cacheKey("https://a.example/v1", `/${name}`), { etag: `"${name}"`, body: "x".repeat(kb * 1024) });

  it("prunes least recently used first, down to 80% of the cap; a get counts as a use", async () => {
    const store = createFileCache(dir, { maxBytes: 100 * 1024 });
    for (const n of ["a", "b", "c"]) {
      await fill(store, n, 30);
      await new Promise((r) => setTimeout(r, 15));
    }
    expect(await store.get(cacheKey("https://a.example/v1", "/a"))).toBeDefined();
    await fill(store, "d", 30); // about 120 KiB: over, so b and c go
    const usage = cacheUsage(dir);
    expect(usage.bytes).toBeLessThanOrEqual(80 * 1024);
    expect(await store.get(cacheKey("https://a.example/v1", "/a"))).toBeDefined();
    expect(await store.get(cacheKey("https://a.example/v1", "/d"))).toBeDefined();
    expect(await store.get(cacheKey("https://a.example/v1", "/b"))).toBeUndefined();
  });

  it("never touches files that are not its own, and removes temp files left by a killed run", async () => {
    const store = createFileCache(dir, { maxBytes: 10 * 1024 });
    await fill(store, "a", 1);
    const stale = join(dir, `${"f".repeat(64)}.json.abcdef.tmp`);
    const staleNow = join(dir, `.${"d".repeat(64)}.json.1a2b-1c0ffee00.tmp`);
    const fresh = join(dir, `${"e".repeat(64)}.json.abcdef.tmp`);
    await writeFile(join(dir, "notes.txt"), "x".repeat(50 * 1024));
    await writeFile(stale, "partial");
    await writeFile(staleNow, "partial");
    await writeFile(fresh, "partial");
    const old = new Date(Date.now() - 60 * 60 * 1000);
    await utimes(stale, old, old);
    await utimes(staleNow, old, old);
    const entry = (await readdir(dir)).find((n) => /^[0-9a-f]{64}\.json$/.test(n))!;
    // notes.txt alone is over the cap, but it is not an entry: nothing of pep's is removed for it.
    expect(pruneCache(dir, 10 * 1024)).toEqual({ removed: 0, bytes: (await stat(join(dir, entry))).size });
    expect((await readdir(dir)).sort()).toEqual([entry, `${"e".repeat(64)}.json.abcdef.tmp`, "notes.txt"].sort());
    expect(clearCache(dir).entries).toBe(1);
    expect(await readdir(dir)).toEqual(["notes.txt"]);
  });
});
