/**
 * A cache folder someone edited by hand (or a disk that garbled it): an entry whose ETag
 * could not be sent as a header (CR, LF, NUL, a character beyond latin1) is no entry. The
 * run goes on as a miss, without If-None-Match, exits 0 (with a line under -v), and the
 * bad entry is replaced by the fresh answer; no run fails for what the cache holds.
 */
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

let api: TestServer;
let tmp: ReturnType<typeof scratch>;
const ETAG = '"v1"';

beforeAll(async () => {
  api = await startServer({
    "/v1/peptides": (req, res) => {
      if (req.headers["if-none-match"] === ETAG) {
        res.writeHead(304, { etag: ETAG }).end();
        return;
      }
      sendJson(
        res,
        200,
        envelope([{ id: "bpc-157", name: "BPC-157" }], { pagination: { next_cursor: null, has_more: false } }),
        {
          etag: ETAG,
        },
      );
    },
  });
});
afterAll(async () => {
  await api.close();
});
beforeEach(() => {
  tmp?.cleanup();
  tmp = scratch("pep-hostile-cache-");
});
afterAll(() => tmp?.cleanup());

const pep = (...extra: string[]) =>
  runPep(["peptides", "list", "--limit", "1", "-o", "json", "--no-retry", ...extra], {
    env: { ...tmp.env, PEP_BASE_URL: `${api.url}/v1` },
  });

function entries(): string[] {
  return readdirSync(tmp.env.PEP_CACHE_DIR!).filter((f) => f.endsWith(".json"));
}

describe("an entry whose ETag cannot be a header", () => {
  it.each([
    ["CR LF and a header after them", '"v1"\r\nX-Injected: 1'],
    ["a lone LF", '"v1"\n'],
    ["NUL", '"v\u00001"'],
    ["a character beyond latin1", '"v\u20ac1"'],
    ["empty", ""],
  ])("%s: a miss, exit 0, the entry replaced by the fresh answer", async (_name, etag) => {
    const first = await pep();
    expect(first.code, first.err).toBe(0);
    const [file] = entries();
    expect(file).toBeDefined();
    const full = path.join(tmp.env.PEP_CACHE_DIR!, file!);
    const stored = JSON.parse(readFileSync(full, "utf8")) as { etag: string; body: string };
    writeFileSync(full, JSON.stringify({ ...stored, etag }));

    const before = api.requests.length;
    const again = await pep("-v");
    expect(again.code, again.err).toBe(0);
    // -v says what became of the entry
    expect(again.err).toContain(`cache: removed ${full}: its ETag cannot be sent as a header`);
    expect(JSON.parse(again.out)).toEqual([{ id: "bpc-157", name: "BPC-157" }]);
    expect(api.requests.length).toBe(before + 1);
    expect(api.requests[before]!.headers["if-none-match"]).toBeUndefined();
    // the fresh answer took the bad entry's place, and the next run is a 304 again
    expect((JSON.parse(readFileSync(full, "utf8")) as { etag: string }).etag).toBe(ETAG);
    const third = await pep();
    expect(third.code, third.err).toBe(0);
    expect(api.requests.at(-1)!.headers["if-none-match"]).toBe(ETAG);
  });
});
