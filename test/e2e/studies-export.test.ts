/**
 * `pep studies export` end to end: every page by default, CSV unless asked otherwise,
 * citation files for reference managers, `--limit` instead of all, bounds refused.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchAll, getJson, ids } from "../helpers/direct.js";
import { parseCsv, parseNdjson, parseTsv, readCitations, widestLine } from "../helpers/formats.js";
import { startSandboxCli, type SandboxCli } from "../helpers/sandbox-cli.js";

type Item = Record<string, unknown>;
let cli: SandboxCli;
let all: Item[];
let peptide: string;
let cited: Item[];

beforeAll(async () => {
  cli = await startSandboxCli({ seed: 9 });
  all = (await fetchAll(cli.baseUrl, "/studies")) as Item[];
  peptide = String(((await getJson(cli.baseUrl, "/peptides", { limit: 1 })).body.data as Item[])[0]!.id);
  cited = (await fetchAll(cli.baseUrl, "/studies", { peptide })) as Item[];
});
afterAll(async () => {
  await cli?.close();
});

describe("pep studies export", () => {
  it("writes every study as CSV by default, 100 a request", async () => {
    expect(all.length).toBeGreaterThan(100);
    const r = await cli.pep(["studies", "export"]);
    expect(r.code, r.err).toBe(0);
    const rows = parseCsv(r.out);
    expect(rows.map((x) => x.id)).toEqual(ids(all));
    expect(r.sent).toBe(Math.ceil(all.length / 100));
  });

  it("CSV is the default on a terminal too", async () => {
    const r = await cli.pep(["studies", "export", "--limit", "3"], { tty: true, columns: 80 });
    expect(r.code, r.err).toBe(0);
    expect(parseCsv(r.out).map((x) => x.id)).toEqual(ids(all).slice(0, 3));
  });

  it("PEP_OUTPUT and -o choose another format", async () => {
    const env = await cli.pep(["studies", "export", "--limit", "3"], { env: { PEP_OUTPUT: "ndjson" } });
    expect(ids(parseNdjson(env.out))).toEqual(ids(all).slice(0, 3));
    const flag = await cli.pep(["studies", "export", "--limit", "3", "-o", "json"], { env: { PEP_OUTPUT: "ndjson" } });
    expect(ids(JSON.parse(flag.out) as Item[])).toEqual(ids(all).slice(0, 3));
  });

  it("for a CI job: --peptide <x> -o bibtex --file refs.bib", async () => {
    const file = path.join(cli.dir, "refs.bib");
    const r = await cli.pep(["studies", "export", "--peptide", peptide, "-o", "bibtex", "--file", file]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("");
    const entries = await readCitations(readFileSync(file, "utf8"), "bibtex");
    expect(cited.length).toBeGreaterThan(0);
    expect(entries.map((e) => e.title)).toEqual(cited.map((s) => s.title));
  });

  it("ris and csl-json hold every matching study", async () => {
    const ris = await cli.pep(["studies", "export", "--peptide", peptide, "-o", "ris"]);
    expect(ris.code, ris.err).toBe(0);
    expect((await readCitations(ris.out, "ris")).map((e) => e.title)).toEqual(cited.map((s) => s.title));
    const csl = await cli.pep(["studies", "export", "--peptide", peptide, "-o", "csl-json"]);
    expect(csl.code, csl.err).toBe(0);
    expect((JSON.parse(csl.out) as Item[]).map((i) => i.title)).toEqual(cited.map((s) => s.title));
  });

  it("json, ndjson and tsv hold every study", async () => {
    const j = await cli.pep(["studies", "export", "-o", "json"]);
    expect(ids(JSON.parse(j.out) as Item[])).toEqual(ids(all));
    const nd = await cli.pep(["studies", "export", "-o", "ndjson"]);
    expect(ids(parseNdjson(nd.out))).toEqual(ids(all));
    const tsv = await cli.pep(["studies", "export", "-o", "tsv"]);
    expect(parseTsv(tsv.out).map((x) => x.id)).toEqual(ids(all));
  });

  it.each([80, 160])("-o table fits a %i-column terminal", async (columns) => {
    const r = await cli.pep(["studies", "export", "--limit", "10", "-o", "table"], { tty: true, columns });
    expect(r.code, r.err).toBe(0);
    expect(widestLine(r.out)).toBeLessThanOrEqual(columns);
  });

  it("--limit exports that many instead of all", async () => {
    const r = await cli.pep(["studies", "export", "--limit", "150"]);
    expect(r.code, r.err).toBe(0);
    expect(parseCsv(r.out).map((x) => x.id)).toEqual(ids(all).slice(0, 150));
    expect(r.sent).toBe(2);
  });

  it("filters and --fields as for studies list", async () => {
    const expected = await fetchAll(cli.baseUrl, "/studies", { year_from: 2012, sort: "oldest" });
    const r = await cli.pep([
      "studies",
      "export",
      "--year-from",
      "2012",
      "--sort",
      "oldest",
      "--fields",
      "id,title,publication_year",
    ]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split("\r\n")[0]).toBe("id,title,publication_year");
    expect(parseCsv(r.out).map((x) => x.id)).toEqual(ids(expected));
  });

  it("--cursor continues an export", async () => {
    const page = await getJson(cli.baseUrl, "/studies", { limit: 100 });
    const r = await cli.pep(["studies", "export", "--cursor", page.body.pagination!.next_cursor!, "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(parseNdjson(r.out))).toEqual(ids(all).slice(100));
  });

  const refused: [string, string[], RegExp][] = [
    ["--year-from 1899", ["--year-from", "1899"], /--year-from must be a whole number from 1900 to 2100/],
    ["--year-to 2101", ["--year-to", "2101"], /--year-to must be a whole number from 1900 to 2100/],
    ["--year-from after --year-to", ["--year-from", "2001", "--year-to", "2000"], /--year-from must not be later than/],
    ["--sort", ["--sort", "best"], /--sort must be one of: newest, oldest, title/],
    ["--page-size 101", ["--page-size", "101"], /--page-size must be a whole number from 1 to 100/],
    ["--limit 0", ["--limit", "0"], /--limit must be a whole number/],
    ["--all with --limit", ["--all", "--limit", "3"], /--all and --limit/],
    ["--search of 201 characters", ["--search", "t".repeat(201)], /--search must be at most 200 characters/],
  ];
  it.each(refused)("%s exits 2 naming the flag, nothing sent, no file", async (_name, argv, message) => {
    const file = path.join(cli.dir, `refused-${argv[0]}.csv`);
    const r = await cli.pep(["studies", "export", ...argv, "--file", file]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.sent).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});
