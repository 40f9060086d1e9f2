/**
 * `pep studies get <id>` end to end: the API's id forms and the ones people paste
 * (PMID, DOI, doi.org links, NCT numbers) reach the same study; every format; bad ids
 * refused before a request; unknown ids exit 4.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchAll, getJson } from "../helpers/direct.js";
import { parseCsv, parseNdjson, parseTsv, readCitations, visible, widestLine } from "../helpers/formats.js";
import { startSandboxCli, type SandboxCli } from "../helpers/sandbox-cli.js";

type Item = Record<string, unknown>;
let cli: SandboxCli;
let byPmid: Item;
let byDoi: Item;
let byNct: Item;

beforeAll(async () => {
  cli = await startSandboxCli({ seed: 5 });
  const all = (await fetchAll(cli.baseUrl, "/studies")) as Item[];
  byPmid = all.find((s) => String(s.id).startsWith("pmid-"))!;
  byDoi = all.find((s) => String(s.id).startsWith("doi-"))!;
  byNct = all.find((s) => String(s.id).startsWith("nct-"))!;
});
afterAll(async () => {
  await cli?.close();
});

async function detail(id: string): Promise<Item> {
  const r = await getJson(cli.baseUrl, `/studies/${encodeURIComponent(id)}`);
  expect(r.status).toBe(200);
  return r.body.data as Item;
}

describe("the sandbox holds every id form", () => {
  it("has a study of each kind", () => {
    expect(byPmid).toBeDefined();
    expect(byDoi).toBeDefined();
    expect(byNct).toBeDefined();
  });
});

describe("pep studies get: id forms", () => {
  it("the API's own id prints the API's study detail", async () => {
    const r = await cli.pep(["studies", "get", String(byPmid.id), "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual(await detail(String(byPmid.id)));
    expect(r.sent).toBe(1);
  });

  it("a bare PMID and PMID:<n> reach the same study", async () => {
    const pmid = String(byPmid.id).slice("pmid-".length);
    for (const form of [pmid, `PMID:${pmid}`, `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`]) {
      const r = await cli.pep(["studies", "get", form, "-o", "json"]);
      expect(r.code, `${form}: ${r.err}`).toBe(0);
      expect((JSON.parse(r.out) as Item).id).toBe(byPmid.id);
    }
  });

  it("a DOI, doi:, doi.org and dx.doi.org links reach the same study", async () => {
    const doi = String(byDoi.id).slice("doi-".length).split("--").join("/");
    for (const form of [
      doi,
      `doi:${doi}`,
      `https://doi.org/${doi}`,
      `http://dx.doi.org/${doi}`,
      `https://doi.org/${encodeURIComponent(doi)}`,
    ]) {
      const r = await cli.pep(["studies", "get", form, "-o", "json"]);
      expect(r.code, `${form}: ${r.err}`).toBe(0);
      expect((JSON.parse(r.out) as Item).id).toBe(byDoi.id);
    }
  });

  it("an NCT number in any case reaches the same study", async () => {
    const nct = String(byNct.id).slice("nct-".length);
    for (const form of [nct, nct.toLowerCase(), `nct-${nct.toLowerCase()}`]) {
      const r = await cli.pep(["studies", "get", form, "-o", "json"]);
      expect(r.code, `${form}: ${r.err}`).toBe(0);
      expect((JSON.parse(r.out) as Item).id).toBe(byNct.id);
    }
  });

  it.each(["foo", "10.1000", "NCT123", "pmid-abc", "doi-", "12 34", "https://example.com/x"])(
    "%j exits 2 naming the accepted forms, nothing sent",
    async (id) => {
      const r = await cli.pep(["studies", "get", id]);
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/is not a study id/);
      expect(r.err).toMatch(/pmid-<number>/);
      expect(r.err).toMatch(/NCT01234567/);
      expect(r.sent).toBe(0);
    },
  );

  it.each(["pmid-1", "10.5555/no-such-study", "NCT00000001"])(
    "an unknown study (%s) exits 4 with the API's message",
    async (id) => {
      const direct = await getJson(cli.baseUrl, "/studies/pmid-1");
      expect(direct.status).toBe(404);
      const r = await cli.pep(["studies", "get", id, "-o", "table"]);
      expect(r.code).toBe(4);
      expect(r.err).toMatch(/HTTP 404, not_found, request req_/);
      if (id === "pmid-1") expect(r.err).toContain(direct.body.error!.message);
      expect(r.out).toBe("");
    },
  );
});

describe("pep studies get: formats", () => {
  it("ndjson is one line, csv and tsv one record", async () => {
    const id = String(byDoi.id);
    const nd = await cli.pep(["studies", "get", id, "-o", "ndjson"]);
    expect(nd.code, nd.err).toBe(0);
    expect(parseNdjson(nd.out)).toEqual([await detail(id)]);
    const csv = parseCsv((await cli.pep(["studies", "get", id, "-o", "csv"])).out);
    expect(csv).toHaveLength(1);
    expect(csv[0]!.id).toBe(id);
    const tsv = parseTsv((await cli.pep(["studies", "get", id, "-o", "tsv"])).out);
    expect(tsv).toHaveLength(1);
    expect(tsv[0]!.id).toBe(id);
  });

  it.each([80, 160])("a card on a %i-column terminal", async (columns) => {
    const r = await cli.pep(["studies", "get", String(byPmid.id)], { tty: true, columns });
    expect(r.code, r.err).toBe(0);
    expect(widestLine(r.out)).toBeLessThanOrEqual(columns);
    const words = String(byPmid.title).split(/\s+/).slice(0, 2).join(" ");
    expect(visible(r.out).replace(/\s+/g, " ")).toContain(words);
  });

  it.each(["bibtex", "ris"] as const)("%s reads back as one entry with the study's title", async (format) => {
    const r = await cli.pep(["studies", "get", String(byDoi.id), "-o", format]);
    expect(r.code, r.err).toBe(0);
    const entries = await readCitations(r.out, format);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.title).toBe(byDoi.title);
    expect(entries[0]!.DOI?.toLowerCase()).toBe(String(byDoi.doi).toLowerCase());
  });

  it("csl-json holds the one study", async () => {
    const r = await cli.pep(["studies", "get", String(byNct.id), "-o", "csl-json"]);
    expect(r.code, r.err).toBe(0);
    const items = JSON.parse(r.out) as Item[];
    expect(items).toHaveLength(1);
    expect(items[0]!.title).toBe(byNct.title);
  });
});
