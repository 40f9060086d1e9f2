/**
 * Every parameter constraint of the spec, over HTTP: accepted at its bounds, refused
 * (400 with the error envelope naming the parameter) just past them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CATEGORIES,
  EVIDENCE_LEVELS,
  PEPTIDE_SORTS,
  PRODUCT_CATEGORIES,
  REGULATORY_STATUSES,
  STUDY_SORTS,
  VENDOR_SORTS,
} from "../../src/api/enums.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FULL, get } from "./helpers.js";

let sb: Sandbox;
let vendorIds: string[];
beforeAll(async () => {
  sb = await startSandbox();
  vendorIds = (await get(sb, "/vendors?limit=5&sort=name", { key: FULL })).body.data.map((v: { id: string }) => v.id);
});
afterAll(() => sb.close());

const s = (n: number) => "a".repeat(n);
const enc = encodeURIComponent;

type Case = [path: string, status: number, param?: string, code?: string];

const cases: Case[] = [
  // /peptides
  ["/peptides?limit=0", 400, "limit"],
  ["/peptides?limit=1", 200],
  ["/peptides?limit=100", 200],
  ["/peptides?limit=101", 400, "limit"],
  ["/peptides?limit=2.5", 400, "limit"],
  ["/peptides?limit=abc", 400, "limit"],
  [`/peptides?search=${s(200)}`, 200],
  [`/peptides?search=${s(201)}`, 400, "search"],
  ["/peptides?search=", 400, "search"],
  [`/peptides?research_area=${s(80)}`, 200],
  [`/peptides?research_area=${s(81)}`, 400, "research_area"],
  ...CATEGORIES.map((c): Case => [`/peptides?category=${c}`, 200]),
  ["/peptides?category=weight-loss", 400, "category"],
  ...EVIDENCE_LEVELS.map((c): Case => [`/peptides?evidence_level=${c}`, 200]),
  ["/peptides?evidence_level=strong", 400, "evidence_level"],
  ...REGULATORY_STATUSES.map((c): Case => [`/peptides?regulatory_status=${c}`, 200]),
  ["/peptides?regulatory_status=banned", 400, "regulatory_status"],
  ...PEPTIDE_SORTS.map((c): Case => [`/peptides?sort=${enc(c)}`, 200]),
  ["/peptides?sort=newest", 400, "sort"],
  ["/peptides?fields=name,evidence", 200],
  ["/peptides?fields=name,dose", 400, "fields"],
  ["/peptides?colour=red", 400, "colour", "unknown_parameter"],
  ["/peptides?limit=1&limit=2", 400, "limit"],
  // /research-areas
  [`/research-areas?search=${s(80)}`, 200],
  [`/research-areas?search=${s(81)}`, 400, "search"],
  ["/research-areas?limit=100", 200],
  ["/research-areas?limit=101", 400, "limit"],
  ["/categories?limit=0", 400, "limit"],
  ["/categories?search=x", 400, "search", "unknown_parameter"],
  // /search
  ["/search", 400, "q", "missing_parameter"],
  ["/search?q=", 400, "q"],
  [`/search?q=${s(200)}`, 200],
  [`/search?q=${s(201)}`, 400, "q"],
  ["/search?q=repair&limit=1", 200],
  ["/search?q=repair&limit=25", 200],
  ["/search?q=repair&limit=26", 400, "limit"],
  ["/search?q=repair&limit=0", 400, "limit"],
  ["/search?q=repair&types=peptides,content", 200],
  ["/search?q=repair&types=content", 200],
  ["/search?q=repair&types=vendors", 400, "types"],
  // /studies
  ["/studies?year_from=1899", 400, "year_from"],
  ["/studies?year_from=1900", 200],
  ["/studies?year_to=2100", 200],
  ["/studies?year_to=2101", 400, "year_to"],
  ["/studies?year_from=2020&year_to=2010", 400, "year_from"],
  ["/studies?evidence_classification=human_controlled_trial,in_vitro", 200],
  ["/studies?evidence_classification=rumour", 400, "evidence_classification"],
  ["/studies?evidence_classification=a%20b", 400, "evidence_classification"],
  ...STUDY_SORTS.map((c): Case => [`/studies?sort=${c}`, 200]),
  ["/studies?sort=name", 400, "sort"],
  [`/studies?search=${s(200)}`, 200],
  [`/studies?search=${s(201)}`, 400, "search"],
  ["/studies?fields=title,doi", 200],
  ["/studies?fields=title,abstract", 400, "fields"],
  ["/studies?limit=101", 400, "limit"],
  ["/studies?peptide=no-such-peptide", 404],
  // no-parameter endpoints
  ["/health?verbose=1", 400, "verbose", "unknown_parameter"],
  ["/peptides/SBX-1001?x=1", 400, "x", "unknown_parameter"],
  ["/peptides/SBX-1001/studies?limit=12", 200],
  ["/peptides/SBX-1001/studies?limit=101", 400, "limit"],
];

const keyedCases: Case[] = [
  ["/vendors?min_rating=-0.1", 400, "min_rating"],
  ["/vendors?min_rating=0", 200],
  ["/vendors?min_rating=5", 200],
  ["/vendors?min_rating=5.1", 400, "min_rating"],
  ["/vendors?min_rating=high", 400, "min_rating"],
  ["/vendors?country=US", 200],
  ["/vendors?country=us", 200],
  ["/vendors?country=USA", 400, "country"],
  ["/vendors?country=U1", 400, "country"],
  ["/vendors?ships_to=US", 200],
  ["/vendors?ships_to=US-CA", 200],
  ["/vendors?ships_to=AU-TAS", 200],
  ["/vendors?ships_to=US-CALI", 400, "ships_to"],
  ["/vendors?ships_to=U", 400, "ships_to"],
  ["/vendors?ships_to=US_CA", 400, "ships_to"],
  ...PRODUCT_CATEGORIES.map((c): Case => [`/vendors?product_category=${c}`, 200]),
  ["/vendors?product_category=tablets", 400, "product_category"],
  ...VENDOR_SORTS.map((c): Case => [`/vendors?sort=${enc(c)}`, 200]),
  ["/vendors?sort=commission", 400, "sort"],
  ["/vendors?limit=0", 400, "limit"],
  ["/vendors?limit=100", 200],
  ["/vendors?limit=101", 400, "limit"],
  [`/vendors?search=${s(200)}`, 200],
  [`/vendors?search=${s(201)}`, 400, "search"],
  ["/vendors?fields=name,rating", 200],
  ["/vendors?fields=name,commission", 400, "fields"],
  ["/vendors?peptide=no-such-peptide", 404],
  ["/vendors/compare", 400, "ids", "missing_parameter"],
  ["/prices?currency=EUR&campaign=spring", 200],
  ["/prices?currency=EURO", 400, "currency"],
  ["/prices?limit=101", 400, "limit"],
  ["/prices?ships_to=USA", 400, "ships_to"],
  ["/prices?peptide=no-such-peptide", 404],
  ["/products?currency=GBP&anything=1", 200],
  ["/products?currency=12", 400, "currency"],
];

describe("parameter constraints", () => {
  it.each(cases)("%s -> %i", async (path, status, param, code) => {
    const r = await get(sb, path, { key: FULL });
    expect(r.status, r.text).toBe(status);
    if (status === 400) {
      expect(r.body.error.code).toBe(code ?? "invalid_parameter");
      expect(r.body.error.message).toContain(param);
      expect(r.body.error.request_id).toBe(r.headers.get("x-request-id"));
    }
  });

  it.each(keyedCases)("%s -> %i (keyed)", async (path, status, param, code) => {
    const r = await get(sb, path, { key: FULL });
    expect(r.status, r.text).toBe(status);
    if (status === 400) {
      expect(r.body.error.code).toBe(code ?? "invalid_parameter");
      expect(r.body.error.message).toContain(param);
    }
  });

  it("compare takes 2 to 4 ids and 404s an unknown one", async () => {
    const ids = (n: number) => vendorIds.slice(0, n).join(",");
    expect((await get(sb, `/vendors/compare?ids=${ids(1)}`, { key: FULL })).status).toBe(400);
    expect((await get(sb, `/vendors/compare?ids=${ids(2)}`, { key: FULL })).status).toBe(200);
    expect((await get(sb, `/vendors/compare?ids=${ids(4)}`, { key: FULL })).status).toBe(200);
    const five = await get(sb, `/vendors/compare?ids=${ids(5)}`, { key: FULL });
    expect(five.status).toBe(400);
    expect(five.body.error.message).toContain("ids");
    const unknown = await get(sb, `/vendors/compare?ids=${vendorIds[0]},vnd_nope`, { key: FULL });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe("not_found");
  });

  it("names what a parameter accepts", async () => {
    const r = await get(sb, "/peptides?category=weight-loss");
    expect(r.body.error.message).toContain("fat-loss");
    const y = await get(sb, "/studies?year_to=2101");
    expect(y.body.error.message).toContain("1900 to 2100");
  });
});
