/**
 * `pep categories`, `pep research-areas` (alias `areas`) and `pep search` end to end
 * against the sandbox: every format, paging, bounds refused before a request.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORIES } from "../../src/api/enums.js";
import { fetchAll, getJson, ids } from "../helpers/direct.js";
import { parseCsv, parseNdjson, parseTsv, visible, widestLine } from "../helpers/formats.js";
import { startSandboxCli, type SandboxCli } from "../helpers/sandbox-cli.js";

type Item = Record<string, unknown>;
let cli: SandboxCli;

beforeAll(async () => {
  cli = await startSandboxCli({ seed: 11 });
});
afterAll(async () => {
  await cli?.close();
});

const json = (out: string) => JSON.parse(out) as Item[];

describe("pep categories", () => {
  let all: Item[];
  beforeAll(async () => {
    all = (await fetchAll(cli.baseUrl, "/categories")) as Item[];
  });

  it("lists every category of the spec as JSON", async () => {
    const r = await cli.pep(["categories", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(json(r.out)).toEqual(all);
    expect(ids(all).sort()).toEqual([...CATEGORIES].sort());
  });

  it("ndjson, csv and tsv carry every category", async () => {
    expect(ids(parseNdjson((await cli.pep(["categories", "-o", "ndjson"])).out))).toEqual(ids(all));
    expect(parseCsv((await cli.pep(["categories", "-o", "csv"])).out).map((x) => x.id)).toEqual(ids(all));
    expect(parseTsv((await cli.pep(["categories", "-o", "tsv"])).out).map((x) => x.id)).toEqual(ids(all));
  });

  it.each([80, 160])("table on a %i-column terminal", async (columns) => {
    const r = await cli.pep(["categories"], { tty: true, columns });
    expect(r.code, r.err).toBe(0);
    expect(widestLine(r.out)).toBeLessThanOrEqual(columns);
    for (const id of ids(all)) expect(visible(r.out)).toContain(id);
  });

  it("--limit 3 --page-size 2 pages, and --cursor continues", async () => {
    const r = await cli.pep(["categories", "--limit", "3", "--page-size", "2", "-o", "json"]);
    expect(ids(json(r.out))).toEqual(ids(all).slice(0, 3));
    expect(r.sent).toBe(2);
    const page = await getJson(cli.baseUrl, "/categories", { limit: 4 });
    const rest = await cli.pep(["categories", "--cursor", page.body.pagination!.next_cursor!, "-o", "json"]);
    expect(ids(json(rest.out))).toEqual(ids(all).slice(4));
  });

  it("--page-size 0 and 101 exit 2 and send nothing", async () => {
    for (const size of ["0", "101"]) {
      const r = await cli.pep(["categories", "--page-size", size]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/--page-size must be a whole number from 1 to 100/);
      expect(r.sent).toBe(0);
    }
  });
});

describe("pep research-areas (pep areas)", () => {
  let all: Item[];
  beforeAll(async () => {
    all = (await fetchAll(cli.baseUrl, "/research-areas")) as Item[];
  });

  it("lists the first 20 areas, most-studied first, as the API has them", async () => {
    const r = await cli.pep(["research-areas", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(json(r.out)).toEqual(all.slice(0, 20));
  });

  it("`areas` is the same command", async () => {
    const r = await cli.pep(["areas", "--all", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(json(r.out)).toEqual(all);
  });

  it("ndjson, csv and tsv carry the areas", async () => {
    expect(ids(parseNdjson((await cli.pep(["areas", "--all", "-o", "ndjson"])).out))).toEqual(ids(all));
    expect(parseCsv((await cli.pep(["areas", "--all", "-o", "csv"])).out).map((x) => x.id)).toEqual(ids(all));
    expect(parseTsv((await cli.pep(["areas", "--all", "-o", "tsv"])).out).map((x) => x.id)).toEqual(ids(all));
  });

  it.each([80, 160])("table on a %i-column terminal", async (columns) => {
    const r = await cli.pep(["research-areas", "--limit", "8"], { tty: true, columns });
    expect(r.code, r.err).toBe(0);
    expect(widestLine(r.out)).toBeLessThanOrEqual(columns);
    // Each area's id whole; its name too when there is room (it repeats the id, so it gives way first).
    for (const a of all.slice(0, 8)) expect(visible(r.out)).toContain(String(columns >= 120 ? a.name : a.id));
  });

  it("--search filters as the API does", async () => {
    const word = String(all[0]!.name).split(" ")[0]!.toLowerCase();
    const expected = await fetchAll(cli.baseUrl, "/research-areas", { search: word });
    const r = await cli.pep(["areas", "--search", word, "--all", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(expected));
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThan(all.length);
  });

  it("--limit across pages", async () => {
    const r = await cli.pep(["areas", "--limit", "7", "--page-size", "3", "-o", "json"]);
    expect(ids(json(r.out))).toEqual(ids(all).slice(0, 7));
    expect(r.sent).toBe(3);
  });

  it("--search of 80 characters is sent; 81 exits 2 and sends nothing", async () => {
    const ok = await cli.pep(["areas", "--search", "a".repeat(80), "-o", "json"]);
    expect(ok.code, ok.err).toBe(0);
    expect(ok.sent).toBe(1);
    const bad = await cli.pep(["areas", "--search", "a".repeat(81)]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--search must be at most 80 characters/);
    expect(bad.sent).toBe(0);
  });

  it("--page-size 0/101 and --search empty exit 2 and send nothing", async () => {
    for (const argv of [
      ["--page-size", "0"],
      ["--page-size", "101"],
      ["--search", ""],
    ]) {
      const r = await cli.pep(["research-areas", ...argv]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(argv[0]);
      expect(r.sent).toBe(0);
    }
  });

  it("--file writes the list", async () => {
    const file = path.join(cli.dir, "areas.csv");
    const r = await cli.pep(["areas", "--all", "-o", "csv", "--file", file]);
    expect(r.code, r.err).toBe(0);
    expect(parseCsv(readFileSync(file, "utf8")).map((x) => x.id)).toEqual(ids(all));
  });
});

describe("pep search <query...>", () => {
  it("joins the words of the query: `search tissue repair` = `search 'tissue repair'`", async () => {
    const direct = await getJson(cli.baseUrl, "/search", { q: "tissue repair" });
    expect(direct.status).toBe(200);
    const r = await cli.pep(["search", "tissue", "repair", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual(direct.body.data);
    expect(r.sent).toBe(1);
  });

  it("--types and --limit are sent as the API's parameters", async () => {
    const direct = await getJson(cli.baseUrl, "/search", { q: "repair", types: "content", limit: 3 });
    const r = await cli.pep(["search", "repair", "--types", "content", "--limit", "3", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual(direct.body.data);
    const other = await getJson(cli.baseUrl, "/search", { q: "repair" });
    expect(direct.body.data).not.toEqual(other.body.data);
  });

  it("ndjson, csv and tsv print the result", async () => {
    const nd = await cli.pep(["search", "repair", "-o", "ndjson"]);
    expect(nd.code, nd.err).toBe(0);
    expect(parseNdjson(nd.out).length).toBeGreaterThan(0);
    const csv = await cli.pep(["search", "repair", "-o", "csv"]);
    expect(csv.code, csv.err).toBe(0);
    expect(parseCsv(csv.out).length).toBeGreaterThan(0);
    const tsv = await cli.pep(["search", "repair", "-o", "tsv"]);
    expect(tsv.code, tsv.err).toBe(0);
    expect(parseTsv(tsv.out).length).toBeGreaterThan(0);
  });

  it.each([80, 160])("table on a %i-column terminal shows profiles and content", async (columns) => {
    const direct = (await getJson(cli.baseUrl, "/search", { q: "repair" })).body.data as {
      peptides?: Item[];
      content?: Item[];
    };
    const r = await cli.pep(["search", "repair"], { tty: true, columns });
    expect(r.code, r.err).toBe(0);
    expect(widestLine(r.out)).toBeLessThanOrEqual(columns);
    const text = visible(r.out);
    // Each row keeps its handle: a profile's id, a content item's address.
    for (const p of direct.peptides ?? []) expect(text).toContain(String(p.id));
    for (const c of direct.content ?? []) expect(text).toContain(String(c.url));
  });

  const refused: [string, string[], RegExp][] = [
    ["--limit 0", ["repair", "--limit", "0"], /--limit must be a whole number from 1 to 25/],
    ["--limit 26", ["repair", "--limit", "26"], /--limit must be a whole number from 1 to 25/],
    ["--types", ["repair", "--types", "vendors"], /--types must be a comma-separated list of: peptides, content/],
    ["empty query", [""], /<query> must not be empty/],
    ["blank query", ["  "], /<query> must not be empty/],
    ["query of 201 characters", ["q".repeat(201)], /<query> must be at most 200 characters/],
    ["words of 201 characters in all", ["q".repeat(100), "q".repeat(100)], /<query> must be at most 200 characters/],
    ["--all (not a list)", ["repair", "--all"], /unknown option/],
  ];
  it.each(refused)("%s exits 2 naming it, nothing sent", async (_name, argv, message) => {
    const r = await cli.pep(["search", ...argv]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.sent).toBe(0);
  });

  it("no query at all exits 2", async () => {
    const r = await cli.pep(["search"]);
    expect(r.code).toBe(2);
    expect(r.sent).toBe(0);
  });

  const accepted: [string, string[]][] = [
    ["--limit 1", ["repair", "--limit", "1"]],
    ["--limit 25", ["repair", "--limit", "25"]],
    ["a query of 200 characters", ["q".repeat(200)]],
    ["a one-character query", ["q"]],
    ["--types peptides,content", ["repair", "--types", "peptides,content"]],
  ];
  it.each(accepted)("the bound itself is accepted: %s", async (_name, argv) => {
    const r = await cli.pep(["search", ...argv, "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.sent).toBe(1);
  });

  it("--limit 1 gives at most one hit of each kind", async () => {
    const r = await cli.pep(["search", "repair", "--limit", "1", "-o", "json"]);
    const data = JSON.parse(r.out) as { peptides?: unknown[]; content?: unknown[] };
    expect((data.peptides ?? []).length + (data.content ?? []).length).toBeLessThanOrEqual(2);
  });
});
