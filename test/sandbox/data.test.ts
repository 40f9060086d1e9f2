import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  CATEGORIES,
  EVIDENCE_CLASSIFICATIONS,
  EVIDENCE_LEVELS,
  PRODUCT_CATEGORIES,
  REGULATORY_STATUSES,
} from "../../src/api/enums.js";
import { BASE_COUNTS, DATA_NOW_ISO, buildDataset } from "../../src/sandbox/index.js";
import { shipsTo } from "../../src/sandbox/data/vendor-generator.js";
import { FORMS } from "../../src/sandbox/data/offers.js";

const data = buildDataset(1, 1);
const DOSE = /\b\d+(\.\d+)?\s?(mg|mcg|µg|iu|ml)\b/i;
const DAY = 86_400_000;

describe("sandbox data set", () => {
  it("has the documented sizes at scale 1 and multiplies them with scale", () => {
    const n = BASE_COUNTS;
    expect(data.peptides).toHaveLength(n.peptides);
    // A few studies are cited by more than one profile and counted once.
    expect(data.studies.length).toBeGreaterThanOrEqual(n.studies * 0.95);
    expect(data.studies.length).toBeLessThanOrEqual(n.studies);
    expect(data.vendors).toHaveLength(n.vendors);
    expect(data.offers).toHaveLength(n.offers);
    const ten = buildDataset(1, 10);
    expect(ten.peptides).toHaveLength(n.peptides * 10);
    expect(ten.studies.length).toBeGreaterThanOrEqual(n.studies * 10 * 0.95);
    expect(ten.vendors).toHaveLength(n.vendors * 10);
    expect(ten.offers).toHaveLength(n.offers * 10);
  });

  it("is the same for the same seed and different for another seed", () => {
    const again = buildDataset(1, 1);
    expect(JSON.stringify(again.peptides)).toBe(JSON.stringify(data.peptides));
    expect(JSON.stringify(again.studies)).toBe(JSON.stringify(data.studies));
    expect(JSON.stringify(again.offers)).toBe(JSON.stringify(data.offers));
    const other = buildDataset(2, 1);
    expect(other.peptides.map((p) => p.name)).not.toEqual(data.peptides.map((p) => p.name));
    expect(other.vendors.map((v) => v.name)).not.toEqual(data.vendors.map((v) => v.name));
  });

  it("covers every value of every enum", () => {
    for (const c of CATEGORIES)
      expect(
        data.peptides.some((p) => p.categories.includes(c)),
        c,
      ).toBe(true);
    for (const l of EVIDENCE_LEVELS)
      expect(
        data.peptides.some((p) => p.evidenceLevel === l),
        l,
      ).toBe(true);
    for (const s of REGULATORY_STATUSES)
      expect(
        data.peptides.some((p) => p.regulatoryStatus === s),
        s,
      ).toBe(true);
    for (const c of EVIDENCE_CLASSIFICATIONS)
      expect(
        data.studies.some((s) => s.evidenceClassification === c),
        c,
      ).toBe(true);
    const listedCats = new Set(data.listedOffers.map((o) => FORMS.find((f) => f.id === o.form)?.category));
    for (const c of PRODUCT_CATEGORIES) expect(listedCats.has(c), c).toBe(true);
  });

  it("uses identifiers that cannot exist: PMIDs from 90000000, DOIs under 10.5555, NCT from NCT99000000", () => {
    for (const s of data.studies) {
      if (s.pmid !== null) expect(Number(s.pmid)).toBeGreaterThanOrEqual(90_000_000);
      if (s.doi !== null) expect(s.doi.startsWith("10.5555/")).toBe(true);
      if (s.nctId !== null) expect(s.nctId).toMatch(/^NCT99\d{6}$/);
      expect(s.id).toMatch(/^(pmid-\d+|doi-10\.5555--\S+|nct-NCT99\d{6})$/);
    }
    const forms = new Set(data.studies.map((s) => s.id.split("-")[0]));
    expect([...forms].sort()).toEqual(["doi", "nct", "pmid"]);
    for (const v of data.vendors) expect(new URL(v.websiteUrl).hostname.endsWith(".example")).toBe(true);
  });

  it("cites at most 12 studies per profile, de-duplicated, with cited_by matching", () => {
    expect(new Set(data.studies.map((s) => s.id)).size).toBe(data.studies.length);
    for (const p of data.peptides) {
      expect(p.studyIds.length).toBeLessThanOrEqual(12);
      expect(new Set(p.studyIds).size).toBe(p.studyIds.length);
      for (const id of p.studyIds) expect(data.studyById.get(id)?.citedBy).toContain(p.id);
    }
    expect(data.studies.some((s) => s.citedBy.length > 1)).toBe(true);
  });

  it("holds no dose-like strings anywhere", () => {
    for (const scale of [1, 3]) {
      const d = buildDataset(7, scale);
      const json = JSON.stringify([d.peptides, d.studies, d.vendors, d.offers, d.content, d.products]);
      expect(json.match(DOSE)).toBeNull();
    }
  });

  it("exercises citation writers: non-ASCII authors and BibTeX specials in titles", () => {
    const authors = data.studies.flatMap((s) => s.authors);
    expect(authors.some((a) => /[^\x00-\x7f]/.test(a))).toBe(true);
    expect(authors.every((a) => /^[^,]+, .+$/.test(a))).toBe(true);
    for (const ch of ["{", "}", "&", "%", "$", "_"])
      expect(
        data.studies.some((s) => s.title.includes(ch)),
        ch,
      ).toBe(true);
  });

  it("holds offers that must not be listed, one for each rule, and lists none of them", () => {
    const now = Date.parse(DATA_NOW_ISO);
    const vendor = (id: string) => data.vendors.find((v) => v.id === id)!;
    const unshareable = data.offers.filter(
      (o) => !vendor(o.vendorId).pricesShareable && o.peptideId !== null && Date.parse(o.lastSeenAt) >= now - 30 * DAY,
    );
    const unmatched = data.offers.filter((o) => o.peptideId === null && vendor(o.vendorId).pricesShareable);
    const stale = data.offers.filter(
      (o) => Date.parse(o.lastSeenAt) < now - 30 * DAY && vendor(o.vendorId).pricesShareable && o.peptideId !== null,
    );
    for (const group of [unshareable, unmatched, stale]) {
      expect(group.length).toBeGreaterThan(0);
      for (const o of group) expect(data.listedOffers).not.toContain(o);
    }
    expect(data.listedOffers.length).toBeGreaterThan(100);
  });

  it("keeps prices as decimal strings, several currencies, with tiny, round and high-precision values", () => {
    for (const o of data.offers) {
      expect(typeof o.price).toBe("string");
      expect(o.price).toMatch(/^\d+(\.\d+)?$/);
    }
    const listed = data.listedOffers.map((o) => o.price);
    expect(listed).toContain("0.10");
    expect(listed).toContain("1249.00");
    expect(listed).toContain("1000000.00000001");
    expect(new Set(data.listedOffers.map((o) => o.currency)).size).toBeGreaterThanOrEqual(3);
  });

  it("never treats unknown coverage as shipping", () => {
    const unknown = data.vendors.filter((v) => v.shipping.destinations === null);
    expect(unknown.length).toBeGreaterThan(0);
    for (const v of unknown) expect(shipsTo(v, "US")).toBe("unknown");
    const ww = data.vendors.find(
      (v) => v.shipping.destinations === "worldwide" && v.shipping.exclusions.includes("US-HI"),
    );
    if (ww) {
      expect(shipsTo(ww, "US-HI")).toBe("no");
      expect(shipsTo(ww, "US-CA")).toBe("yes");
    }
  });

  it("resolves names, synonyms and aliases case-insensitively to the canonical profile", () => {
    const p = data.peptides.find((x) => x.synonyms.length > 0)!;
    for (const key of [p.id, p.name.toUpperCase(), p.synonyms[0]!.toLowerCase(), ...p.aliases])
      expect(data.resolvePeptide(key)?.id).toBe(p.id);
    expect(data.resolvePeptide("no-such-peptide")).toBeUndefined();
  });

  it("uses no Math.random in the sandbox sources", () => {
    const walk = (dir: string): string[] =>
      readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? walk(join(dir, f)) : [join(dir, f)]));
    const files = walk(new URL("../../src/sandbox", import.meta.url).pathname).filter((f) => f.endsWith(".ts"));
    expect(files.length).toBeGreaterThan(10);
    for (const f of files) expect(readFileSync(f, "utf8"), f).not.toMatch(/Math\.random/);
  });

  it("builds scale 100 (about 30,000 studies) within a few seconds", () => {
    const t = performance.now();
    const big = buildDataset(1, 100);
    const ms = performance.now() - t;
    expect(big.studies.length).toBeGreaterThan(29_000);
    expect(ms).toBeLessThan(20_000); // a loose bound that only catches a gross slowdown: timings belong in the benchmarks
  });
});
