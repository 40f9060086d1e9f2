import { describe, expect, it } from "vitest";
import { fitWidths } from "../../src/output/layout.js";
import { displayWidth } from "../../src/output/width.js";
import { item, list, run } from "./helpers.js";
import { MONEY, offers, peptides, studies, vendors, disclosure } from "./fixtures.js";
import { visible } from "../helpers/terminal.js";

/** The text a terminal shows: no colours, no link wrappers. */
const widest = (s: string) => Math.max(...visible(s).split("\n").map(displayWidth));

describe("list tables", () => {
  it("peptides at 80 columns: default columns, not documented and unknown shown as words", async () => {
    const mystery = {
      name: "Mystery",
      categories: [],
      evidence: { level: "not_documented" },
      regulatory_status: null,
      fda_status: "not_documented",
    };
    const { out } = await run(list("peptide", [...peptides, mystery]), "table", { columns: 80 });
    expect(out).toMatchInlineSnapshot(`
      "ID           NAME         CATEGORIES                EVIDENCE        REGULATORY
      bpc-157      BPC-157      muscle-recovery           preclinical     experimental
      semaglutide  Semaglutide  glp1-metabolic, fat-loss  FDA-approved    approved
                   Mystery                                not documented  unknown
      "
    `);
    expect(widest(out)).toBeLessThanOrEqual(80);
  });

  it("studies at 80 and 160 columns fit the width and cut long cells with …", async () => {
    const at80 = (await run(list("study", studies), "table", { columns: 80 })).out;
    const at160 = (await run(list("study", studies), "table", { columns: 160 })).out;
    expect(at80).toMatchInlineSnapshot(`
      "ID                YEAR  TITLE                                   EVIDENCE
      pmid-90000001     2021  Effects of BPC-157 on tendon healing:…  animal/lab
      nct-NCT99000001   2023  The GLP-1 agonist trial in adults       controlled trial
      doi-10.5555--dup  2021  Effects of BPC-157 on gut lining        animal/lab
      "
    `);
    expect(at160).toMatchInlineSnapshot(`
      "ID                YEAR  TITLE                                                                                      EVIDENCE
      pmid-90000001     2021  Effects of BPC-157 on tendon healing: 50% faster & {braced} #1 in rats_model ~ ^ $ \\ test  animal/lab
      nct-NCT99000001   2023  The GLP-1 agonist trial in adults                                                          controlled trial
      doi-10.5555--dup  2021  Effects of BPC-157 on gut lining                                                           animal/lab
      "
    `);
    expect(widest(at80)).toBeLessThanOrEqual(80);
    expect(widest(at160)).toBeLessThanOrEqual(160);
  });

  it("offers: price and currency as one column, money never cut, disclosure under the table", async () => {
    const { out, err } = await run(list("offer", offers, { meta: { affiliate_disclosure: disclosure } }), "table", {
      columns: 80,
    });
    expect(out).toMatchInlineSnapshot(`
      "VENDOR ID  VENDOR         PRODUCT             PRICE                 LAST SEEN
      v0         Alpha Labs     BPC-157 (capsules)  0.10 USD              2025-06-01
      v1         Beta Peptides  BPC-157 (peptides)  1000000.00000001 EUR  2025-06-02
      v2         Gamma Supply   BPC-157 (sprays)    1249.00 USD           2025-06-03

      Some links are affiliate links; commissions never affect listings.
      "
    `);
    expect(out).toContain("1000000.00000001 EUR");
    for (const m of MONEY) expect(out).toContain(m);
    expect(out.trimEnd().endsWith(disclosure)).toBe(true);
    // The link does not fit whole at 80 columns: hidden (never cut), and said so.
    expect(err).toBe("note: product_page_url hidden for lack of width; --fields product_page_url shows it\n");
    expect(widest(out)).toBeLessThanOrEqual(80);
  });

  it("products: price ranges read as money with their offer counts, amounts as received", async () => {
    const products = [
      {
        name: "BPC-157 capsules",
        peptide: { name: "BPC-157" },
        form: "capsules",
        price_ranges: [
          { currency: "GBP", min: "0.10", max: "0.10", offer_count: 1 },
          { currency: "USD", min: "46.84", max: "1000000.00000001", offer_count: 3 },
        ],
      },
    ];
    const { out } = await run(list("product", products), "table", { columns: 100 });
    expect(out).toMatchInlineSnapshot(`
      "NAME              PEPTIDE  FORM      PRICES
      BPC-157 capsules  BPC-157  capsules  0.10 GBP (1 offer), 46.84–1000000.00000001 USD (3 offers)
      "
    `);
  });

  it("vendors: rating average and count, null rating as unknown", async () => {
    const { out } = await run(list("vendor", vendors), "table", { columns: 80 });
    expect(out).toMatchInlineSnapshot(`
      "ID  NAME           COUNTRY  RATING   REVIEWS  CATEGORIES
      v1  Alpha Labs     US       4.6      120      peptides, capsules
      v2  Beta Peptides  DE       unknown  0        peptides
      "
    `);
  });

  it("--fields chooses the columns", async () => {
    const { out } = await run(list("vendor", vendors), "table", { fields: ["name", "rating.average"] });
    expect(out.split("\n")[0]).toBe("NAME           RATING.AVERAGE");
  });

  it("dims placeholders and links names when colour and hyperlinks are on", async () => {
    const mystery = {
      name: "Mystery",
      url: "https://example.test/m",
      evidence: { level: "not_documented" },
      regulatory_status: null,
    };
    const { out } = await run(list("peptide", [...peptides, mystery]), "table", {
      columns: 100,
      color: true,
      hyperlinks: true,
    });
    expect(out).toContain("\x1b]8;;https://example.test/peptides/bpc-157\x1b\\BPC-157\x1b]8;;\x1b\\");
    expect(out).toContain("\x1b[2mnot documented\x1b[22m");
    expect(out).toContain("\x1b[2munknown\x1b[22m");
    const plain = (await run(list("peptide", [mystery]), "table")).out;
    expect(plain).not.toContain("\x1b");
  });

  it("never breaks the layout with very long strings, deep nesting or wide characters", async () => {
    const deep = (n: number): unknown => (n === 0 ? "leaf" : { child: deep(n - 1), list: [{ name: "x".repeat(50) }] });
    const items = [
      {
        name: "x".repeat(500),
        categories: ["a".repeat(300), "b"],
        evidence: deep(30),
        regulatory_status: "日本語の名前".repeat(20),
        fda_status: "😀".repeat(100),
      },
      {
        name: "short",
        categories: [],
        evidence: { level: "preclinical" },
        regulatory_status: "approved",
        fda_status: null,
      },
    ];
    for (const columns of [40, 80, 160]) {
      const { out } = await run(list("peptide", items), "table", { columns });
      const lines = visible(out).trimEnd().split("\n");
      expect(lines).toHaveLength(3);
      expect(widest(out)).toBeLessThanOrEqual(columns);
    }
  });

  it("measures, cuts and pads by string-width: hexagrams, Khitan, Hangul fillers and keycaps line up", async () => {
    // Characters the old hand-written table measured differently from string-width.
    const odd = ["\u4dc0\u4dc1", "\u{18b00}x", "a\u3164b\uffa0c", "1\ufe0f\u20e3 keycap"];
    expect(odd.map(displayWidth)).toEqual([4, 3, 3, 9]);
    const items = odd.map((name) => ({
      name,
      categories: ["zz"],
      evidence: { level: "preclinical" },
      regulatory_status: "approved",
      fda_status: "no",
    }));
    const { out } = await run(list("peptide", items), "table", { columns: 60 });
    const lines = out.trimEnd().split("\n");
    // The second column starts at the same display column on every line.
    const starts = lines.slice(1).map((l) => displayWidth(l.slice(0, l.indexOf("zz"))));
    expect(new Set(starts).size).toBe(1);
    expect(starts[0]).toBe(9 + 2);
  });

  it("streams long lists in blocks with one header and widths fixed by the first block", async () => {
    const many = Array.from({ length: 250 }, (_, i) => ({
      name: i < 100 ? `p${i}` : `peptide-with-a-much-longer-name-${i}`,
      categories: ["x"],
      evidence: { level: "preclinical" },
      regulatory_status: "approved",
      fda_status: "no",
    }));
    const { out } = await run(list("peptide", many), "table", { columns: 80 });
    const lines = out.trimEnd().split("\n");
    expect(lines).toHaveLength(251);
    expect(lines.filter((l) => l.startsWith("NAME"))).toHaveLength(1);
    // Rows of later blocks use the first block's widths: the long names are cut to fit.
    expect(lines[1]!.indexOf("x")).toBe(lines[200]!.indexOf("x"));
    expect(lines[200]).toMatch(/^pep…\s/);
  });

  it("hides columns that cannot fit and says so on stderr", async () => {
    const wide = [Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`column_${i}`, `value-${i}`]))];
    const { out, err } = await run(list("generic", wide), "table", { columns: 40, fields: Object.keys(wide[0]!) });
    expect(widest(out)).toBeLessThanOrEqual(40);
    expect(err).toMatch(
      /^note: column_\d+, column_\d+, column_\d+, column_\d+ and \d+ more hidden for lack of width; name fewer --fields, or use -o csv\n$/,
    );
  });

  it("says No results. on stderr for an empty list", async () => {
    const { out, err } = await run(list("peptide", []), "table");
    expect(out).toBe("");
    expect(err).toBe("No results.\n");
    expect((await run(list("peptide", []), "table", { quiet: true })).err).toBe("");
  });

  it("prints an item whose data is a list as a table", async () => {
    const { out } = await run(item("study", studies), "table", { columns: 100 });
    expect(out.split("\n")[0]).toMatch(/^ID\s+YEAR\s+TITLE/);
  });
});

describe("fitWidths", () => {
  it("keeps natural widths when they fit and gives the last column the rest", () => {
    expect(fitWidths([5, 5, 5], 40)).toEqual([5, 5, 26]);
  });
  it("shares the room among wide columns, keeping narrow ones whole", () => {
    const w = fitWidths([4, 100, 100], 50);
    expect(w[0]).toBe(4);
    expect(w.reduce((a, b) => a + b, 0) + 2 * (w.length - 1)).toBeLessThanOrEqual(50);
  });
  it("keeps the first column (the row's name) whole up to half the room", () => {
    // 72 columns of room after gaps: the name keeps 17, the other four share 55.
    const w = fitWidths([17, 30, 15, 16, 40], 80);
    expect(w[0]).toBe(17);
    expect(w.reduce((a, b) => a + b, 0) + 2 * (w.length - 1)).toBeLessThanOrEqual(80);
    // A very long name is cut at half the room, so the other columns stay readable.
    expect(fitWidths([200, 30, 30], 60)[0]).toBe(28);
  });
  it("gives a wide column (a title) a double share of what the others leave", () => {
    // 92 of room after gaps: the id keeps 27, the year 4; title, journal and evidence share 61.
    const w = fitWidths([27, 4, 120, 40, 30], 100, { wide: [false, false, true, false, false] });
    expect(w.slice(0, 2)).toEqual([27, 4]);
    expect(w[2]).toBeGreaterThanOrEqual(2 * w[3]! - 1);
    expect(w[2]! + w[3]! + w[4]!).toBe(61);
    // Without the flag the three share alike.
    expect(fitWidths([27, 4, 120, 40, 30], 100).slice(2)).toEqual([21, 20, 20]);
  });
  it("never shrinks a fixed (money) column", () => {
    expect(fitWidths([30, 20, 30], 50, { fixed: [false, true, false] })[1]).toBe(20);
  });
});
