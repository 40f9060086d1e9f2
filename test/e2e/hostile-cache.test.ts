/**
 * A cache folder someone edited by hand (or a disk that garbled it): an entry whose ETag
 * could not be sent as a header (CR, LF, NUL, a character beyond latin1) is no entry. The
 * run goes on as a miss, without If-None-Match, exits 0 (with a line under -v), and the
 * bad entry is replaced by the fresh answer; no run fails for what the cache holds.
 */
import { chmodSync, chownSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
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
    expect(again.err).toContain(`cache: ${full} removed: its ETag cannot be sent as a header`);
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

/**
 * A cache folder or entry someone else could have written: a planted body would be
 * printed as the API's on the next 304. The folder must be the user's alone (as the
 * config folder), each entry a plain file of the user's that no one else can write.
 */
describe("a cache someone else could write", () => {
  const PLANTED = JSON.stringify({ etag: ETAG, body: JSON.stringify({ data: [{ id: "planted" }] }) });

  /** A first run fills the cache; `plant` then replaces its one entry. */
  async function plantedEntry(plant: (file: string) => void): Promise<string> {
    const first = await pep();
    expect(first.code, first.err).toBe(0);
    const [file] = entries();
    const full = path.join(tmp.env.PEP_CACHE_DIR!, file!);
    plant(full);
    return full;
  }

  /** The run asked afresh (no If-None-Match) and printed the API's answer, not the planted one. */
  async function expectFreshAnswer(extra: string[] = []) {
    const before = api.requests.length;
    const r = await pep(...extra);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual([{ id: "bpc-157", name: "BPC-157" }]);
    expect(api.requests[before]!.headers["if-none-match"]).toBeUndefined();
    return r;
  }

  it("a folder others can write: the cache is off for the run, with a warning that says why and how to fix it", async () => {
    await plantedEntry((full) => writeFileSync(full, PLANTED));
    chmodSync(tmp.env.PEP_CACHE_DIR!, 0o777);
    const r = await expectFreshAnswer();
    expect(r.err).toContain(
      `the cache is off for this run: ${tmp.env.PEP_CACHE_DIR} can be written by others (mode 0777)`,
    );
    expect(r.err).toContain("chmod go-w");
    // nothing was written into it either
    expect(readFileSync(path.join(tmp.env.PEP_CACHE_DIR!, entries()[0]!), "utf8")).toBe(PLANTED);
    // -q silences the warning, not the check
    const quiet = await expectFreshAnswer(["-q"]);
    expect(quiet.err).toBe("");
  });

  it("a sticky shared folder (1777) is usable: nobody else can replace the user's entries there", async () => {
    await plantedEntry(() => undefined);
    chmodSync(tmp.env.PEP_CACHE_DIR!, 0o1777);
    const before = api.requests.length;
    const r = await pep();
    expect(r.code, r.err).toBe(0);
    expect(api.requests[before]!.headers["if-none-match"]).toBe(ETAG);
  });

  it("an entry others can write is not used, and -v says so", async () => {
    const full = await plantedEntry((f) => {
      writeFileSync(f, PLANTED);
      chmodSync(f, 0o666);
    });
    const r = await expectFreshAnswer(["-v"]);
    expect(r.err).toContain(`cache: ${full} not used: it can be written by others (mode 0666)`);
  });

  it("an entry that is a link is not followed", async () => {
    await plantedEntry((f) => {
      const elsewhere = path.join(tmp.dir, "planted.json");
      writeFileSync(elsewhere, PLANTED, { mode: 0o600 });
      rmSync(f);
      symlinkSync(elsewhere, f);
    });
    await expectFreshAnswer();
  });

  // Giving a file to another user needs root (CI runs as root).
  it.runIf(process.getuid?.() === 0)("an entry owned by another user is not used (needs root to chown)", async () => {
    const full = await plantedEntry((f) => {
      writeFileSync(f, PLANTED);
      chownSync(f, 4321, 4321);
    });
    const r = await expectFreshAnswer(["-v"]);
    expect(r.err).toContain(`cache: ${full} not used: it belongs to uid 4321`);
  });
});
