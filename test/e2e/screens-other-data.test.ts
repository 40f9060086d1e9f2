/**
 * Tables and cards with data other than the sandbox's, from a loopback server: product
 * names of 90 characters, three currencies, ids of 40 characters, CJK and emoji names (a
 * ZWJ sequence among them), long content titles that start alike. At 60, 80, 120 and 200
 * columns every row keeps its handle (the id the next command takes; a product's peptide
 * and form; a content item's address), a filter's column is left out whatever the data,
 * short facts stay while prose is cut, a cut list is said in the note, and no line passes
 * the width but to keep an address whole. The screens are kept in __screens__/other-*.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";
import { visible } from "../helpers/terminal.js";
import { displayWidth } from "../../src/output/width.js";

const LONG = "Ultra-Pure Research Grade Lyophilized Peptide Reference Standard Kit with Certificate";
const PEPTIDES = [
  { id: "peptide-with-a-rather-long-identifier-001", name: "ペプチド研究用標準品 (長い名前の化合物)" },
  { id: "👩‍🔬-lab-peptide", name: "Lab 👩‍🔬 Peptide" },
  { id: "bpc-157", name: "BPC-157" },
];
const products = (peptide = PEPTIDES[0]!) =>
  ["lyophilized-powder", "capsules", "nasal-spray"].map((form, i) => ({
    id: `prd_${peptide.id}_${form}`,
    peptide: { id: peptide.id, name: peptide.name },
    form,
    name: `${peptide.name} ${LONG} (${form})`,
    price_ranges: [
      { currency: "USD", min: "1049.00", max: "1249.99", offer_count: 3 },
      { currency: "EUR", min: "989.50", max: "1150.00", offer_count: 2 },
      { currency: "JPY", min: "158000", max: "172000", offer_count: 1 + i },
    ],
    vendor_count: 6 + i,
  }));
const STUDIES = Array.from({ length: 4 }, (_, i) => ({
  id: `doi-10.5555--very.long.journal.identifier.2024.${1000 + i}`,
  title: `What has ${PEPTIDES[0]!.name} been studied for in the long run, in study number ${i + 1}?`,
  publication_year: 2020 + i,
  journal: "Journal of Extraordinarily Long Titles in Peptide Research",
  evidence_classification: i % 2 ? "human_controlled_trial" : "animal_or_lab",
}));
const CATEGORIES = [
  {
    id: "cognitive",
    name: "Cognitive 認知",
    peptide_count: 12,
    peptides: Array.from({ length: 12 }, (_, i) => ({ id: `cog-${i}`, name: `Cognitivapeptide-${i} 🧠` })),
  },
];
const CONTENT = Array.from({ length: 3 }, (_, i) => ({
  id: `faq-${i}`,
  type: "peptide_faq",
  title: `What has ${PEPTIDES[0]!.name} been studied for, question ${i}?`,
  url: `https://research.example.test/learn/questions/a-long-address-for-question-number-${i}`,
  peptide: i === 0 ? null : { id: PEPTIDES[0]!.id, name: PEPTIDES[0]!.name },
}));

let api: TestServer;
const tmp = scratch("pep-other-data-");
beforeAll(async () => {
  const page = (items: unknown[]) => envelope(items, { pagination: { next_cursor: null, has_more: false } });
  api = await startServer((req, res) => {
    const q = new URLSearchParams(req.url.split("?")[1] ?? "");
    if (req.path === "/v1/products") {
      const p = PEPTIDES.find((x) => x.id === q.get("peptide"));
      return sendJson(res, 200, page(p ? products(p) : [...products(), ...products(PEPTIDES[1])]));
    }
    if (req.path === "/v1/studies") return sendJson(res, 200, page(STUDIES));
    if (req.path === "/v1/categories") return sendJson(res, 200, page(CATEGORIES));
    if (req.path === "/v1/search")
      return sendJson(
        res,
        200,
        envelope({ peptides: PEPTIDES.map((p) => ({ ...p, categories: ["cognitive"] })), content: CONTENT }),
      );
    if (req.path === "/v1/peptides")
      return sendJson(
        res,
        200,
        page(PEPTIDES.map((p) => ({ ...p, categories: ["cognitive"], evidence: { level: "preclinical" } }))),
      );
    sendJson(res, 404, { error: { code: "not_found", message: "no such path", request_id: "req_1" } });
  });
});
afterAll(async () => {
  await api?.close();
  tmp.cleanup();
});

const WIDTHS = [60, 80, 120, 200] as const;

async function screen(argv: readonly string[], columns: number): Promise<{ out: string; note: string }> {
  const r = await runPep([...argv, "--base-url", `${api.url}/v1`, "--no-pager", "--no-cache"], {
    env: { ...tmp.env, PEP_API_KEY: "k_test_other", NO_COLOR: "1" },
    tty: true,
    columns,
  });
  expect(r.code, r.err).toBe(0);
  const out = visible(r.out);
  for (const line of out.split("\n"))
    if (displayWidth(line) > columns) expect(line, `wider than ${columns}`).toMatch(/https?:\/\/\S{20,}/);
  const err = r.err.split("\n");
  const at = err.findIndex((l) => l.startsWith("note: "));
  const note = at < 0 ? "" : err.slice(at).join("\n").trimEnd();
  for (const l of note.split("\n")) expect(displayWidth(l), l).toBeLessThanOrEqual(columns);
  return { out, note };
}

const rowsOf = (out: string) => out.trimEnd().split("\n").slice(1);

describe.each(WIDTHS)("other data at %i columns", (columns) => {
  it("products: every row keeps its peptide, form and prices; the name is cut first", async () => {
    const { out, note } = await screen(["products"], columns);
    await expect(`${out}--- stderr\n${note}\n`).toMatchFileSnapshot(`__screens__/other-products-${columns}.txt`);
    const header = out.split("\n")[0]!;
    // The handle at every width; the prices, three currencies whole, once the ids leave room.
    // (41-character ids and three currencies: at 60 the id alone fits beside nothing else.)
    for (const h of ["PEPTIDE", ...(columns >= 80 ? ["FORM"] : []), ...(columns >= 200 ? ["PRICES"] : [])])
      expect(header, h).toContain(h);
    for (const row of rowsOf(out)) expect(row).toMatch(/peptide-with-a-rather-long-identifier-001|👩‍🔬-lab-peptide/);
    if (columns >= 200) expect(out).toContain("158000–172000 JPY");
    else expect(note.replace(/\n/g, " ")).toContain("price_ranges");
  });

  it("products --peptide: the filter's column is left out, the prices stay", async () => {
    const { out } = await screen(["products", "--peptide", PEPTIDES[0]!.id], columns);
    const header = out.split("\n")[0]!;
    expect(header).not.toContain("PEPTIDE");
    expect(header).toContain("FORM");
    if (columns >= 80) expect(header).toContain("PRICES");
  });

  it("studies list: the id and the year stay, the title is cut before them", async () => {
    const { out, note } = await screen(["studies", "list"], columns);
    await expect(`${out}--- stderr\n${note}\n`).toMatchFileSnapshot(`__screens__/other-studies-${columns}.txt`);
    const header = out.split("\n")[0]!;
    expect(header).toMatch(/^ID\s+YEAR/);
    for (const s of STUDIES) expect(out).toContain(s.id);
  });

  it("categories: a cut list of peptides is said in the note", async () => {
    const { out, note } = await screen(["categories"], columns);
    expect(out.split("\n")[0]).toMatch(/^ID\s+NAME/);
    if (out.includes("…")) expect(note.replace(/\n/g, " ")).toContain("peptides cut to fit");
  });

  it("search: each content row keeps its address; a peptide of none reads none", async () => {
    const { out } = await screen(["search", "study"], columns);
    for (const c of CONTENT) expect(out).toContain(c.url);
    for (const p of PEPTIDES) expect(out).toContain(p.id);
    expect(out).not.toMatch(/\bunknown\b/);
    // The ZWJ of the scientist emoji is part of it: shown as it is.
    expect(out).toContain("👩‍🔬");
    expect(out).not.toContain("<U+200D>");
  });
});
