/**
 * The ETag cache stays bounded: a folder over `cache_max_mb` loses its least recently
 * used entries first (a 304 hit counts as a use), several runs writing at once leave
 * it under the cap with every entry whole and no temp file, and `pep cache
 * path|size|clear` show and empty it. Real runs of the executable, a loopback API that
 * sends ETags, a real folder.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";
import { useLoopback } from "../helpers/suite.js";

const KB = 1024;
const MB = 1024 * KB;

/** `/v1/blobs/<name>?kb=N`: an item of about N KiB with an ETag; `/v1/pages?cursor=i&kb=N`: 30 pages of one. */
const suite = useLoopback<TestServer>(
  () =>
    startServer((req, res) => {
      const kb = Number(req.query.get("kb") ?? "1");
      const pad = "x".repeat(kb * KB);
      if (req.path.startsWith("/v1/blobs/")) {
        const etag = `"${req.path}-${kb}"`;
        if (req.headers["if-none-match"] === etag) {
          res.writeHead(304, { etag });
          res.end();
          return;
        }
        sendJson(res, 200, envelope({ id: req.path, pad }), { etag });
        return;
      }
      const at = Number(req.query.get("cursor") ?? "0");
      const more = at < 29;
      sendJson(
        res,
        200,
        {
          data: [{ id: `${req.query.get("run")}-${at}`, pad }],
          pagination: { next_cursor: more ? String(at + 1) : null, has_more: more },
          meta: {},
        },
        {
          etag: `"p${at}"`,
        },
      );
    }),
  "pep-cache-bound-",
);

function folderBytes(dir: string): { bytes: number; names: string[] } {
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return { bytes: 0, names };
  }
  return { bytes: names.reduce((n, f) => n + statSync(path.join(dir, f)).size, 0), names };
}

// Node's module compile cache (22.1 and later) shares the cache folder; off here, so the
// folder holds only what these tests count (pep cache clear never touches it either way).
const env = (extra: Record<string, string> = {}) => ({
  ...suite.tmp.env,
  NODE_DISABLE_COMPILE_CACHE: "1",
  PEP_BASE_URL: `${suite.api.url}/v1`,
  ...extra,
});

describe("the ETag cache is bounded", () => {
  it("one run of 30 pages of 100 KiB with a 1 MB cap: the folder ends under the cap, every entry whole", async () => {
    const dir = path.join(suite.tmp.dir, "one-run");
    const r = await inProcessPep(["api", "pages", "--paginate", "-F", "kb=100", "-F", "run=a"], {
      env: env({ PEP_CACHE_DIR: dir, PEP_CACHE_MAX_MB: "1" }),
    });
    expect(r.code, r.err).toBe(0);
    expect(r.out.trim().split("\n")).toHaveLength(30);
    const { bytes, names } = folderBytes(dir);
    expect(bytes).toBeLessThanOrEqual(1 * MB);
    expect(names.length).toBeGreaterThan(3);
    for (const n of names) {
      expect(n).toMatch(/^[0-9a-f]{64}\.json$/);
      expect(JSON.parse(readFileSync(path.join(dir, n), "utf8"))).toHaveProperty("etag");
    }
  });

  it("the least recently used entries go first: a 304 hit keeps its entry", async () => {
    const dir = path.join(suite.tmp.dir, "lru");
    const e = env({ PEP_CACHE_DIR: dir, PEP_CACHE_MAX_MB: "1" });
    const get = (name: string) => inProcessPep(["api", `blobs/${name}`, "-F", "kb=300"], { env: e });
    for (const name of ["a", "b", "c"]) expect((await get(name)).code).toBe(0);
    const hitsBefore = suite.api.requests.length;
    expect((await get("a")).code).toBe(0); // a hit: a is now the most recently used
    expect(suite.api.requests[hitsBefore]!.headers["if-none-match"]).toBe('"/v1/blobs/a-300"');
    expect((await get("d")).code).toBe(0); // 1.2 MB: over the cap, b and c go (down to 80%)
    expect(folderBytes(dir).bytes).toBeLessThanOrEqual(0.8 * MB);
    const conditional = async (name: string) => {
      const at = suite.api.requests.length;
      expect((await get(name)).code).toBe(0);
      return suite.api.requests[at]!.headers["if-none-match"] !== undefined;
    };
    expect(await conditional("a")).toBe(true);
    expect(await conditional("d")).toBe(true);
    expect(await conditional("b")).toBe(false);
  });

  it("six runs writing at once: all succeed, the folder ends under the cap, no temp file, nothing torn", async () => {
    const dir = path.join(suite.tmp.dir, "concurrent");
    const runs = Array.from({ length: 6 }, (_, i) =>
      inProcessPep(["api", "pages", "--paginate", "-F", "kb=60", "-F", `run=r${i}`], {
        env: env({ PEP_CACHE_DIR: dir, PEP_CACHE_MAX_MB: "1" }),
        timeoutMs: 60_000,
      }),
    );
    for (const r of await Promise.all(runs)) expect(r.code, r.err).toBe(0);
    const { bytes, names } = folderBytes(dir);
    // Each run counts only its own writes between looks at the folder, so runs writing at
    // the same moment may leave it over the cap by what they wrote since; 6 runs of 1.8 MB
    // each wrote 10.8 MB in all.
    expect(bytes).toBeLessThanOrEqual(2 * MB);
    expect(names.filter((n) => n.endsWith(".tmp"))).toEqual([]);
    for (const n of names) JSON.parse(readFileSync(path.join(dir, n), "utf8"));
    // The next run that writes looks at the folder first and brings it under the cap.
    expect(
      (
        await inProcessPep(["api", "blobs/after", "-F", "kb=1"], {
          env: env({ PEP_CACHE_DIR: dir, PEP_CACHE_MAX_MB: "1" }),
        })
      ).code,
    ).toBe(0);
    expect(folderBytes(dir).bytes).toBeLessThanOrEqual(1 * MB);
  });
});

describe("pep cache path|size|clear", () => {
  it("path prints the folder; size counts entries and bytes against the limit; clear empties it and leaves other files", async () => {
    const dir = path.join(suite.tmp.dir, "cmd");
    const e = env({ PEP_CACHE_DIR: dir });
    expect((await inProcessPep(["cache", "path"], { env: e })).out).toBe(`${dir}\n`);
    const empty = await inProcessPep(["cache", "size", "-o", "json"], { env: e });
    expect(empty.code, empty.err).toBe(0);
    expect(JSON.parse(empty.out)).toEqual({ path: dir, entries: 0, bytes: 0, max_bytes: 50 * MB });
    for (const name of ["a", "b"])
      expect((await inProcessPep(["api", `blobs/${name}`, "-F", "kb=10"], { env: e })).code).toBe(0);
    writeFileSync(path.join(dir, "notes.txt"), "mine");
    const size = JSON.parse(
      (await inProcessPep(["cache", "size", "-o", "json"], { env: { ...e, PEP_CACHE_MAX_MB: "7" } })).out,
    ) as Record<string, number>;
    expect(size).toMatchObject({ entries: 2, max_bytes: 7 * MB });
    expect(size.bytes).toBe(folderBytes(dir).bytes - 4);
    const clear = await inProcessPep(["cache", "clear"], { env: e });
    expect(clear.code, clear.err).toBe(0);
    expect(clear.err).toMatch(new RegExp(`^removed 2 entries \\(0\\.1 MB\\) from ${dir}$`, "m"));
    expect(readdirSync(dir)).toEqual(["notes.txt"]);
    const after = await inProcessPep(["cache", "size"], { env: e });
    expect(JSON.parse(after.out)).toMatchObject({ entries: 0, bytes: 0 });
  });

  it("the limit is a profile key, checked like the others", async () => {
    const e = env({ PEP_CACHE_DIR: path.join(suite.tmp.dir, "key") });
    expect((await inProcessPep(["config", "set", "cache_max_mb", "200"], { env: e })).code).toBe(0);
    expect(JSON.parse((await inProcessPep(["cache", "size", "-o", "json"], { env: e })).out).max_bytes).toBe(200 * MB);
    const bad = await inProcessPep(["config", "set", "cache_max_mb", "0"], { env: e });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("cache_max_mb must be megabytes the ETag cache may hold");
  });
});
