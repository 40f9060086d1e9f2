import { parse } from "csv-parse/sync";
import { RESOURCES as DESCRIPTORS } from "../../src/api/resources.js";
import { describe, expect, it } from "vitest";
import { neutraliseFormula } from "../../src/output/rows.js";
import { item, list, run } from "./helpers.js";
import { MONEY, offers, peptides, studies, vendors } from "./fixtures.js";

const parseCsv = (text: string): Record<string, string>[] =>
  parse(text, { columns: true, bom: false, relax_column_count: false });

describe("csv", () => {
  it("writes RFC 4180 with a header of flattened keys that csv-parse reads back", async () => {
    const { out } = await run(list("peptide", peptides), "csv");
    expect(out.endsWith("\r\n")).toBe(true);
    const rows = parseCsv(out);
    expect(Object.keys(rows[0]!)).toContain("evidence.level");
    expect(rows[0]!["evidence.level"]).toBe("preclinical");
    expect(rows[1]!["evidence.level"]).toBe("fda-approved");
    // not_documented as words, null as empty, scalar lists joined with "; ".
    expect(rows[0]!.classification).toBe("not documented");
    expect(rows[1]!.classification).toBe("");
    expect(rows[0]!.also_known_as).toBe("Body Protection Compound 157; PL 14736");
    expect(rows[1]!.research_topics).toBe("");
  });

  it("flattens vendor ratings and writes lists of objects as compact JSON", async () => {
    const rows = parseCsv((await run(list("vendor", vendors), "csv")).out);
    expect(rows[0]!["rating.average"]).toBe("4.6");
    expect(rows[1]!["rating.average"]).toBe("");
    // A nested key the column map does not name goes, as JSON, into the `other` column.
    expect(rows[0]!["shipping.domestic.source"]).toBeUndefined();
    expect(JSON.parse(rows[0]!.other!).shipping.domestic.source).toBe("vendor FAQ");
    const studyRows = parseCsv((await run(list("study", studies), "csv")).out);
    expect(JSON.parse(studyRows[0]!.cited_by!)).toEqual([{ id: "bpc-157", name: "BPC-157" }]);
    expect(studyRows[0]!.authors).toBe("Müller, Jürgen; Ødegård K; Sánchez-López, María José; van der Berg, Anna");
    expect(studyRows[0]!.title).toBe(studies[0]!.title);
  });

  it("keeps money strings byte for byte", async () => {
    const { out } = await run(list("offer", offers), "csv");
    const rows = parseCsv(out);
    expect(rows.map((r) => r.price)).toEqual([...MONEY]);
    for (const m of MONEY) expect(out).toContain(`,${m},`);
  });

  it("neutralises formulas but keeps plain numbers", async () => {
    const hostile = [
      { id: "1", v: "=1+2" },
      { id: "2", v: "+cmd|' /C calc'!A0" },
      { id: "3", v: "-12.5" },
      { id: "4", v: "@SUM(A1)" },
      { id: "5", v: "\tTAB" },
      { id: "6", v: "\r=x" },
      { id: "7", v: "-x" },
      { id: "8", v: "+12" },
      { id: "9", v: "1e-5" },
      { id: "10", v: -3 },
    ];
    const rows = parseCsv((await run(list("generic", hostile), "csv")).out);
    expect(rows.map((r) => r.v)).toEqual([
      "'=1+2",
      "'+cmd|' /C calc'!A0",
      "-12.5",
      "'@SUM(A1)",
      "'\tTAB",
      "'\n=x",
      "'-x",
      "+12",
      "1e-5",
      "-3",
    ]);
    expect(parseCsv((await run(list("peptide", peptides), "csv")).out)[1]!.summary).toBe(
      `'=HYPERLINK("http://evil.test","click")`,
    );
  });

  it("uses --fields as the columns, expanding an object field to its leaves", async () => {
    const { out } = await run(list("vendor", vendors), "csv", { fields: ["name", "rating", "country"] });
    expect(out.split("\r\n")[0]).toBe("name,rating.average,rating.count,rating.verified_count,country");
    const fromResult = await run(list("vendor", vendors, { fields: ["id", "rating.average"] }), "csv");
    expect(fromResult.out.split("\r\n")[0]).toBe("id,rating.average");
  });

  it("decides the header from the first item: later extra keys are dropped", async () => {
    const rows = parseCsv((await run(list("generic", [{ a: 1 }, { a: 2, b: 3 }]), "csv")).out);
    expect(rows).toEqual([{ a: "1" }, { a: "2" }]);
  });

  it("quotes cells holding commas, quotes and line breaks; a lone CR becomes a line feed", async () => {
    const data = [{ t: 'a,b "c"\nd\re\r\nf' }];
    const { out } = await run(list("generic", data), "csv");
    // A lone CR would let a terminal showing the file print over the start of the line.
    expect(parseCsv(out)[0]!.t).toBe('a,b "c"\nd\ne\r\nf');
  });

  it("prints an item result as a header and one row, and only the header for an empty list", async () => {
    expect(parseCsv((await run(item("vendor-detail", vendors[0]), "csv")).out)).toHaveLength(1);
    expect((await run(list("study", []), "csv", { fields: ["id", "title"] })).out).toBe("id,title\r\n");
    // The header is the column map's: an empty list has it too.
    expect((await run(list("study", []), "csv")).out).toBe(`${[...DESCRIPTORS.study.csv, "other"].join(",")}\r\n`);
    expect((await run(list("generic", []), "csv")).out).toBe("");
  });

  it("neutralises cells only where needed", () => {
    expect(neutraliseFormula("-12.5")).toBe("-12.5");
    expect(neutraliseFormula("normal")).toBe("normal");
    expect(neutraliseFormula("=A1")).toBe("'=A1");
  });
});

describe("tsv", () => {
  it("has the same columns, tab-separated, with tabs, breaks and backslashes escaped", async () => {
    const data = [{ id: "x", note: "a\tb\nc\\d\re", n: null, nd: "not_documented", price: "1000000.00000001" }];
    const { out } = await run(list("generic", data), "tsv");
    expect(out).toBe("id\tnote\tn\tnd\tprice\nx\ta\\tb\\nc\\\\d\\re\t\tnot documented\t1000000.00000001\n");
  });

  it("flattens nested keys like csv and keeps money exact", async () => {
    const { out } = await run(list("offer", offers), "tsv");
    const [header, ...rows] = out.trimEnd().split("\n");
    expect(header!.split("\t")).toEqual([...DESCRIPTORS.offer.csv, "other"]);
    expect(rows.map((r) => r.split("\t")[DESCRIPTORS.offer.csv.indexOf("price")])).toEqual([...MONEY]);
  });
});
