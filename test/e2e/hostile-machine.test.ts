/**
 * Hostile API text in the file formats, run in-process. CSV and TSV carry
 * no escape sequence, control character or bidi override (CSV's CRLF record ends and
 * quoted line breaks are its own; a lone CR becomes a line feed), keep the readable
 * text, keep one TSV row a line, and neutralise cells a spreadsheet would run (even
 * behind a control sequence) while plain numbers stay numbers. BibTeX and RIS are inert
 * too and still read back. JSON and NDJSON are data: the API's strings come back exact
 * once parsed, with the dangerous characters written as \u escapes.
 */
import { describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { parseCsv, parseNdjson, parseTsv, readCitations } from "../helpers/formats.js";
import {
  expectInert,
  FORMULAS,
  HOSTILE_KEY,
  LISTS,
  peptideProfile,
  startHostileApi,
  studyDetail,
  UNSAFE_DELIMITED,
  UNSAFE_HUMAN,
  vendorDetail,
} from "../helpers/hostile-api.js";
import { useLoopback } from "../helpers/suite.js";

const suite = useLoopback(() => startHostileApi(), "pep-hostile-files-");
const { tmp } = suite;

const pep = (argv: readonly string[]) =>
  inProcessPep(argv, { env: { ...tmp.env, PEP_BASE_URL: suite.api.baseUrl, PEP_API_KEY: "sk_test_hostile_4242" } });

/** Delimited text with its record ends taken out, checked like terminal output (tab allowed). */
const inertDelimited = (text: string, label: string, leaks = true) =>
  expectInert(text.replace(/\r\n/g, "\n"), label, { unsafe: UNSAFE_DELIMITED, leaks });

const LIST_COMMANDS: Array<[string, string[], string[]]> = [
  ["peptides", ["peptides", "list"], ["PEPNAME", "ALIAS", "UNKNOWN", "KEYVALUE"]],
  ["studies", ["studies", "list"], ["STUDYTITLE", "AUTHOR", "JOURNAL", "STUDYUNKNOWN"]],
  ["vendors", ["vendors", "list"], ["VENDORNAME", "VENDORDESC", "REGION", "VENDORKEY"]],
];

describe("csv", () => {
  it.each(LIST_COMMANDS)("%s list: inert, one record per item, every cell readable", async (_name, argv, tags) => {
    const r = await pep([...argv, "-o", "csv"]);
    expect(r.code, r.err).toBe(0);
    // The `other` column is exact JSON, its control characters escaped (inert, but their
    // text kept, as in every JSON cell); every other cell has them removed.
    inertDelimited(r.out, "csv", false);
    expectInert(r.err, "stderr");
    // no lone CR: every CR ends a record or a line inside a quoted cell
    expect(r.out).not.toMatch(/\r(?!\n)/);
    const rows = parseCsv(r.out);
    expect(rows).toHaveLength(LISTS.peptides.length);
    // peptides and vendors carry a hostile key the column map does not know: the `other`
    // column's JSON shows its readable part
    const key = Object.keys(JSON.parse(rows[0]!.other || "{}") as object).find((h) => h.startsWith("zz_key "));
    if (tags.includes("KEYVALUE") || tags.includes("VENDORKEY")) expect(key).toMatch(/^zz_key .*zz_key-END$/);
    rows.forEach((row, i) => {
      const text = Object.values(row).join(" ");
      for (const tag of tags) expect(text).toContain(`${tag}${i}-END`);
      const { other, ...cells } = row;
      expectInert(Object.values(cells).join(" "), "csv cells");
      if (other) expect(() => JSON.parse(other)).not.toThrow();
    });
  });

  it("cells a spreadsheet would run start with ' (also behind a removed sequence); numbers stay", async () => {
    const r = await pep(["peptides", "list", "--search", "formula", "-o", "csv", "--fields", "name,summary"]);
    expect(r.code, r.err).toBe(0);
    inertDelimited(r.out, "csv");
    const rows = parseCsv(r.out);
    expect(rows.map((row) => row.name)).toEqual(FORMULAS.map(([, cell]) => cell));
    expect(rows.map((row) => row.summary)).toEqual(FORMULAS.map(([, cell]) => cell));
  });

  it("a card's object as one row: details of a peptide, a study and a vendor", async () => {
    for (const argv of [
      ["peptides", "get", "x"],
      ["studies", "get", "pmid-1000"],
      ["vendors", "get", "v0"],
    ]) {
      const r = await pep([...argv, "-o", "csv"]);
      expect(r.code, r.err).toBe(0);
      // lists of objects are cells of compact JSON, where sequences show escaped (\u001b…)
      inertDelimited(r.out, argv.join(" "), false);
      expect(parseCsv(r.out)).toHaveLength(1);
    }
  });
});

describe("tsv", () => {
  it.each(LIST_COMMANDS)("%s list: inert, one line a row, as many cells as the header", async (_name, argv, tags) => {
    const r = await pep([...argv, "-o", "tsv"]);
    expect(r.code, r.err).toBe(0);
    inertDelimited(r.out, "tsv", false);
    expect(r.out).not.toContain("\r");
    const lines = r.out.trimEnd().split("\n");
    expect(lines).toHaveLength(1 + LISTS.peptides.length);
    const width = lines[0]!.split("\t").length;
    for (const line of lines) expect(line.split("\t")).toHaveLength(width);
    parseTsv(r.out).forEach((row, i) => {
      const text = Object.values(row).join(" ");
      for (const tag of tags) expect(text).toContain(`${tag}${i}-END`);
      if (row.other) expect(row.other).toMatch(/^\{.*\}$/);
    });
    // Every cell but `other` (exact JSON, escaped) has the payload's hidden text removed.
    const other = lines[0]!.split("\t").indexOf("other");
    for (const line of lines) inertDelimited(line.split("\t").toSpliced(other, 1).join("\t"), "tsv cells");
  });

  it("neutralises formulas like csv", async () => {
    const r = await pep(["peptides", "list", "--search", "formula", "-o", "tsv", "--fields", "name"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).not.toContain("\r");
    expect(parseTsv(r.out).map((row) => row.name)).toEqual(FORMULAS.map(([, cell, tsvCell]) => tsvCell ?? cell));
  });
});

describe("citations", () => {
  it("bibtex and ris of a list and of one study: inert, and the titles and authors still read back", async () => {
    for (const format of ["bibtex", "ris"] as const) {
      for (const argv of [
        ["studies", "list"],
        ["studies", "get", "pmid-1000"],
      ]) {
        const r = await pep([...argv, "-o", format]);
        expect(r.code, `${format}: ${r.err}`).toBe(0);
        // RIS ends its lines with CRLF, its own; nothing else may be a control
        const text = expectInert(r.out.replace(/\r\n/g, "\n"), `${format} ${argv.join(" ")}`);
        if (format === "ris") expect(r.out).not.toMatch(/\r(?!\n)/);
        const entries = await readCitations(r.out, format);
        expect(entries).toHaveLength(argv[1] === "list" ? LISTS.studies.length : 1);
        entries.forEach((e, i) => {
          expect(e.title).toMatch(new RegExp(`^STUDYTITLE${i} .*STUDYTITLE${i}-END$`));
          expect(JSON.stringify(e.author)).toContain(`AUTHOR${i}`);
        });
        expect(text).toContain("JOURNAL0");
      }
    }
  });
});

describe("json and ndjson: data, exact", () => {
  it.each(LIST_COMMANDS)(
    "%s list: parses back to what the API sent, nothing raw a terminal acts on",
    async (name, argv) => {
      const sent = LISTS[name as keyof typeof LISTS];
      const json = await pep([...argv, "-o", "json"]);
      expect(json.code, json.err).toBe(0);
      expect(UNSAFE_HUMAN.test(json.out)).toBe(false);
      expect(JSON.parse(json.out)).toEqual(sent);
      const nd = await pep([...argv, "-o", "ndjson"]);
      expect(nd.code, nd.err).toBe(0);
      expect(UNSAFE_HUMAN.test(nd.out)).toBe(false);
      expect(parseNdjson(nd.out)).toEqual(sent);
      // a machine format still tells the disclosure, cleaned, on stderr
      if (name === "vendors") expect(expectInert(json.err, "stderr")).toMatch(/^DISCLOSURE .*DISCLOSURE-END\n$/s);
    },
  );

  it("details keep hostile keys, nesting and urls exactly", async () => {
    const cases: Array<[string[], unknown]> = [
      [["peptides", "get", "x"], peptideProfile()],
      [["studies", "get", "pmid-1000"], studyDetail()],
      [["vendors", "get", "v0"], vendorDetail()],
    ];
    for (const [argv, data] of cases) {
      const r = await pep([...argv, "-o", "json"]);
      expect(r.code, r.err).toBe(0);
      expect(UNSAFE_HUMAN.test(r.out)).toBe(false);
      expect(JSON.parse(r.out)).toEqual(data);
    }
    const raw = await pep(["api", "/peptides/x"]);
    expect(raw.code, raw.err).toBe(0);
    expect(UNSAFE_HUMAN.test(raw.out)).toBe(false);
    expect((JSON.parse(raw.out) as { data: Record<string, unknown> }).data[HOSTILE_KEY]).toBe(
      peptideProfile()[HOSTILE_KEY],
    );
  });
});
