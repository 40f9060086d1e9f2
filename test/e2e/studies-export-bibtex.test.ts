/**
 * `pep studies export -o bibtex` read back as a bibliography tool would: every sandbox
 * study and every crafted hostile one is one entry by BibTeX's splitting rules, the
 * parser behind Better BibTeX reads it field for field as `-o json` has it, and titles
 * keep the capitals of their peptide names, acronyms and proper names through BibTeX's
 * lower-casing of titles.
 */
import { parse, type Creator } from "@retorquere/bibtex-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratch, inProcessPep } from "../helpers/cli.js";
import { changeCaseT, plainText, readBibEntries, specialCharacters } from "../helpers/bibtex-rules.js";
import { hostileAuthors, hostileStudies } from "../helpers/hostile-citations.js";
import { startSandboxCli, type SandboxCli } from "../helpers/sandbox-cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

type Item = Record<string, unknown>;
let cli: SandboxCli;
let api: TestServer;
const tmp = scratch("pep-bibtex-");

beforeAll(async () => {
  cli = await startSandboxCli({ seed: 17 });
  api = await startServer((req, res) => {
    if (req.path.endsWith("/studies"))
      return sendJson(res, 200, envelope(hostileStudies, { pagination: { has_more: false, next_cursor: null } }));
    sendJson(res, 404, { error: { code: "not_found", message: "no route", request_id: "req_x" } });
  });
});
afterAll(async () => {
  await cli?.close();
  await api?.close();
  tmp.cleanup();
});

/** "Family, Given" as the sandbox writes authors, from a parser's creator. */
function authorText(c: Creator): string {
  if (c.name !== undefined) return c.name;
  const family = [c.prefix, c.lastName].filter(Boolean).join(" ");
  return c.firstName ? `${family}, ${c.firstName}` : family;
}

/** Words that must keep their case anywhere: digits with letters, inner capitals. */
const mustKeep = (title: string) =>
  title
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => (/\p{N}/u.test(w) && /\p{L}/u.test(w)) || /^.+\p{Lu}/u.test(w));

describe("sandbox export as a bibliography", () => {
  it("every study is one entry, read field for field as -o json has it", async () => {
    const [bib, json] = await Promise.all([
      cli.pep(["studies", "export", "-o", "bibtex"]),
      cli.pep(["studies", "export", "-o", "json"]),
    ]);
    expect(bib.code, bib.err).toBe(0);
    const studies = JSON.parse(json.out) as Item[];
    expect(studies.length).toBeGreaterThan(100);

    const split = readBibEntries(bib.out);
    expect(split).toHaveLength(studies.length);
    expect(new Set(split.map((e) => e.key)).size).toBe(studies.length);

    const lib = parse(bib.out, { sentenceCase: false });
    expect(lib.errors).toEqual([]);
    expect(lib.entries).toHaveLength(studies.length);
    lib.entries.forEach((e, i) => {
      const s = studies[i]!;
      const f = e.fields;
      expect(f.title).toBe(s.title);
      expect(f.author?.map(authorText)).toEqual(s.authors);
      expect(f.journal).toBe(s.journal ?? undefined);
      expect(f.year).toBe(String(s.publication_year));
      expect(f.doi).toBe(s.doi ?? undefined);
      expect(f.pmid).toBe(s.pmid ?? undefined);
      expect(f.url).toBe(s.source_url ?? undefined);
      // Sandbox records say they are synthetic, after the trial number when there is one.
      const synthetic = "Synthetic record from the pep sandbox: not real research";
      expect(f.note).toBe(s.nct_id ? `ClinicalTrials.gov: ${String(s.nct_id)}; ${synthetic}` : synthetic);
      expect(e.type).toBe(s.journal ? "article" : "misc");
    });
  });

  it("titles keep their peptide names and acronyms through BibTeX's title lower-casing", async () => {
    const [bib, json] = await Promise.all([
      cli.pep(["studies", "export", "-o", "bibtex"]),
      cli.pep(["studies", "export", "-o", "json"]),
    ]);
    const studies = JSON.parse(json.out) as Item[];
    const titles = readBibEntries(bib.out).map((e) => e.fields.title!);
    let checked = 0;
    titles.forEach((t, i) => {
      expect(specialCharacters(t)).toEqual([]);
      const rendered = plainText(changeCaseT(t));
      for (const word of mustKeep(String(studies[i]!.title))) {
        expect(rendered, `${t}`).toContain(word);
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(studies.length / 2);
  });
});

describe("crafted hostile studies through the real executable", () => {
  it("braces, specials and organisations: every entry survives, field for field", async () => {
    const r = await inProcessPep(["studies", "export", "-o", "bibtex", "--base-url", `${api.url}/v1`], {
      env: tmp.env,
    });
    expect(r.code, r.err).toBe(0);
    const split = readBibEntries(r.out);
    expect(split).toHaveLength(hostileStudies.length);
    const lib = parse(r.out, { sentenceCase: false });
    expect(lib.errors).toEqual([]);
    lib.entries.forEach((e, i) => {
      const s = hostileStudies[i]!;
      expect(e.fields.title).toBe(s.title);
      expect(plainText(split[i]!.fields.title!)).toBe(s.title);
      expect(e.fields.journal).toBe(s.journal);
      const names = e.fields.author!.map((c) =>
        c.name !== undefined
          ? { literal: c.name }
          : {
              family: [c.prefix, c.lastName].filter(Boolean).join(" "),
              ...(c.firstName ? { given: c.firstName } : {}),
            },
      );
      expect(names).toEqual(hostileAuthors[s.id]);
    });
  });
});
