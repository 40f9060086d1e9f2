/**
 * A resumed `--file` export is byte for byte what a fresh run of the data as it is now
 * writes, or it is not a resume: data inserted, removed or changed before the cut point,
 * a cursor the API refuses (400, 404, 410, 422), a partial too old or not the bytes pep
 * kept all start the list over, saying so in one line even under -q. Flags that do not
 * change the bytes (-v, --retries, --timeout, --no-cache, the order of flags) do not stop
 * a resume, an item the API sends on two pages is written once, and no password reaches
 * the state file. Against a purpose-built loopback API whose data the test changes.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { parseCsv } from "../helpers/formats.js";
import { type MovingApi, startMovingApi } from "../helpers/moving-api.js";

let api: MovingApi;
let dir: string;
const target = () => path.join(dir, "s.csv");
const env = () => ({ PEP_CONFIG_DIR: path.join(dir, "config"), PEP_CACHE_DIR: path.join(dir, "cache") });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pep-resume-"));
});
beforeEach(async () => {
  await api?.close();
  api = await startMovingApi(30);
  for (const f of ["s.csv", "s.csv.partial", "s.csv.partial.json", "fresh.csv"])
    rmSync(path.join(dir, f), { force: true });
});
afterAll(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

const argv = (file = target(), more: string[] = []) => [
  "studies",
  "list",
  "--all",
  "--page-size",
  "10",
  "--retries",
  "0",
  "--base-url",
  api.baseUrl,
  "--file",
  file,
  ...more,
];
const pep = (words: string[], extraEnv: Record<string, string> = {}) =>
  inProcessPep(words, { env: { ...env(), ...extraEnv }, cwd: dir });
const idsIn = (file: string) => parseCsv(readFileSync(file, "utf8")).map((r) => r.id);

/** The first run: cut short at the third page (o20), leaving a partial of 20 studies. */
async function cut(more: string[] = [], extraEnv: Record<string, string> = {}) {
  api.failAt("o20", 503);
  const r = await pep(argv(target(), more), extraEnv);
  expect(r.code, r.err).toBe(6);
  expect(idsIn(`${target()}.partial`)).toHaveLength(20);
  api.heal();
  return r;
}

/** What a fresh run of the data as it is now writes. */
async function fresh(): Promise<string> {
  const r = await pep(argv(path.join(dir, "fresh.csv")));
  expect(r.code, r.err).toBe(0);
  api.heal();
  return readFileSync(path.join(dir, "fresh.csv"), "utf8");
}

describe("data that moved between the cut and the rerun", () => {
  it("5 studies inserted at the front (newest first): starts over, even under -q, and equals a fresh run", async () => {
    await cut();
    api.insertNewest(5);
    const r = await pep(argv(target(), ["-q"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /^starting over from the first page: the last kept page now holds other items \(data was added or removed since the cut\); dropped .*s\.csv\.partial$/m,
    );
    const ids = idsIn(target());
    expect(ids).toEqual(api.studies.map((s) => s.id));
    expect(new Set(ids).size).toBe(35);
    expect(readFileSync(target(), "utf8")).toBe(await fresh());
    expect(existsSync(`${target()}.partial`)).toBe(false);
  });

  it("keyset cursors: studies inserted at the front move no later page, and the first page's check sees them", async () => {
    await api.close();
    api = await startMovingApi(30, { keyset: true });
    api.failAt(`k${api.studies[19]!.id}`, 503);
    const first = await pep(argv());
    expect(first.code, first.err).toBe(6);
    api.heal();
    api.insertNewest(5);
    const r = await pep(argv(target(), ["-q"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/starting over from the first page: the first kept page now holds other items/);
    expect(idsIn(target())).toEqual(api.studies.map((s) => s.id));
    expect(readFileSync(target(), "utf8")).toBe(await fresh());
  });

  it("a study on the last kept page renamed: starts over", async () => {
    await cut();
    api.retitle(15, "A new title");
    const r = await pep(argv());
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/starting over from the first page: the items of the last kept page changed since the cut/);
    expect(parseCsv(readFileSync(target(), "utf8"))[15]!.title).toBe("A new title");
    expect(readFileSync(target(), "utf8")).toBe(await fresh());
  });

  it("studies added after the cut point: the resume goes on, and equals a fresh run", async () => {
    await cut();
    api.appendOldest(3);
    const r = await pep(argv());
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/going on from .*s\.csv\.partial \(20 items kept, \d+s ago\)/);
    // The last and first kept pages again, to check them, then only the pages not kept.
    expect(api.asked()).toEqual(["o10", "", "o20", "o30"]);
    expect(readFileSync(target(), "utf8")).toBe(await fresh());
  });
});

describe("a cursor the API refuses", () => {
  for (const status of [400, 404, 410, 422]) {
    it(`the stored cursor refused with ${status}: starts over from the first page, exit 0`, async () => {
      await cut();
      api.refuse("o20", status);
      const r = await pep(argv(target(), ["-q"]));
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(
        new RegExp(`starting over from the first page: the API refused the stored cursor \\(HTTP ${status}\\)`),
      );
      expect(readFileSync(target(), "utf8")).toBe(await fresh());
    });
  }

  it("the last kept page's cursor refused (410) when checking: starts over", async () => {
    await cut();
    api.refuse("o10", 410);
    const r = await pep(argv());
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/the API refused the cursor of the last kept page \(HTTP 410\)/);
    expect(readFileSync(target(), "utf8")).toBe(await fresh());
  });
});

describe("what decides the bytes, and what does not", () => {
  it("-v, --retries, --timeout, --no-cache and another order of flags still resume", async () => {
    await cut();
    const words = [
      "-v",
      "--file",
      target(),
      "--timeout",
      "20",
      "--no-cache",
      "studies",
      "list",
      "--base-url",
      api.baseUrl,
      "--page-size",
      "10",
      "--retries",
      "2",
      "--all",
    ];
    const r = await pep(words);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/going on from .*s\.csv\.partial \(20 items kept/);
    expect(api.asked()).toEqual(["o10", "", "o20"]);
    expect(readFileSync(target(), "utf8")).toBe(await fresh());
  });

  it("another filter is another export: the partial is dropped, saying so under -q too", async () => {
    await cut();
    const r = await pep(argv(target(), ["--year-from", "2001", "-q"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/starting over: .*s\.csv\.partial was made by another command/);
  });

  it("the proxy's password is never written to the state; a rerun without it goes on", async () => {
    // NO_PROXY keeps the loopback API direct: the proxy is only a word of the command line.
    await cut(["--proxy", "http://user:s3cret-pass@127.0.0.1:9"], { NO_PROXY: "127.0.0.1" });
    const state = readFileSync(`${target()}.partial.json`, "utf8");
    expect(state).not.toContain("s3cret");
    expect(JSON.parse(state)).toMatchObject({ version: 2, items: 20, cursor: "o20" });
    const r = await pep(argv(), { NO_PROXY: "127.0.0.1" });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/going on from/);
  });
});

describe("age and integrity of a partial", () => {
  const age = (ms: number) => {
    const file = `${target()}.partial.json`;
    const state = JSON.parse(readFileSync(file, "utf8")) as { created_at: string };
    state.created_at = new Date(Date.now() - ms).toISOString();
    writeFileSync(file, JSON.stringify(state));
  };

  it("older than 24h by default: starts over; --resume-max-age 3d goes on", async () => {
    await cut();
    age(26 * 3_600_000);
    const r = await pep(argv(target(), ["-q"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /starting over: .*s\.csv\.partial was kept 26h ago, past --resume-max-age \(24h\); dropped it/,
    );
    await cut();
    age(26 * 3_600_000);
    const longer = await pep(argv(target(), ["--resume-max-age", "3d"]));
    expect(longer.code, longer.err).toBe(0);
    expect(longer.err).toMatch(/going on from/);
  });

  it("PEP_RESUME_MAX_AGE=30m: a partial of an hour starts over", async () => {
    await cut();
    age(3_600_000);
    const r = await pep(argv(), { PEP_RESUME_MAX_AGE: "30m" });
    expect(r.err).toMatch(/past --resume-max-age \(30m\)/);
    expect(readFileSync(target(), "utf8")).toBe(await fresh());
  });

  it("a bad --resume-max-age is exit 2 naming the flag, before any request", async () => {
    const r = await pep(argv(target(), ["--resume-max-age", "5x"]));
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/--resume-max-age takes a duration: a whole number with s, m, h or d/);
    expect(api.requests).toHaveLength(0);
  });

  it("kept bytes changed since (a row added by hand): ignored with a warning naming it, the export starts over", async () => {
    await cut();
    appendFileSync(`${target()}.partial`, 'pmid-1,=HYPERLINK("http://x"),2020\r\n');
    const r = await pep(argv(target(), ["-q"]));
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /warning: ignoring .*s\.csv\.partial: its bytes are not the ones pep kept \(size or SHA-256 differ\); starting from the first page/,
    );
    expect(readFileSync(target(), "utf8")).not.toContain("HYPERLINK");
    expect(readFileSync(target(), "utf8")).toBe(await fresh());
  });
});

describe("items the API sends on two pages", () => {
  it("are written once, with a notice counting them, in a --file export and on stdout", async () => {
    api.overlapAt("o10");
    api.overlapAt("o20");
    const r = await pep(argv());
    expect(r.code, r.err).toBe(0);
    expect(idsIn(target())).toEqual(api.studies.map((s) => s.id));
    expect(r.err).toMatch(/skipped 2 duplicate items: their ids came on an earlier page/);
    const out = await pep(["studies", "list", "--all", "--page-size", "10", "-o", "ndjson", "--base-url", api.baseUrl]);
    const ids = out.out
      .trim()
      .split("\n")
      .map((l) => (JSON.parse(l) as { id: string }).id);
    expect(ids).toEqual(api.studies.map((s) => s.id));
  });

  it("a resumed run skips what the partial holds already", async () => {
    await cut();
    api.overlapAt("o20");
    const r = await pep(argv());
    expect(r.code, r.err).toBe(0);
    expect(idsIn(target())).toEqual(api.studies.map((s) => s.id));
    expect(r.err).toMatch(/skipped 1 duplicate item: its id came on an earlier page or in the kept partial/);
  });
});

describe("errors of a --file export as JSON", () => {
  it("PEP_OUTPUT=json makes a csv export's failure one JSON object", async () => {
    api.failAt("o10", 503);
    const r = await pep(argv(), { PEP_OUTPUT: "json" });
    expect(r.code).toBe(6);
    const line = r.err.split("\n").find((l) => l.startsWith("{"));
    expect(JSON.parse(line!)).toMatchObject({ error: { code: "service_unavailable" }, exit_code: 6 });
    expect(r.err).not.toMatch(/^error: /m);
  });

  it("so does the profile's `output: json`", async () => {
    const set = await pep(["config", "set", "output", "json"]);
    expect(set.code, set.err).toBe(0);
    try {
      api.failAt("o10", 503);
      const r = await pep(argv());
      expect(r.code).toBe(6);
      const line = r.err.split("\n").find((l) => l.startsWith("{"));
      expect(JSON.parse(line!)).toMatchObject({ error: { code: "service_unavailable" }, exit_code: 6 });
      // The file's name still decides its format.
      api.heal();
      const ok = await pep(argv());
      expect(ok.code, ok.err).toBe(0);
      expect(idsIn(target())).toHaveLength(30);
    } finally {
      await pep(["config", "unset", "output"]);
    }
  });

  it("a finished export says where it wrote, off a terminal too; not under -q", async () => {
    const r = await pep(argv());
    expect(r.err).toContain(`wrote 30 studies to ${target()}`);
    const q = await pep(argv(target(), ["-q"]));
    expect(q.err).toBe("");
  });
});
