import { describe, expect, it } from "vitest";
import { columnRules, resolveColumns } from "../../src/output/table-columns.js";
import { type ColumnNeeds, fitWidths, formatRow, planColumns } from "../../src/output/layout.js";
import { makeStyle } from "../../src/output/style.js";
import { hiddenNote, setupTable } from "../../src/output/table.js";
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
      "ID                YEAR  JOURNAL                                 EVIDENCE
        TITLE
      pmid-90000001     2021  Journal of Peptide Research & Practice  animal/lab
        Effects of BPC-157 on tendon healing: 50% faster & {braced} #1 in rats_model ~
        ^ $ \\ test
      nct-NCT99000001   2023  Clinical Trials Reports                 controlled trial
        The GLP-1 agonist trial in adults
      doi-10.5555--dup  2021  Journal of Peptide Research & Practice  animal/lab
        Effects of BPC-157 on gut lining
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
      "VENDOR ID  VENDOR          PRODUCT             PRICE                 LAST SEEN
      v0         Alpha Labs      BPC-157 (capsules)  0.10 USD              2025-06-01
      v1         Beta Peptides   BPC-157 (peptides)  1000000.00000001 EUR  2025-06-02
      v2         Gamma Supply    BPC-157 (sprays)    1249.00 USD           2025-06-03

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
      BPC-157 capsules  BPC-157  capsules  0.10 GBP, 46.84–1000000.00000001 USD
      "
    `);
  });

  it("vendors: rating average and count, null rating as unknown", async () => {
    const { out } = await run(list("vendor", vendors), "table", { columns: 80 });
    expect(out).toMatchInlineSnapshot(`
      "ID  NAME              COUNTRY  RATING   REVIEWS  CATEGORIES
      v1  Alpha Labs        US       4.6      120      peptides, capsules
      v2  Beta Peptides     DE       unknown  0        peptides
      "
    `);
  });

  it("--fields chooses the columns", async () => {
    const { out } = await run(list("vendor", vendors), "table", { fields: ["name", "rating.average"] });
    expect(out.split("\n")[0]).toBe("NAME           RATING.AVERAGE");
  });

  it("pep changes at 80 columns: the time whole to the minute, an added row's field blank", async () => {
    const row = (kind: string, field: string | null, o: unknown, n: unknown) => ({
      seq: 1,
      at: "2026-05-30T16:04:59.123Z",
      sync_id: 2,
      resource: "peptides",
      id: "brevritarin-81",
      kind,
      field,
      old_value: o,
      new_value: n,
    });
    const rows = [row("added", null, null, null), row("changed", "fda_status", "Investigational", "Approved")];
    const { out } = await run(list("change", rows), "table", { columns: 80 });
    expect(widest(out)).toBeLessThanOrEqual(80);
    const lines = visible(out).trimEnd().split("\n");
    // The resource goes first when room runs short: the id says what the item is.
    expect(lines[0]).toMatch(/^AT +ID +KIND +FIELD +OLD +NEW$/);
    expect(lines[1]).toMatch(/^2026-05-30 16:04 +brevritarin-81 +added$/);
    expect(lines[2]).toMatch(/^2026-05-30 16:04 .* changed +fda_status +Investigational +Approved$/);
    expect(out).not.toContain("unknown");
  });

  it("--fields naming an amount alone still shows its currency", async () => {
    const { out } = await run(list("offer", offers), "table", { columns: 80, fields: ["vendor.name", "price"] });
    const rows = out.trimEnd().split("\n").slice(1);
    expect(rows).toHaveLength(offers.length);
    for (const [i, row] of rows.entries()) expect(row).toContain(`${offers[i]!.price} ${offers[i]!.currency}`);
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

  it("links the id to the item's page when its name is hidden, one link a row", async () => {
    const link = "\x1b]8;;https://example.test/peptides/bpc-157\x1b\\";
    const wide = (await run(list("peptide", peptides), "table", { columns: 200, hyperlinks: true })).out;
    expect(wide.split(link)).toHaveLength(2);
    expect(wide).toContain(`${link}BPC-157\x1b]8;;\x1b\\`);
    const narrow = (await run(list("peptide", peptides), "table", { columns: 40, hyperlinks: true })).out;
    expect(narrow).not.toContain("BPC-157");
    expect(narrow).toContain(`${link}bpc-157\x1b]8;;\x1b\\`);
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
    // The names (9 wide) have room for the column's minimum, kept for later pages.
    const nameMin = columnRules("peptide").find((r) => r.header === "NAME")!.min;
    expect(starts[0]).toBe(Math.max(9, nameMin) + 2);
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
    // Rows of later blocks use the first block's widths: the long names, first in their
    // rows (no id), are cut to fit, no narrower than the column's minimum.
    expect(lines[1]!.indexOf("x")).toBe(lines[200]!.indexOf("x"));
    const nameMin = columnRules("peptide").find((r) => r.header === "NAME")!.min;
    expect(lines[200]).toMatch(new RegExp(`^${"peptide-with-a-much-longer-name".slice(0, nameMin - 1)}…\\s`));
  });

  it("wraps a long name onto the lines under its row, in its own column", async () => {
    const many = Array.from({ length: 3 }, (_, i) => ({
      id: `p-${i}`,
      name: i === 1 ? "A peptide with a much longer name than the column holds" : `p${i}`,
      categories: ["x"],
      evidence: { level: "preclinical" },
    }));
    const { out } = await run(list("peptide", many), "table", { columns: 50 });
    expect(out).toMatchInlineSnapshot(`
      "ID   NAME                  CATEGORIES  EVIDENCE
      p-0  p0                    x           preclinical
      p-1  A peptide with a      x           preclinical
           much longer name
           than the column hol…
      p-2  p2                    x           preclinical
      "
    `);
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

describe("formatRow", () => {
  it("keeps a longer never-cut cell whole and takes the room from the cells after it", () => {
    const style = makeStyle({ color: false, hyperlinks: false });
    const widths = [6, 10, 5];
    const fixed = [true, false, false];
    expect(formatRow([{ text: "abc" }, { text: "0123456789" }, { text: "end" }], widths, style, false, fixed)).toBe(
      "abc     0123456789  end",
    );
    // Three columns too long for its column: the next cell gives them up, the last starts where it did.
    const line = formatRow(
      [{ text: "abcdefghi" }, { text: "0123456789" }, { text: "end" }],
      widths,
      style,
      false,
      fixed,
    );
    expect(line).toBe("abcdefghi  012345…  end");
    expect(line.indexOf("end")).toBe(6 + 2 + 10 + 2);
  });
});

describe("planColumns", () => {
  const col = (natural: number, min: number, priority: number, extra: Partial<ColumnNeeds> = {}): ColumnNeeds => ({
    natural,
    min,
    priority,
    ...extra,
  });
  const room = (widths: number[]) => widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);

  it("keeps every column at its natural width when they fit, the last taking the rest", () => {
    expect(planColumns([col(5, 4, 3), col(5, 4, 2), col(5, 4, 1)], 40)).toEqual({
      keep: [0, 1, 2],
      widths: [5, 5, 26],
    });
  });

  it("hides the lowest priority whole rather than cut a column below its minimum", () => {
    // 10 + 20 + 20 + gaps do not fit in 40 at the minimums: the priority-1 column goes.
    const plan = planColumns([col(10, 10, 9, { fixed: true }), col(30, 20, 5), col(30, 20, 1)], 40);
    expect(plan.keep).toEqual([0, 1]);
    expect(plan.widths).toEqual([10, 28]);
  });

  it("passes over a column too wide for the room left for a narrower one of lower priority", () => {
    const plan = planColumns([col(10, 10, 9, { fixed: true }), col(40, 40, 5, { fixed: true }), col(6, 6, 1)], 30);
    expect(plan.keep).toEqual([0, 2]);
  });

  it("always keeps the column of highest priority, even wider than the room", () => {
    expect(planColumns([col(50, 50, 9, { fixed: true }), col(5, 5, 1)], 20)).toEqual({ keep: [0], widths: [50] });
  });

  it("never cuts a fixed column", () => {
    const { keep, widths } = planColumns([col(12, 4, 9, { fixed: true }), col(40, 10, 5), col(20, 10, 4)], 50);
    expect(keep[0]).toBe(0);
    expect(widths[0]).toBe(12);
    expect(room(widths)).toBeLessThanOrEqual(50);
  });

  it("lets an extra go when that makes a more important column whole", () => {
    // The title (natural 60) would be cut to 46 to keep an extra of 10; without it, it is whole.
    const plan = planColumns([col(13, 13, 100, { fixed: true }), col(60, 30, 90, { wide: true }), col(10, 10, 30)], 75);
    expect(plan.keep).toEqual([0, 1]);
    expect(plan.widths).toEqual([13, 60]);
  });

  it("lets an extra go whenever its room would go to a cut title", () => {
    // Beside a 20-wide extra the title would be cut to about 80; it gets all 105 instead.
    const plan = planColumns(
      [col(13, 13, 100, { fixed: true }), col(200, 30, 90, { wide: true }), col(20, 20, 30)],
      120,
    );
    expect(plan).toEqual({ keep: [0, 1], widths: [13, 105] });
    // The extra stays when the title is whole beside it.
    const whole = planColumns(
      [col(13, 13, 100, { fixed: true }), col(80, 30, 90, { wide: true }), col(20, 20, 30)],
      120,
    );
    expect(whole.keep).toEqual([0, 1, 2]);
  });

  it("holds back a wide never-cut extra (a URL) while a title that matters more is cut", () => {
    const cols = [col(41, 30, 90), col(11, 11, 60), col(62, 62, 20, { fixed: true })];
    expect(planColumns(cols, 110).keep).toEqual([0, 1]);
    expect(planColumns(cols, 110).widths[0]).toBe(41);
    expect(planColumns(cols, 200).keep).toEqual([0, 1, 2]);
  });

  it("lets any column go for a cramped title, then takes back what fits beside it", () => {
    // A 30-wide id: the title would get 22 (under half again its minimum of 20) beside the
    // year: the year goes. With a 13-wide id, the year stays and the title gets 39.
    const study = (id: number) => [
      col(id, id, 100, { fixed: true }),
      col(4, 4, 70),
      col(120, 20, 90, { wide: true }),
      col(16, 16, 80),
    ];
    expect(planColumns(study(30), 60)).toEqual({ keep: [0, 2], widths: [30, 28] });
    expect(planColumns(study(13), 60)).toEqual({ keep: [0, 1, 2], widths: [13, 4, 39] });
  });

  it("gives a wide column (a title) a double share of the room left", () => {
    // 40 columns to share past the minimums of 10: 26 to the title, 14 to the other.
    expect(planColumns([col(100, 10, 90, { wide: true }), col(100, 10, 80)], 62).widths).toEqual([36, 24]);
  });
});

describe("tables that choose, on long and wide values", () => {
  const longTitle = (i: number) =>
    `A very long randomized, double-blind, placebo-controlled trial number ${i} of a peptide with a name that goes on and on in adults`;
  const longStudies = Array.from({ length: 6 }, (_, i) => ({
    id: `doi-10.5555--an-uncommonly-long-identifier-${i}`,
    title: longTitle(i),
    publication_year: 2000 + i,
    journal: "The International Journal of Extremely Verbose Placeholder Research, Series B",
    evidence_classification: ["human_controlled_trial", "in_vitro", "some_future_class_name"][i % 3],
  }));
  const wideVendors = Array.from({ length: 4 }, (_, i) => ({
    id: `vnd_${i}`,
    name: `株式会社ペプチド研究所サプライ第${i}号店`,
    country: "JP",
    rating: { average: 4.5, count: 1000 + i },
    product_categories: ["peptides", "sprays", "capsules", "other"],
  }));
  const manyOffers = Array.from({ length: 3 }, (_, i) => ({
    id: `off_${i}0000000`,
    vendor: { id: `vnd_${i}abcdef`, name: `Vendor With A Rather Long Trading Name ${i}` },
    product_name: `Peptide-${i} lyophilized powder, research grade, ten vials of five`,
    form: "lyophilized-powder",
    price: "1000000.00000001",
    currency: "USD",
    last_seen_at: "2025-05-30T16:00:00Z",
    product_page_url: `https://vendor-${i}.example/p/a-long-product-path-${i}?ref=research&aff=x`,
  }));
  const cases = [
    ["study", longStudies],
    ["vendor", wideVendors],
    ["offer", manyOffers],
  ] as const;

  for (const [resource, items] of cases) {
    it(`${resource}: within the width, ids whole, no kept column cut below its minimum, hidden ones named`, async () => {
      const rules = new Map(columnRules(resource).map((r) => [r.header, r]));
      for (const columns of [40, 60, 80, 100, 120, 160, 200, 300]) {
        const { out, err } = await run(list(resource, items), "table", { columns });
        const lines = visible(out)
          .split("\n")
          .filter((l) => l !== "");
        // A row's first line; a wrapped or stacked title's lines start with spaces.
        const rows = lines.slice(1).filter((l) => !l.startsWith(" "));
        expect(rows.length).toBe(items.length);
        expect(widest(rows.join("\n")), `${resource} at ${columns}`).toBeLessThanOrEqual(Math.max(columns, 52));
        for (const [j, item] of items.entries())
          expect(rows[j]!.startsWith(item.id) || rows[j]!.includes(item.id)).toBe(true);
        const headers = lines[0]!.split(/ {2,}/);
        const starts = headers.map((h) => lines[0]!.indexOf(h));
        headers.forEach((header, k) => {
          const rule = rules.get(header)!;
          expect(rule, header).toBeDefined();
          if (starts[k + 1] === undefined) return;
          const width = starts[k + 1]! - starts[k]! - 2;
          const cut = rows.some(
            (r) =>
              displayWidth(r.slice(0, starts[k + 1]).trimEnd()) > 0 &&
              r
                .slice(starts[k], starts[k + 1])
                .trimEnd()
                .endsWith("…"),
          );
          if (cut) expect(width, `${resource} at ${columns}: ${header}`).toBeGreaterThanOrEqual(rule.min);
          if (cut) expect(rule.fixed, header).toBe(false);
        });
        const shown = new Set(headers);
        const hidden = [...rules.keys()].filter((h) => !shown.has(h));
        if (hidden.length === 0) expect(err).not.toMatch(/^note:/m);
        else
          expect(err, `${resource} at ${columns}`).toMatch(
            /^note: .+ hidden for lack of width; --fields \S+ shows (it|them)\n/m,
          );
      }
    });
  }

  it("shows a label the map does not know as it came", async () => {
    const { out } = await run(list("study", longStudies), "table", { columns: 300 });
    expect(out).toContain("some_future_class_name");
    expect(out).toContain("controlled trial");
    expect(out).not.toContain("human_controlled_trial");
  });

  it("offers: the offer's and the vendor's ids whole at 80 columns, the date of last seen", async () => {
    const { out, err } = await run(list("offer", manyOffers), "table", { columns: 80 });
    const first = visible(out).split("\n")[1]!;
    expect(first.split(/\s+/).slice(0, 2)).toEqual(["off_00000000", "vnd_0abcdef"]);
    expect(err).toMatch(/^note: .*product_page_url hidden/);
    const wide = await run(list("offer", manyOffers), "table", { columns: 300 });
    expect(wide.out).toContain("2025-05-30  https://");
    expect(wide.out).not.toContain("T16:00");
  });

  it("a column repeating the id gives way first; a filter's column goes whatever the data", async () => {
    const echo = [
      { id: "bpc-157", name: "BPC 157", categories: ["muscle-recovery"], evidence: { level: "preclinical" } },
      { id: "tb-500", name: "TB-500", categories: ["muscle-recovery"], evidence: { level: "preclinical" } },
    ];
    const setup = (columns: number, filters: string[] = []) =>
      setupTable(resolveColumns("peptide", undefined, echo[0]), echo, columns, filters);
    expect(setup(200).columns.map((c) => c.header)).toEqual(["ID", "NAME", "CATEGORIES", "EVIDENCE"]);
    // 40 columns hold three of them: NAME, which only repeats the id, is the one hidden.
    expect(setup(40).hidden.map((c) => c.header)).toEqual(["NAME"]);
    // Under --evidence-level, EVIDENCE is left out at any width, and not noted: it says what was typed.
    const named = echo.map((p, i) => ({ ...p, name: ["Pentadecapeptide", "Thymosin beta"][i] }));
    for (const width of [50, 200]) {
      const filtered = setupTable(resolveColumns("peptide", undefined, named[0]), named, width, ["evidence_level"]);
      expect(filtered.columns.map((c) => c.header)).not.toContain("EVIDENCE");
      expect(filtered.hidden.map((c) => c.header)).not.toContain("EVIDENCE");
    }
    // Whatever the data: a category among others is still the filter's column.
    const mixed = [echo[0], { ...echo[1], categories: ["longevity", "muscle-recovery"] }];
    const s = setupTable(resolveColumns("peptide", undefined, mixed[0]), mixed, 200, ["category"]);
    expect(s.columns.map((c) => c.header)).toEqual(["ID", "NAME", "EVIDENCE"]);
    // Named with --fields, it stays.
    const chosen = setupTable(resolveColumns("peptide", ["id", "categories"], mixed[0]), mixed, 200, ["category"]);
    expect(chosen.columns.map((c) => c.header)).toEqual(["ID", "CATEGORIES"]);
    // The note gives each hidden column's reason once.
    expect(hiddenNote(setup(40))).toBe("note: name hidden as it repeats the id; --fields id,name shows it");
    expect(hiddenNote(setup(12, ["evidence_level"]))).toBe(
      "note: categories hidden for lack of width, name as it repeats the id; --fields id,name,categories shows them",
    );
  });

  it("the hidden-columns note is one line on stderr, and none under -q", async () => {
    const loud = await run(list("study", longStudies), "table", { columns: 60 });
    expect(loud.err.split("\n").filter((l) => l !== "")).toHaveLength(1);
    expect(loud.out).not.toContain("hidden");
    expect((await run(list("study", longStudies), "table", { columns: 60, quiet: true })).err).toBe("");
  });

  it("--fields columns are never cut below their header: two rating fields cannot both read RATIN…", async () => {
    const fields = ["id", "name", "rating.average", "rating.count", "country"];
    const { out, err } = await run(list("vendor", wideVendors), "table", { columns: 44, fields });
    const header = visible(out).split("\n")[0]!;
    for (const h of header.split(/ {2,}/)) expect(h).not.toContain("…");
    expect(header).toContain("RATING.AVERAGE");
    // What does not fit with its header whole is hidden, and said.
    expect(err).toMatch(/^note: .+ hidden for lack of width; name fewer --fields, or use -o csv\n$/);
  });

  it("--fields columns are kept in order and cut rather than hidden for priority", async () => {
    const fields = ["journal", "title", "id"];
    const { out, err } = await run(list("study", longStudies), "table", { columns: 80, fields });
    const header = visible(out).split("\n")[0]!;
    expect(header.split(/ {2,}/)).toEqual(["JOURNAL", "TITLE", "ID"]);
    expect(out).toContain("doi-10.5555--an-uncommonly-long-identifier-0");
    expect(err).toBe("");
  });
});
