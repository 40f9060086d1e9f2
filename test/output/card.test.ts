import { describe, expect, it } from "vitest";
import { displayWidth } from "../../src/output/width.js";
import { RESEARCH_NOTICE as NOTICE } from "../../src/core/research-notice.js";
import { item, run } from "./helpers.js";
import {
  peptideProfile,
  peptides,
  regulatory,
  researchSummary,
  studies,
  vendorDetail,
  vendors,
  disclosure,
} from "./fixtures.js";
import { visible } from "../helpers/terminal.js";

const widest = (s: string) => Math.max(...visible(s).split("\n").map(displayWidth));

describe("cards", () => {
  it("peptide profile: human and preclinical evidence in separate sections, the notice under it", async () => {
    const { out } = await run(item("peptide-profile", peptideProfile), "table", { columns: 80 });
    expect(out).toMatchInlineSnapshot(`
      "BPC-157
      https://example.test/peptides/bpc-157

      ID                 bpc-157
      Also known as      Body Protection Compound 157
      Classification     synthetic peptide
      Categories         muscle-recovery
      Evidence level     preclinical
      Regulatory status  experimental
      FDA status         not approved

      Summary
        A synthetic fragment of a gastric protein, studied mostly in animal models of
        tendon, ligament and gut repair. Human data are scarce.

      Evidence in humans
        Summary  not documented
        Trials   none

      Preclinical evidence (animal and laboratory)
        Summary  Consistent healing effects in rodent tendon and gut injury models.
        Models   rat, mouse

      Mechanism
        Summary   Proposed angiogenic and nitric-oxide effects.
        Pathways  VEGFR2, NO system

      Chemical properties
        Molecular formula  C62H98N16O22
        Molecular weight   1419.5
        Sequence           GEPPPGKPADDAGLV

      Safety
        Known risks  not documented
        Notes        not documented

      References
        • Effects of BPC-157 on tendon healing
          URL   https://pubmed.example.test/90000001
          Year  2021
        • Gut lining study
          URL   https://pubmed.example.test/90000002
          Year  2019

      Research and education only: not medical advice, and not a recommendation to buy
      or use any substance.
      "
    `);
    const human = out.indexOf("Evidence in humans");
    const pre = out.indexOf("Preclinical evidence");
    expect(human).toBeGreaterThan(0);
    expect(pre).toBeGreaterThan(human);
    // The preclinical models are under their own heading, not under the human one.
    expect(out.slice(human, pre)).not.toContain("rat, mouse");
    // The notice, wrapped to the width, ends the card.
    expect(out.trimEnd().replace(/\s+/g, " ").endsWith(NOTICE)).toBe(true);
    expect(widest(out)).toBeLessThanOrEqual(80);
  });

  it("research summary: mechanisms, human trials, preclinical, secondary reports, safety, limitations, gaps, references", async () => {
    const { out } = await run(item("research", researchSummary), "table", { columns: 80 });
    expect(out).toMatchInlineSnapshot(`
      "BPC-157
      https://example.test/peptides/bpc-157

      Peptide ID  bpc-157

      Mechanisms under investigation
        • Angiogenesis
        • Nitric oxide signalling

      Clinical evidence (humans)
        Summary  Very limited human data.
        Human trials
          • Pilot trial of BPC-157 in knee pain
            NCT ID        NCT99000002
            Participants  12
            Status        completed

      Preclinical evidence (animal and laboratory)
        Summary      Many rodent studies.
        Study count  34

      Secondary reports
        • Review of gastric peptides
          Type  review

      Safety
        Summary  not documented

      Limitations
        • Few human studies
        • Small samples

      Research gaps
        • Long-term safety in humans

      References
        • Effects of BPC-157 on tendon healing
          URL  https://pubmed.example.test/90000001

      Research and education only: not medical advice, and not a recommendation to buy
      or use any substance.
      "
    `);
    const order = [
      "Mechanisms under investigation",
      "Clinical evidence (humans)",
      "Pilot trial of BPC-157",
      "Preclinical evidence",
      "Secondary reports",
      "Safety",
      "Limitations",
      "Research gaps",
      "References",
    ];
    const positions = order.map((t) => out.indexOf(t));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(out.replace(/\s+/g, " ")).toContain(NOTICE);
  });

  it("regulatory status with its review date, and the notice", async () => {
    const { out } = await run(item("regulatory", regulatory), "table");
    expect(out).toMatchInlineSnapshot(`
      "Semaglutide
      https://example.test/peptides/semaglutide

      FDA status         approved
      WADA status        not prohibited
      Availability       prescription
      Development stage  marketed

      About this record
        Reviewed at  2025-04-01

      Research and education only: not medical advice, and not a recommendation to buy
      or use any substance.
      "
    `);
  });

  it("study detail: identifiers, classification, finding and citing profiles", async () => {
    const detail = {
      study: { ...studies[1], finding_summary: "The agonist lowered weight in adults compared with placebo." },
      citing_profiles: [
        { name: "Semaglutide", url: "https://example.test/peptides/semaglutide", evidence: { level: "fda-approved" } },
      ],
    };
    const { out } = await run(item("study-detail", detail), "table", { columns: 80 });
    expect(out).toMatchInlineSnapshot(`
      "The GLP-1 agonist trial in adults

      Authors         Żółć, Łucja; Nguyễn, Văn An
      Journal         Clinical Trials Reports
      Year            2023
      Study type      randomized controlled trial
      Research model  human
      Evidence class  Controlled human trial

      Finding
        The agonist lowered weight in adults compared with placebo.

      Identifiers
        ID          nct-NCT99000001
        PMID        none
        DOI         10.5555/ctr.2023.77
        NCT ID      NCT99000001
        Source URL  https://trials.example.test/NCT99000001

      Cited by
        • Semaglutide (semaglutide): FDA-approved

      Research and education only: not medical advice, and not a recommendation to buy
      or use any substance.
      "
    `);
    expect(out.replace(/\s+/g, " ")).toContain(NOTICE);
  });

  it("vendor detail: location, rating with verified reviews apart, catalog, shipping facts with sources, ships_to", async () => {
    const { out } = await run(item("vendor-detail", vendorDetail, { affiliate_disclosure: disclosure }), "table", {
      columns: 80,
    });
    expect(out).toMatchInlineSnapshot(`
      "Alpha Labs
      https://example.test/vendors/alpha-labs

      ID           v1
      Slug         alpha-labs
      Location     US, CA (source: company registry)
      Rating       4.6 average from 120 reviews (40 verified)
      Website URL  https://alpha.example.test

      About
        Research chemicals supplier.

      Catalog
        Product count  85
        Source         vendor site

      Shipping
        Destinations   US, CA (source: shipping page, as of 2025-05-01)
        Free shipping  over 200.00 USD (source: shipping page)
        Returns        unknown

      Ships to
        Country  US-CA
        Value    yes
        Source   shipping page

      Some links are affiliate links; commissions never affect listings.
      "
    `);
    expect(out.replace(/\s+/g, " ")).not.toContain(NOTICE);
    expect(out.trimEnd().endsWith(disclosure)).toBe(true);
  });

  it("vendor comparison: vendors side by side within the width", async () => {
    for (const columns of [80, 120]) {
      const { out } = await run(item("vendor-compare", { vendors, ships_to: "US" }), "table", { columns });
      expect(widest(out)).toBeLessThanOrEqual(columns);
      const header = out.split("\n")[0]!;
      expect(header.indexOf("Alpha Labs")).toBeLessThan(header.indexOf("Beta Peptides"));
    }
    expect((await run(item("vendor-compare", vendors), "table", { columns: 80 })).out).toMatchInlineSnapshot(`
      "ID  SLUG        NAME           DESCRIPTION                   COUNTRY  REGION
      v1  alpha-labs  Alpha Labs     Research chemicals supplier.  US       CA
      v2  beta        Beta Peptides  unknown                       DE       unknown
      "
    `);
  });

  it("vendor comparison: a sourced fact reads as its value (an object: a row per field, null: unknown in each), its source listed once below", async () => {
    const src = (d: string) => ({ type: "vendor_site", checked_at: d });
    const pair = [
      {
        id: "v1",
        name: "Alpha Labs",
        shipping: {
          destinations: { value: { coverage: "worldwide", countries: [] }, source: src("2025-05-26") },
          methods: { value: [{ name: "Express" }, { name: "Post" }], source: src("2025-05-26") },
        },
      },
      {
        id: "v2",
        name: "Beta Peptides",
        shipping: {
          destinations: { value: null, source: src("2025-04-14") },
          methods: { value: null, source: src("2025-04-14") },
        },
      },
    ];
    const { out } = await run(item("vendor-compare", { vendors: pair }), "table", { columns: 160 });
    expect(out).toMatchInlineSnapshot(`
      "                Alpha Labs  Beta Peptides
      ID              v1          v2

      Shipping
        Destinations
          Coverage    worldwide   unknown
          Countries   none        unknown
        Methods       Express     unknown
                      Post

      Sources
        Alpha Labs
          • vendor site, checked 2025-05-26: destinations, methods
        Beta Peptides
          • vendor site, checked 2025-04-14: destinations, methods
      "
    `);
  });

  it("search: peptides and content as two sections", async () => {
    const data = {
      peptides,
      content: [{ title: "What is BPC-157?", type: "faq", url: "https://example.test/faq/bpc" }],
    };
    const { out } = await run(item("search", data), "table", { columns: 80 });
    expect(out).toMatchInlineSnapshot(`
      "Peptides (2)
      ID           CATEGORIES                EVIDENCE      REGULATORY    FDA
      bpc-157      muscle-recovery           preclinical   experimental  not approved
      semaglutide  glp1-metabolic, fat-loss  FDA-approved  approved      approved

      Content (1)
      TITLE             TYPE  URL
      What is BPC-157?  FAQ   https://example.test/faq/bpc
      "
    `);
  });

  it("links the title with OSC 8 and still shows the address as text when hyperlinks are on", async () => {
    const { out } = await run(item("vendor-detail", vendorDetail), "table", { hyperlinks: true });
    expect(out.startsWith("\x1b]8;;https://example.test/vendors/alpha-labs\x1b\\Alpha Labs\x1b]8;;\x1b\\\n")).toBe(
      true,
    );
    // A terminal that shows no links still shows where the page is.
    expect(visible(out).split("\n")[1]).toBe("https://example.test/vendors/alpha-labs");
    const plain = (await run(item("vendor-detail", vendorDetail), "table")).out;
    expect(plain.split("\n")[1]).toBe("https://example.test/vendors/alpha-labs");
  });

  it("tolerates unknown shapes: nesting, empty values, lists of lists, scalars", async () => {
    const odd = {
      status: "ok",
      nested: { a: [1, 2, { b: { c: [{ d: 1 }] } }] },
      matrix: [[1, 2], [3]],
      empty: {},
      none: [],
      n: null,
      nd: "not_documented",
      flag: true,
    };
    const { out } = await run(item("generic", odd), "table", { columns: 60 });
    expect(out).toMatchInlineSnapshot(`
      "Status  ok
      Empty   none
      None    none
      N       unknown
      Nd      not documented
      Flag    yes

      Nested
        A
          • 1
          • 2
          • B
              C
                • D  1

      Matrix
        • 1, 2
        • 3
      "
    `);
    expect((await run(item("generic", "just text"), "table")).out).toBe("Value  just text\n");
    const deep = (n: number): unknown => (n === 0 ? { name: "bottom" } : { level: n, child: deep(n - 1) });
    const deepOut = (await run(item("generic", deep(40)), "table", { columns: 60 })).out;
    expect(widest(deepOut)).toBeLessThanOrEqual(60);
  });

  it("wraps long text to the width", async () => {
    const long = { name: "Long", summary: "word ".repeat(200), note: "x".repeat(300) };
    const { out } = await run(item("generic", long), "table", { columns: 50 });
    expect(widest(out)).toBeLessThanOrEqual(50);
    expect(out.replace(/\s+/g, "")).toContain("x".repeat(300));
  });
});

describe("sourced facts", () => {
  it("print inline with their source, money thresholds as received", async () => {
    const shipping = {
      vendor: { name: "Alpha Labs", url: "https://example.test/vendors/alpha-labs" },
      destinations: {
        value: ["US", "CA"],
        source: { type: "vendor_site", url: "https://alpha.example.test/shipping", checked_at: "2025-05-01" },
      },
      free_shipping: { available: true, threshold: { amount: "200.00", currency: "USD" } },
      returns: { value: null, source: null },
    };
    const { out } = await run(item("vendor-shipping", shipping), "table", { columns: 100 });
    expect(out.replace(/\s+/g, " ")).toContain(
      "US, CA (source: vendor site, checked 2025-05-01, https://alpha.example.test/shipping)",
    );
    expect(out).toMatch(/Threshold\s+200\.00 USD/);
    expect(out).toContain("Returns\n  unknown\n");
    expect(out.split("\n")[0]).toBe("Alpha Labs");
  });

  it("whose value is an object: its fields at the fact's level, then the source on one line", async () => {
    const src = { type: "vendor_site", url: "https://alpha.example.test/shipping", checked_at: "2025-05-26" };
    const shipping = {
      vendor: { name: "Alpha Labs" },
      free_shipping: { value: { available: false, threshold: null }, source: src },
      methods: { value: [{ name: "Express", carrier: null }], source: src },
    };
    const { out } = await run(item("vendor-shipping", shipping), "table", { columns: 100 });
    expect(out).toMatchInlineSnapshot(`
      "Alpha Labs

      Methods
        • Express
          Carrier  unknown

      Free shipping
        Available  no
        Threshold  unknown

      Sources
        • free shipping, methods: vendor site, checked 2025-05-26, https://alpha.example.test/shipping
      "
    `);
  });
});
