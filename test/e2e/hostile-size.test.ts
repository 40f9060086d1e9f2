/**
 * Hostile sizes, run in-process: 100 KB names, summaries and URLs and an
 * unknown field nested 200 levels (objects and arrays) keep tables and cards within the
 * width and their output bounded, with no crash; JSON, NDJSON and the compact JSON of a
 * CSV cell give the nesting back exactly. Responses of many megabytes (four pages of
 * 100 items with 50 KB fields, and one 20 MB page) stream through `-o ndjson`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorText, scratch, inProcessPep } from "../helpers/cli.js";
import { displayWidth, parseCsv, parseNdjson, parseTsv } from "../helpers/formats.js";
import { expectInert } from "../helpers/hostile-api.js";
import { envelope, sendText, startServer, type RecordedRequest, type TestServer } from "../helpers/server.js";

type Item = Record<string, unknown>;

/** `levels` of nesting, objects and arrays in turn, a hostile string at the bottom. */
function nested(levels: number): unknown {
  let v: unknown = "bottom \x1b]52;c;ZWNobyBwd25lZA==\x07\u202e \u009d0;open OSC end";
  for (let i = 0; i < levels; i++) v = i % 2 === 0 ? { level: levels - i, next: v } : [v, `sibling ${i}`];
  return v;
}

/** The JSON text of `levels` of nesting, written directly: JSON.stringify itself overflows. */
function nestedText(levels: number): string {
  const open = Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? '{"next":' : "[")).join("");
  const close = Array.from({ length: levels }, (_, i) => (i % 2 === 0 ? "}" : "]"))
    .reverse()
    .join("");
  return `${open}"bottom"${close}`;
}

const LONG = "LONG\x1b[31m text\u202e ".repeat(6_000).slice(0, 100_000);
const LONG_URL = `https://ok.test/${"a".repeat(100_000)}`;
const longItem = (i: number): Item => ({
  id: `p${i}`,
  name: `${i}:${LONG}`,
  summary: LONG,
  url: LONG_URL,
  zz_deep: nested(200),
});

const FIELD = 50_000;
const bigItem = (i: number, size = FIELD): Item => ({
  id: `s${i}`,
  title: `Study ${i}`,
  abstract: `${i}\x1b[2J\u009b`.padEnd(size, "abcdefghij"),
});
const PAGES = 4;
const PER_PAGE = 100;
const pagesOfBig = Array.from({ length: PAGES }, (_, p) =>
  Array.from({ length: PER_PAGE }, (_, i) => bigItem(p * PER_PAGE + i)),
);
const hugePage = Array.from({ length: 100 }, (_, i) => bigItem(i, 200_000));

let srv: TestServer;
let bodies: { list: string; item: string; pages: string[]; huge: string; abyss: string; abyssError: string };
const tmp = scratch("pep-hostile-size-");

beforeAll(async () => {
  const page = (data: unknown[], next: string | null) =>
    JSON.stringify(envelope(data, { pagination: { next_cursor: next, has_more: next !== null } }));
  bodies = {
    list: page([0, 1, 2].map(longItem), null),
    item: JSON.stringify(envelope(longItem(0))),
    pages: pagesOfBig.map((items, p) => page(items, p + 1 < PAGES ? `page-${p + 1}` : null)),
    huge: page(hugePage, null),
    abyss: page([{ id: "deep", name: "Deep", zz_deep: "ABYSS" }], null).replace('"ABYSS"', nestedText(5_000)),
    abyssError: `{"error":{"code":"not_found","message":"gone","detail":${nestedText(5_000)}}}`,
  };
  srv = await startServer({
    "/v1/peptides": (req: RecordedRequest, res) => {
      const search = req.query.get("search");
      const body = search === "huge" ? bodies.huge : search === "abyss" ? bodies.abyss : bodies.list;
      sendText(
        res,
        search === "abyss-error" ? 404 : 200,
        search === "abyss-error" ? bodies.abyssError : body,
        "application/json",
      );
    },
    "/v1/studies": (req, res) =>
      sendText(res, 200, bodies.pages[Number((req.query.get("cursor") ?? "page-0").slice(5))]!, "application/json"),
    "*": (_req, res) => sendText(res, 200, bodies.item, "application/json"),
  });
});
afterAll(async () => {
  await srv.close();
  tmp.cleanup();
});

const pep = (argv: readonly string[], columns = 100) =>
  inProcessPep([...argv, "--base-url", `${srv.url}/v1`], {
    env: { ...tmp.env, COLUMNS: String(columns) },
    timeoutMs: 30_000,
  });

const widest = (text: string) => Math.max(...text.split("\n").map(displayWidth));

describe("100 KB strings and nesting 200 deep", () => {
  it("table: exit 0, every row within the width, a few KB of output for 300 KB of text", async () => {
    for (const columns of [60, 100, 200]) {
      const r = await pep(["peptides", "list", "-o", "table"], columns);
      expect(r.code, r.err).toBe(0);
      const out = expectInert(r.out, `table at ${columns}`);
      // The header and three rows, a long name wrapped onto at most two more lines each.
      const lines = out.trimEnd().split("\n");
      expect(lines.filter((l) => !l.startsWith(" "))).toHaveLength(4);
      expect(lines.length).toBeLessThanOrEqual(4 + 3 * 2);
      expect(widest(out)).toBeLessThanOrEqual(columns);
      expect(out.length).toBeLessThan(lines.length * columns * 2);
      expect(out).toMatch(/^p0 +0:LONG text(<U\+202E>)? LONG/m);
    }
  });

  it("card: exit 0, every line within the width (a 100 KB URL cut too), output about the size of the text", async () => {
    for (const columns of [60, 120]) {
      const r = await pep(["peptides", "get", "p0", "-o", "table"], columns);
      expect(r.code, r.err).toBe(0);
      const out = expectInert(r.out, `card at ${columns}`, { leaks: false });
      expect(widest(out)).toBeLessThanOrEqual(columns);
      // name and summary wrapped in full, the URL cut, the nesting summarised
      expect(out.length).toBeLessThan(3 * 2 * LONG.length);
      expect(out).toContain("https://ok.test/aaaa");
      expect(out).toMatch(/Zz deep/);
      expect(out.split("\n").length).toBeLessThan((3 * 2 * LONG.length) / columns);
    }
  });

  it("json and ndjson give the nesting and the long strings back exactly", async () => {
    const json = await pep(["peptides", "get", "p0", "-o", "json"]);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toEqual(longItem(0));
    const nd = await pep(["peptides", "list", "-o", "ndjson"]);
    expect(nd.code, nd.err).toBe(0);
    expect(parseNdjson(nd.out)).toEqual([0, 1, 2].map(longItem));
  });

  it("csv and tsv: one row an item, the nesting as compact JSON that parses back", async () => {
    const csv = await pep(["peptides", "list", "-o", "csv"]);
    expect(csv.code, csv.err).toBe(0);
    const rows = parseCsv(csv.out);
    expect(rows).toHaveLength(3);
    // A field the column map does not know goes as compact JSON into `other`.
    expect(JSON.parse(rows[0]!.other!).zz_deep).toEqual(nested(200));
    expect(rows[1]!.name).toMatch(/^1:LONG text LONG text /);
    const tsv = await pep(["peptides", "list", "-o", "tsv"]);
    expect(tsv.code, tsv.err).toBe(0);
    expect(tsv.out.trimEnd().split("\n")).toHaveLength(4);
    expect(JSON.parse(parseTsv(tsv.out)[2]!.other!).zz_deep).toEqual(nested(200));
  });
});

describe("many megabytes through -o ndjson", () => {
  it(`${PAGES} pages of ${PER_PAGE} items with ${FIELD / 1000} KB fields (about 20 MB): every item, exact, in order`, async () => {
    const before = srv.requests.length;
    const r = await pep(["studies", "list", "--all", "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toBe("");
    expect(r.out.length).toBeGreaterThan(PAGES * PER_PAGE * FIELD);
    const items = parseNdjson(r.out);
    expect(items).toHaveLength(PAGES * PER_PAGE);
    expect(items).toEqual(pagesOfBig.flat());
    expect(srv.requests.length - before).toBe(PAGES);
  });

  it("a single 20 MB page: every item, exact", async () => {
    const r = await pep(["peptides", "list", "--search", "huge", "--limit", "100", "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    expect(bodies.huge.length).toBeGreaterThan(20_000_000);
    const items = parseNdjson(r.out);
    expect(items).toHaveLength(hugePage.length);
    expect(items).toEqual(hugePage);
  });
});

describe("nesting past what any printer can walk", () => {
  it("5,000 levels: refused as not the API's JSON (exit 6, one line), in every format, never a crash", async () => {
    for (const format of ["json", "ndjson", "csv", "table"]) {
      const r = await pep(["peptides", "list", "--search", "abyss", "-o", format, "--retries", "0"]);
      expect(r.code, `${format}: ${r.err}`).toBe(6);
      expect(r.out).toBe(format === "json" ? "" : r.out);
      expect(errorText(r.err)).toMatch(
        /^error: the response was not the API's JSON envelope: nested deeper than 512 levels \(HTTP 200/m,
      );
      expect(r.err).not.toMatch(/bug|stack size|\n\s+at /i);
    }
  });

  it("an error answer nested 5,000 deep is described, not walked", async () => {
    const r = await pep(["peptides", "list", "--search", "abyss-error", "-o", "json"]);
    expect(r.code, r.err).toBe(4);
    expect(r.err).not.toMatch(/bug|stack size|\n\s+at /i);
    expect(r.err.trim().split("\n")).toHaveLength(1);
  });
});
