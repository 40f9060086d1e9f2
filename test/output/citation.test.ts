import { plugins } from "@citation-js/core";
import "@citation-js/plugin-bibtex";
import "@citation-js/plugin-ris";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/core/errors.js";
import { parseAuthors } from "../../src/output/citation/names.js";
import { asciiFold, KeyMaker, studyRecord } from "../../src/output/citation/record.js";
import { item, list, run } from "./helpers.js";
import { studies } from "./fixtures.js";

type Csl = Record<string, unknown> & { author?: { family?: string; given?: string; literal?: string }[] };
const readBibtex = (text: string) =>
  plugins.input.chain(text, { forceType: "@biblatex/text", generateGraph: false }) as Csl[];
const readRis = (text: string) => plugins.input.chain(text, { forceType: "@ris/file", generateGraph: false }) as Csl[];

describe("bibtex", () => {
  it("is read back by a real BibTeX parser with authors, title, journal, year, DOI, PMID, URL and NCT", async () => {
    const { out } = await run(list("study", studies), "bibtex");
    const entries = readBibtex(out);
    expect(entries).toHaveLength(3);
    const [a, b, c] = entries as [Csl, Csl, Csl];
    expect(a.title).toBe(studies[0]!.title);
    expect(a.author?.slice(0, 3)).toEqual([
      { family: "Müller", given: "Jürgen" },
      { family: "Ødegård", given: "K." },
      { family: "Sánchez-López", given: "María José" },
    ]);
    // BibTeX reads "van der" as the particle of the family name.
    expect(a.author?.[3]).toMatchObject({ family: "Berg", given: "Anna", "non-dropping-particle": "van der" });
    expect(a["container-title"]).toBe("Journal of Peptide Research & Practice");
    expect(a.issued).toEqual({ "date-parts": [[2021]] });
    expect(a.DOI).toBe("10.5555/jpr.2021.001");
    expect(a.PMID).toBe("90000001");
    expect(a.URL).toBe("https://pubmed.example.test/90000001");
    expect(a.type).toBe("article-journal");
    expect(b.author).toEqual([
      { family: "Żółć", given: "Łucja" },
      { family: "Nguyễn", given: "Văn An" },
    ]);
    expect(b.note).toBe("ClinicalTrials.gov: NCT99000001");
    expect(c.DOI).toBe("10.5555/dup");
    expect(c.author).toEqual([
      { family: "Müller", given: "J." },
      { family: "Smith", given: "A. B." },
    ]);
  });

  it("gives stable, unique citation keys", async () => {
    const { out } = await run(list("study", studies), "bibtex");
    const keys = readBibtex(out).map((e) => e.id);
    expect(keys).toEqual(["muller2021effects", "zolc2023glp", "muller2021effectsa"]);
    expect((await run(list("study", studies), "bibtex")).out).toBe(out);
  });

  it("escapes LaTeX specials and protects capitalised words", async () => {
    const { out } = await run(item("study-detail", studies[0]), "bibtex");
    expect(out).toContain(
      "title = {Effects of {BPC-157} on tendon healing: 50\\% faster \\& \\textbraceleft{}braced\\textbraceright{} \\#1 in rats\\_model \\textasciitilde{} \\textasciicircum{} \\$ \\textbackslash{} test}",
    );
    expect(out.startsWith("@article{muller2021effects,\n")).toBe(true);
  });

  it("writes @misc for a study without a journal", async () => {
    const { out } = await run(
      item("study", { title: "A registry entry", nct_id: "NCT99000003", publication_year: 2024 }),
      "bibtex",
    );
    expect(out.startsWith("@misc{anon2024registry,")).toBe(true);
    expect(readBibtex(out)[0]!.note).toBe("ClinicalTrials.gov: NCT99000003");
  });
});

describe("ris", () => {
  it("is read back by a real RIS parser with every field", async () => {
    const { out } = await run(list("study", studies), "ris");
    expect(out).toContain("\r\nER  - \r\n");
    const records = readRis(out);
    expect(records).toHaveLength(3);
    const [a, b] = records as [Csl, Csl];
    expect(a.id).toBe("muller2021effects");
    expect(a.title).toBe(studies[0]!.title);
    expect(a.author?.[0]).toEqual({ family: "Müller", given: "Jürgen" });
    expect(a["container-title"]).toBe("Journal of Peptide Research & Practice");
    expect(a.issued).toEqual({ "date-parts": [[2021]] });
    expect(a.DOI).toBe("10.5555/jpr.2021.001");
    expect(a.URL).toBe("https://pubmed.example.test/90000001");
    expect(a.note).toContain("PMID: 90000001");
    expect(a.type).toBe("article-journal");
    expect(b.note).toContain("ClinicalTrials.gov: NCT99000001");
    expect(records.map((r) => r.id)).toEqual(["muller2021effects", "zolc2023glp", "muller2021effectsa"]);
  });
});

describe("csl-json", () => {
  it("is one JSON array of CSL items", async () => {
    const { out } = await run(list("study", studies), "csl-json");
    const items = JSON.parse(out) as Csl[];
    expect(items).toHaveLength(3);
    for (const it of items) {
      expect(typeof it.id).toBe("string");
      expect(["article-journal", "article"]).toContain(it.type);
      expect(typeof it.title).toBe("string");
      expect(Array.isArray(it.author)).toBe(true);
      for (const a of it.author!) expect(typeof (a.family ?? a.literal)).toBe("string");
      expect((it.issued as { "date-parts": number[][] })["date-parts"][0]![0]).toBeTypeOf("number");
    }
    expect(items[0]).toMatchObject({
      DOI: "10.5555/jpr.2021.001",
      PMID: "90000001",
      URL: "https://pubmed.example.test/90000001",
      "container-title": "Journal of Peptide Research & Practice",
    });
    expect(items[1]!.note).toBe("ClinicalTrials.gov: NCT99000001");
    expect(new Set(items.map((i) => i.id)).size).toBe(3);
  });

  it("prints an empty study list as []", async () => {
    expect((await run(list("study", []), "csl-json")).out).toBe("[]\n");
  });
});

describe("citation formats are for studies only", () => {
  it("throws a UsageError for other resources and raw results", async () => {
    await expect(run(list("peptide", []), "bibtex")).rejects.toBeInstanceOf(UsageError);
    await expect(run(item("vendor-detail", {}), "ris")).rejects.toBeInstanceOf(UsageError);
    await expect(run({ kind: "raw", body: {} }, "csl-json")).rejects.toBeInstanceOf(UsageError);
  });
});

describe("author names", () => {
  it("accepts the common forms", () => {
    expect(parseAuthors(["Smith, John"])).toEqual([{ family: "Smith", given: "John" }]);
    expect(parseAuthors(["Smith JA"])).toEqual([{ family: "Smith", given: "J. A." }]);
    expect(parseAuthors(["Ludwig van Beethoven"])).toEqual([{ family: "van Beethoven", given: "Ludwig" }]);
    expect(parseAuthors("Smith J, Doe AB, et al.")).toEqual([
      { family: "Smith", given: "J." },
      { family: "Doe", given: "A. B." },
    ]);
    expect(parseAuthors("Smith, John; Doe, Anna")).toEqual([
      { family: "Smith", given: "John" },
      { family: "Doe", given: "Anna" },
    ]);
    expect(parseAuthors("John Smith, Anna Doe")).toEqual([
      { family: "Smith", given: "John" },
      { family: "Doe", given: "Anna" },
    ]);
    expect(
      parseAuthors([{ last_name: "Ng", first_name: "Wei" }, { name: "WHO Consortium" }, { literal: "Group X" }]),
    ).toEqual([{ family: "Ng", given: "Wei" }, { literal: "WHO Consortium" }, { literal: "Group X" }]);
    expect(parseAuthors(["Consortium"])).toEqual([{ literal: "Consortium" }]);
    expect(parseAuthors(null)).toEqual([]);
    expect(parseAuthors(["Evil\x1b]52;c;AAAA\x07 Name"])).toEqual([{ family: "Name", given: "Evil" }]);
  });

  it("folds keys to ASCII and suffixes repeats deterministically", () => {
    expect(asciiFold("Żółć-Ødegård ß")).toBe("zolcodegardss");
    const keys = new KeyMaker();
    const rec = studyRecord({ title: "The effects", authors: ["Ng W"], publication_year: 2020 });
    expect([keys.make(rec), keys.make(rec), keys.make(rec)]).toEqual([
      "ng2020effects",
      "ng2020effectsa",
      "ng2020effectsb",
    ]);
    expect(new KeyMaker().make(studyRecord({}))).toBe("anonnd");
  });
});
