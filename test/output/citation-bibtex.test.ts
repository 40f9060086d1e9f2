/**
 * BibTeX that bibliography styles and reference managers take as it is: case protection
 * that survives sentence-casing, braces that balance whatever the API sent, organisations
 * as one author, all read back by BibTeX's own splitting rules, by the parser behind
 * Better BibTeX (@retorquere/bibtex-parser) and by citation.js, field for field.
 */
import { plugins } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-ris";
import { parse, type Creator } from "@retorquere/bibtex-parser";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { bibtexEntry, protectTitle } from "../../src/output/citation/bibtex.js";
import { isOrganisation, parseAuthors } from "../../src/output/citation/names.js";
import { changeCaseT, plainText, readBibEntries, specialCharacters } from "../helpers/bibtex-rules.js";
import { hostileAuthors, hostileStudies } from "../helpers/hostile-citations.js";
import { list, run } from "./helpers.js";

type Csl = Record<string, unknown> & { author?: Record<string, string>[] };
const readCitationJs = (text: string) =>
  plugins.input.chain(text, { forceType: "@biblatex/text", generateGraph: false }) as Csl[];
const hostile = hostileStudies as unknown as Record<string, unknown>[];

/** A creator of @retorquere/bibtex-parser as the CSL-like name the exports start from. */
function nameOf(c: Creator): { family: string; given?: string } | { literal: string } {
  if (c.name !== undefined) return { literal: c.name };
  const family = [c.prefix, c.lastName].filter(Boolean).join(" ");
  return c.firstName ? { family, given: c.firstName } : { family };
}

describe("case protection", () => {
  const known = (peptides: string[] = [], journal?: string) => ({ peptides, journal });
  const cases: [string, string, ReturnType<typeof known>, string][] = [
    [
      "digits, inner capitals, acronyms",
      "Effects of Lunplexin-19 on mRNA and GLP-1 in RCT data",
      known(),
      "Effects of {Lunplexin-19} on {mRNA} and {GLP-1} in {RCT} data",
    ],
    [
      "a proper name in a sentence-case title",
      "Sleep in Norwegian adults: A cohort with vitamin D",
      known(),
      "Sleep in {Norwegian} adults: A cohort with vitamin {D}",
    ],
    [
      "as many lower-case as capitalised words: still sentence case",
      "Trial in Oslo with rats",
      known(),
      "Trial in {Oslo} with rats",
    ],
    [
      "Title Case: only the strong words",
      "Effects Of Sleep On Placebo-Controlled RCT Cohorts",
      known(),
      "Effects Of Sleep On Placebo-Controlled {RCT} Cohorts",
    ],
    ["all capitals: only words with digits", "EFFECTS OF BPC-157 ON RATS", known(), "EFFECTS OF {BPC-157} ON RATS"],
    [
      "a cited_by name of several words",
      "Thymosin Beta-4 In Wound Repair Models",
      known(["thymosin-beta-4"]),
      "{Thymosin} {Beta-4} In Wound Repair Models",
    ],
    [
      "the journal's words",
      "Outcomes In The Sandbox Cohort Study",
      known([], "Sandbox Cohort Reports"),
      "Outcomes In The {Sandbox} {Cohort} Study",
    ],
    [
      "a lower-case name stays unbraced",
      "effects of semaglutide on appetite",
      known(["semaglutide"]),
      "effects of semaglutide on appetite",
    ],
    [
      "punctuation outside the braces",
      "Trial (BPC-157) and “GLP-1”, again.",
      known(),
      "Trial ({BPC-157}) and “{GLP-1}”, again.",
    ],
  ];
  it.each(cases)("%s", (_name, title, k, expected) => {
    expect(protectTitle(title, k)).toBe(expected);
  });

  it("keeps every capital through BibTeX's change.case$ and the Better BibTeX sentence-caser", () => {
    const title = "Effects Of Lunplexin-19 On GLP-1 Signalling In Mice";
    const field = protectTitle(title, known(["lunplexin-19"]));
    expect(plainText(changeCaseT(field))).toBe("Effects of Lunplexin-19 on GLP-1 signalling in mice");
    const entry = bibtexEntry({
      key: "k",
      title,
      authors: [],
      journal: undefined,
      year: undefined,
      doi: undefined,
      pmid: undefined,
      nct: undefined,
      url: undefined,
      peptides: [],
      notes: [],
    });
    expect(parse(entry).entries[0]!.fields.title).toBe("Effects of Lunplexin-19 on GLP-1 signalling in mice");
  });

  it("a protected group never starts with a backslash (BibTeX's special characters)", () => {
    for (const s of hostile) expect(specialCharacters(protectTitle(String(s.title)))).toEqual([]);
    expect(protectTitle("{\\{Grivvoxide-87\\}}")).toBe(
      "\\textbraceleft{}\\textbackslash{}\\textbraceleft{}{Grivvoxide-87}\\textbackslash{}\\textbraceright{}\\textbraceright{}",
    );
  });
});

describe("braces and specials", () => {
  it("hostile titles, journals and authors: every entry read by BibTeX's rules, text unchanged", async () => {
    const { out } = await run(list("study", hostile), "bibtex");
    const entries = readBibEntries(out);
    expect(entries.map((e) => e.key)).toEqual([
      "smith2020unbalanced",
      "vanderberg2021closing",
      "tomandjerry2022specials",
      "who2023bf",
      "consortium2024articleinjected",
    ]);
    entries.forEach((e, i) => {
      const s = hostile[i]!;
      expect(plainText(e.fields.title!)).toBe(s.title);
      expect(plainText(e.fields.journal!)).toBe(s.journal);
      expect(e.fields.year).toBe(String(s.publication_year));
      expect(specialCharacters(e.fields.title!)).toEqual([]);
    });
  });

  it("any text: the entry balances and the title reads back as it was", () => {
    const chars = [...'{}\\%&#$_^~@"=,aZ1 -:'];
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...chars), { maxLength: 40 }),
        fc.array(fc.constantFrom(...chars), { maxLength: 20 }),
        (t, a) => {
          const title = t.join("");
          const author = a.join("");
          const entry = bibtexEntry({
            key: "k",
            title,
            authors: parseAuthors([author]),
            journal: title,
            year: "2020",
            doi: undefined,
            pmid: undefined,
            nct: undefined,
            url: undefined,
            peptides: [],
            notes: [],
          });
          const [e, ...rest] = readBibEntries(`${entry}@misc{next, title = {Next}}\n`);
          expect(rest.map((r) => r.key)).toEqual(["next"]);
          if (title !== "") expect(plainText(e!.fields.title!)).toBe(title);
        },
      ),
      { numRuns: 300 },
    );
  });
});

describe("organisations", () => {
  const organisations = [
    "World Health Organization",
    "Research and Development Group",
    "WHO Study Group",
    "Centers for Disease Control and Prevention",
    "Johnson & Johnson",
    "Consortium for Peptide Safety",
    "National Institute of Peptide Studies",
  ];
  const people = [
    "Smith J",
    "van der Berg, A.",
    "Jean-Luc Picard",
    "Ludwig van Beethoven",
    "María José Sánchez López",
    "Anna van der Berg",
    "Smith, John",
  ];
  it.each(organisations)("%s is one organisation", (name) => {
    expect(isOrganisation(name)).toBe(true);
    expect(parseAuthors([name])).toEqual([{ literal: name }]);
  });
  it.each(people)("%s is a person", (name) => {
    expect(isOrganisation(name)).toBe(false);
    const [n] = parseAuthors([name]);
    expect(n?.literal).toBeUndefined();
    expect(n?.family).toBeTruthy();
  });

  it("BibTeX braces them whole, CSL-JSON makes them literals, RIS leaves them unsplit", async () => {
    const studies = list("study", hostile);
    const bib = (await run(studies, "bibtex")).out;
    expect(bib).toContain("author = {Smith, J. and {World Health Organization}},");
    const csl = JSON.parse((await run(list("study", hostile), "csl-json")).out) as Csl[];
    expect(csl.map((c) => c.author)).toEqual(Object.values(hostileAuthors));
    const ris = (await run(list("study", hostile), "ris")).out;
    expect(ris).toContain("AU  - World Health Organization\r\n");
    expect(ris).toContain("AU  - Centers for Disease Control and Prevention\r\n");
    expect(ris).toContain("AU  - van der Berg, A.\r\n");
  });
});

describe("an independent reader: @retorquere/bibtex-parser", () => {
  it("reads every hostile entry field for field as the JSON has it", async () => {
    const { out } = await run(list("study", hostile), "bibtex");
    const lib = parse(out, { sentenceCase: false });
    expect(lib.errors).toEqual([]);
    expect(lib.entries).toHaveLength(hostile.length);
    lib.entries.forEach((e, i) => {
      const s = hostile[i]!;
      const f = e.fields;
      expect(f.title).toBe(s.title);
      expect(f.journal).toBe(s.journal);
      expect(f.year).toBe(String(s.publication_year));
      expect(f.author!.map(nameOf)).toEqual(hostileAuthors[String(s.id)]);
      expect(f.pmid).toBe(s.pmid as string | undefined);
      expect(f.note).toBe(s.nct_id ? `ClinicalTrials.gov: ${String(s.nct_id)}` : undefined);
    });
    // DOI and URL are verbatim: braces and spaces percent-encoded, the rest as sent
    expect(lib.entries[0]!.fields.doi).toBe("10.5555/h1%7Bx");
    expect(lib.entries[0]!.fields.url).toBe("https://example.test/a%7Bb%7Dc%20d");
    expect(lib.entries[1]!.fields.doi).toBe("10.5555/h2");
  });

  it("and citation.js agrees on the titles and the organisations", async () => {
    const { out } = await run(list("study", hostile), "bibtex");
    const items = readCitationJs(out);
    expect(items.map((i) => i.title)).toEqual(hostile.map((s) => s.title));
    // citation.js reads a braced name as one family name: still one author, not three
    expect(items[0]!.author).toEqual([{ family: "Smith", given: "J." }, { family: "World Health Organization" }]);
  });

  it("the sentence-cased title keeps the protected words", async () => {
    const { out } = await run(list("study", hostile), "bibtex");
    const titles = parse(out).entries.map((e) => e.fields.title!.replace(/<\/?span[^>]*>/g, ""));
    expect(titles[0]).toBe("Unbalanced { opening brace in Lunplexin-19 results");
    expect(titles[3]).toContain("mRNA and GLP-1 in the Sandbox Cohort of vitamin D users");
  });
});
