/**
 * `pep studies list` end to end against the sandbox: every format including the citation
 * formats, paging, `--all`, `--cursor`, `--fields`, `--file`, filters, bounds.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchAll, getJson, ids } from "../helpers/direct.js";
import { parseCsv, parseNdjson, parseTsv, readCitations, visible, widestLine } from "../helpers/formats.js";
import { startSandboxCli, type SandboxCli } from "../helpers/sandbox-cli.js";

type Item = Record<string, unknown>;
let cli: SandboxCli;
let all: Item[];

beforeAll(async () => {
  cli = await startSandboxCli({ seed: 3 });
  all = (await fetchAll(cli.baseUrl, "/studies")) as Item[];
});
afterAll(async () => {
  await cli?.close();
});

const json = (out: string) => JSON.parse(out) as Item[];

describe("pep studies list: formats", () => {
  it("has more than two pages of studies", () => {
    expect(all.length).toBeGreaterThan(200);
  });

  it("json: the first 20 studies, newest first, as the API has them", async () => {
    const r = await cli.pep(["studies", "list", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(json(r.out)).toEqual(all.slice(0, 20));
    expect(r.sent).toBe(1);
  });

  it("plain `pep studies` is the list", async () => {
    const r = await cli.pep(["studies", "--limit", "4", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(all).slice(0, 4));
  });

  it("ndjson, csv and tsv carry the same studies", async () => {
    expect(ids(parseNdjson((await cli.pep(["studies", "list", "-o", "ndjson"])).out))).toEqual(ids(all).slice(0, 20));
    const csv = parseCsv((await cli.pep(["studies", "list", "-o", "csv"])).out);
    expect(csv.map((x) => x.id)).toEqual(ids(all).slice(0, 20));
    expect(csv.map((x) => x.title)).toEqual(all.slice(0, 20).map((s) => s.title));
    const tsv = parseTsv((await cli.pep(["studies", "list", "-o", "tsv"])).out);
    expect(tsv.map((x) => x.id)).toEqual(ids(all).slice(0, 20));
    expect(tsv.map((x) => x.title)).toEqual(all.slice(0, 20).map((s) => s.title));
  });

  it.each([80, 160])("table on a %i-column terminal", async (columns) => {
    const r = await cli.pep(["studies", "list"], { tty: true, columns });
    expect(r.code, r.err).toBe(0);
    expect(widestLine(r.out)).toBeLessThanOrEqual(columns);
    expect(visible(r.out).split("\n").length).toBeGreaterThan(20);
    if (columns === 160) for (const s of all.slice(0, 20)) expect(visible(r.out)).toContain(String(s.publication_year));
  });

  it.each(["bibtex", "ris"] as const)("%s reads back: one entry per study, titles and DOIs kept", async (format) => {
    const r = await cli.pep(["studies", "list", "-o", format]);
    expect(r.code, r.err).toBe(0);
    const entries = await readCitations(r.out, format);
    expect(entries).toHaveLength(20);
    expect(entries.map((e) => e.title)).toEqual(all.slice(0, 20).map((s) => s.title));
    const withDoi = all.slice(0, 20).filter((s) => typeof s.doi === "string");
    expect(withDoi.length).toBeGreaterThan(0);
    for (const s of withDoi) expect(entries.map((e) => e.DOI?.toLowerCase())).toContain(String(s.doi).toLowerCase());
  });

  it("csl-json: CSL items with titles and years", async () => {
    const r = await cli.pep(["studies", "list", "-o", "csl-json"]);
    expect(r.code, r.err).toBe(0);
    const items = JSON.parse(r.out) as { title: string; issued?: { "date-parts": number[][] } }[];
    expect(items.map((i) => i.title)).toEqual(all.slice(0, 20).map((s) => s.title));
    expect(items.map((i) => i.issued?.["date-parts"][0]?.[0])).toEqual(all.slice(0, 20).map((s) => s.publication_year));
  });
});

describe("pep studies list: paging", () => {
  it("--limit 150 takes two pages", async () => {
    const r = await cli.pep(["studies", "list", "--limit", "150", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(all).slice(0, 150));
    expect(r.sent).toBe(2);
  });

  it("--all collects exactly what the API holds", async () => {
    const r = await cli.pep(["studies", "list", "--all", "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(parseNdjson(r.out))).toEqual(ids(all));
    expect(r.sent).toBe(Math.ceil(all.length / 100));
  });

  it("--cursor resumes from the API's next_cursor", async () => {
    const page = await getJson(cli.baseUrl, "/studies", { limit: 30 });
    const r = await cli.pep([
      "studies",
      "list",
      "--cursor",
      page.body.pagination!.next_cursor!,
      "--limit",
      "30",
      "-o",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(all).slice(30, 60));
  });

  it("--cursor resumes from the hint told on a terminal", async () => {
    const first = await cli.pep(["studies", "list", "--limit", "3"], { tty: true, columns: 120 });
    // On a terminal the line is folded to the width: read it unfolded.
    const told = visible(first.err)
      .trimEnd()
      .replace(/\n(?!note: |to continue: )/g, " ");
    const cursor = /^to continue: pep .* '?--cursor=([^'\s]+)'?$/m.exec(told)?.[1];
    expect(cursor).toBeDefined();
    const r = await cli.pep(["studies", "list", "--cursor", cursor!, "--limit", "3", "-o", "json"]);
    expect(ids(json(r.out))).toEqual(ids(all).slice(3, 6));
  });

  it("--fields is sent and used as the columns", async () => {
    const r = await cli.pep(["studies", "list", "--fields", "id,title,publication_year", "-o", "json", "--limit", "5"]);
    expect(r.code, r.err).toBe(0);
    for (const s of json(r.out)) expect(Object.keys(s).sort()).toEqual(["id", "publication_year", "title"]);
    const csv = await cli.pep(["studies", "list", "--fields", "title,publication_year", "-o", "csv", "--limit", "5"]);
    expect(csv.out.split("\r\n")[0]).toBe("title,publication_year");
    expect(parseCsv(csv.out).map((x) => x.title)).toEqual(all.slice(0, 5).map((s) => s.title));
  });

  it("--file writes BibTeX to the file", async () => {
    const file = path.join(cli.dir, "refs.bib");
    const r = await cli.pep(["studies", "list", "--limit", "8", "-o", "bibtex", "--file", file]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("");
    expect(await readCitations(readFileSync(file, "utf8"), "bibtex")).toHaveLength(8);
  });
});

describe("pep studies list: filters reach the API as its parameters", () => {
  const cases: [string, string[], Record<string, string>][] = [
    [
      "--evidence-classification",
      ["--evidence-classification", "human_controlled_trial,in_vitro"],
      { evidence_classification: "human_controlled_trial,in_vitro" },
    ],
    ["--year-from", ["--year-from", "2015"], { year_from: "2015" }],
    ["--year-to", ["--year-to", "2005"], { year_to: "2005" }],
    ["--year-from --year-to", ["--year-from", "2010", "--year-to", "2012"], { year_from: "2010", year_to: "2012" }],
    ["--sort oldest", ["--sort", "oldest"], { sort: "oldest" }],
    ["--sort title", ["--sort", "title"], { sort: "title" }],
  ];
  it.each(cases)("%s", async (_name, argv, query) => {
    const expected = await fetchAll(cli.baseUrl, "/studies", query);
    const r = await cli.pep(["studies", "list", ...argv, "--all", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(json(r.out))).toEqual(ids(expected));
    expect(expected.length).toBeGreaterThan(0);
  });

  it("--year-from and --year-to bound the publication years", async () => {
    const r = await cli.pep(["studies", "list", "--year-from", "2010", "--year-to", "2012", "--all", "-o", "json"]);
    for (const s of json(r.out)) {
      expect(s.publication_year as number).toBeGreaterThanOrEqual(2010);
      expect(s.publication_year as number).toBeLessThanOrEqual(2012);
    }
  });

  it("--peptide and --search", async () => {
    const peptide = String(((await getJson(cli.baseUrl, "/peptides", { limit: 1 })).body.data as Item[])[0]!.id);
    const byPeptide = await fetchAll(cli.baseUrl, "/studies", { peptide });
    const r = await cli.pep(["studies", "list", "--peptide", peptide, "--all", "-o", "json"]);
    expect(ids(json(r.out))).toEqual(ids(byPeptide));
    expect(byPeptide.length).toBeGreaterThan(0);

    const word = String(all[0]!.title)
      .split(/\s+/)
      .find((w) => w.length > 4)!;
    const bySearch = await fetchAll(cli.baseUrl, "/studies", { search: word });
    const s = await cli.pep(["studies", "list", "--search", word, "--all", "-o", "json"]);
    expect(ids(json(s.out))).toEqual(ids(bySearch));
    expect(bySearch.length).toBeGreaterThan(0);
  });
});

describe("pep studies list: bad values exit 2 naming the flag, nothing sent", () => {
  const refused: [string, string[], RegExp][] = [
    ["--year-from 1899", ["--year-from", "1899"], /--year-from must be a whole number from 1900 to 2100/],
    ["--year-from 2101", ["--year-from", "2101"], /--year-from must be a whole number from 1900 to 2100/],
    ["--year-to 1899", ["--year-to", "1899"], /--year-to must be a whole number from 1900 to 2100/],
    ["--year-to 2101", ["--year-to", "2101"], /--year-to must be a whole number from 1900 to 2100/],
    ["--year-from 2000.5", ["--year-from", "2000.5"], /--year-from must be a whole number/],
    [
      "--year-from later than --year-to",
      ["--year-from", "2020", "--year-to", "2019"],
      /--year-from must not be later than/,
    ],
    ["--sort", ["--sort", "relevance"], /--sort must be one of: newest, oldest, title/],
    [
      "--evidence-classification",
      ["--evidence-classification", "a b"],
      /--evidence-classification must be a comma-separated list/,
    ],
    ["--search of 201 characters", ["--search", "t".repeat(201)], /--search must be at most 200 characters/],
    ["--peptide empty", ["--peptide", ""], /--peptide must not be empty/],
    ["--page-size 0", ["--page-size", "0"], /--page-size must be a whole number from 1 to 100/],
    ["--page-size 101", ["--page-size", "101"], /--page-size must be a whole number from 1 to 100/],
    ["--limit 0", ["--limit", "0"], /--limit must be a whole number/],
    ["--fields", ["--fields", "id,name"], /--fields must be a comma-separated list of: id, title/],
  ];
  it.each(refused)("%s", async (_name, argv, message) => {
    const r = await cli.pep(["studies", "list", ...argv]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(r.sent).toBe(0);
    expect(r.out).toBe("");
  });

  const accepted: [string, string[]][] = [
    ["--year-from 1900", ["--year-from", "1900"]],
    ["--year-to 2100", ["--year-to", "2100"]],
    ["--year-from 2100 --year-to 2100", ["--year-from", "2100", "--year-to", "2100"]],
    ["--year-from 1900 --year-to 2100", ["--year-from", "1900", "--year-to", "2100"]],
    ["--search of 200 characters", ["--search", "t".repeat(200)]],
    ["--page-size 1", ["--page-size", "1", "--limit", "1"]],
    ["--page-size 100", ["--page-size", "100", "--limit", "1"]],
  ];
  it.each(accepted)("the bound itself is accepted: %s", async (_name, argv) => {
    const r = await cli.pep(["studies", "list", ...argv, "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.sent).toBeGreaterThan(0);
  });
});
