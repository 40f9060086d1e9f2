/** Research and study endpoints answer per spec: fields, filters, sorts, fuzzy search, slugs. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVIDENCE_LEVELS, PEPTIDE_FIELDS, STUDY_FIELDS } from "../../src/api/enums.js";
import { buildDataset, startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FULL, collect, get } from "./helpers.js";

let sb: Sandbox;
const data = buildDataset(1, 1);
beforeAll(async () => {
  sb = await startSandbox({ limits: { anonymousPerMinute: 100_000 } });
});
afterAll(() => sb.close());

const DOSE = /\b\d+(\.\d+)?\s?(mg|mcg|µg|iu|ml)\b/i;
const FORBIDDEN = /\b(dose|dosing|dosage|regimen|cycle|reconstitut\w*|inject(ion)? (site )?instructions?)\b/i;
const named = data.peptides.find((p) => p.synonyms.length > 0)!;

describe("peptides", () => {
  it("lists summaries with exactly the spec field names, sorted by name", async () => {
    const { items } = await collect(sb, "/peptides?limit=100");
    expect(items).toHaveLength(data.peptides.length);
    for (const p of items) {
      expect(Object.keys(p).sort()).toEqual([...PEPTIDE_FIELDS].sort());
      expect(EVIDENCE_LEVELS).toContain(p.evidence.level);
      expect(p.url).toBe(`https://research.example/peptides/${p.id}`);
      expect(p.api_url).toBe(`${sb.baseUrl}/peptides/${p.id}`);
    }
    const names = items.map((p) => p.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect(JSON.stringify(items)).toContain('"not_documented"');
  });

  it("returns only the requested fields, id always included", async () => {
    const r = await get(sb, "/peptides?fields=name,evidence&limit=3");
    for (const p of r.body.data) expect(Object.keys(p)).toEqual(["id", "name", "evidence"]);
    const s = await get(sb, "/studies?fields=title&limit=3");
    for (const st of s.body.data) expect(Object.keys(st)).toEqual(["id", "title"]);
  });

  it("filters by category, evidence level, regulatory status and research area", async () => {
    const cat = await collect(sb, "/peptides?category=cosmetic&limit=100");
    expect(cat.items.length).toBeGreaterThan(0);
    for (const p of cat.items) expect(p.categories).toContain("cosmetic");
    const ev = await collect(sb, "/peptides?evidence_level=preclinical&limit=100");
    for (const p of ev.items) expect(p.evidence.level).toBe("preclinical");
    const reg = await collect(sb, "/peptides?regulatory_status=withdrawn&limit=100");
    expect(reg.items.length).toBeGreaterThan(0);
    for (const p of reg.items) expect(p.regulatory_status).toBe("withdrawn");
    const area = (await get(sb, "/research-areas?limit=1")).body.data[0];
    const byArea = await collect(
      sb,
      `/peptides?research_area=${encodeURIComponent(area.name.toUpperCase())}&limit=100`,
    );
    expect(byArea.items.map((p) => p.id).sort()).toEqual(area.peptides.map((p: { id: string }) => p.id).sort());
  });

  it("sorts by -name, evidence (strongest first) and updated (newest first)", async () => {
    const desc = (await collect(sb, "/peptides?sort=-name&limit=100")).items.map((p) => p.name.toLowerCase());
    expect(desc).toEqual([...desc].sort().reverse());
    const ev = (await collect(sb, "/peptides?sort=evidence&limit=100")).items.map((p) =>
      EVIDENCE_LEVELS.indexOf(p.evidence.level),
    );
    expect(ev).toEqual([...ev].sort((a, b) => a - b));
    const up = (await collect(sb, "/peptides?sort=updated&limit=100")).items.map((p) => p.content_reviewed_at);
    expect(up).toEqual([...up].sort().reverse());
  });

  it("searches names, synonyms and aliases fuzzily: case, hyphens, spaces and typos", async () => {
    const base = named.name.replace(/-\d+$/, "");
    const marker = named.name.slice(base.length + 1);
    const typo = base.slice(0, 2) + base[3] + base[2] + base.slice(4); // swapped letters
    const dropped = base.slice(0, 3) + base.slice(4); // one letter missing
    for (const q of [
      named.name.toUpperCase(),
      `${base} ${marker}`,
      `${base}${marker}`,
      typo,
      dropped,
      named.synonyms[0]!,
      named.aliases[0]!.toLowerCase(),
    ]) {
      const r = await get(sb, `/peptides?search=${encodeURIComponent(q)}`);
      expect(r.status).toBe(200);
      expect(
        r.body.data.map((p: { id: string }) => p.id),
        q,
      ).toContain(named.id);
    }
    const exact = await get(sb, `/peptides?search=${encodeURIComponent(named.name)}`);
    expect(exact.body.data[0].id).toBe(named.id);
    expect((await get(sb, "/peptides?search=qqqqqqqqqqqq")).body.data).toEqual([]);
  });

  it("resolves a profile by id, name, synonym or alias to the canonical profile, without dose content", async () => {
    for (const slug of [named.id, named.name, named.synonyms[0]!, named.aliases[0]!.toLowerCase()]) {
      const r = await get(sb, `/peptides/${encodeURIComponent(slug)}`);
      expect(r.status).toBe(200);
      expect(r.body.data.id).toBe(named.id);
    }
    const p = (await get(sb, `/peptides/${named.id}`)).body.data;
    for (const key of ["mechanism", "chemical_properties", "safety", "regulatory", "references", "synonyms", "aliases"])
      expect(p).toHaveProperty(key);
    expect(p.evidence).toHaveProperty("human");
    expect(p.evidence).toHaveProperty("preclinical");
    const text = JSON.stringify(p);
    expect(text).not.toMatch(DOSE);
    expect(text).not.toMatch(FORBIDDEN);
  });

  it("serves the research summary, regulatory status, categories and research areas", async () => {
    const r = (await get(sb, `/peptides/${named.id}/research`)).body.data;
    expect(Array.isArray(r.clinical_evidence.human_trials)).toBe(true);
    expect(r.peptide).toEqual({ id: named.id, name: named.name, url: `https://research.example/peptides/${named.id}` });
    for (const key of [
      "mechanisms",
      "preclinical_evidence",
      "secondary_reports",
      "safety",
      "limitations",
      "research_gaps",
      "references",
    ])
      expect(r).toHaveProperty(key);
    const trials = await Promise.all(
      data.peptides.map(
        async (p) => (await get(sb, `/peptides/${p.id}/research`)).body.data.clinical_evidence.human_trials.length,
      ),
    );
    expect(trials.some((n) => n > 0)).toBe(true);
    const reg = (await get(sb, `/regulatory-status/${named.aliases[0]}`)).body.data;
    for (const key of ["fda_status", "wada_status", "availability", "development_stage", "reviewed_at"])
      expect(reg).toHaveProperty(key);
    expect((await get(sb, "/regulatory-status/nothing-here")).status).toBe(404);
    const cats = (await get(sb, "/categories")).body.data;
    expect(cats.map((c: { id: string }) => c.id)).toEqual([
      "fat-loss",
      "cognitive",
      "muscle-recovery",
      "longevity",
      "glp1-metabolic",
      "cosmetic",
      "experimental",
    ]);
    const total = cats.reduce((s: number, c: { peptides: unknown[] }) => s + c.peptides.length, 0);
    expect(total).toBeGreaterThanOrEqual(40);
    const areas = (await collect(sb, "/research-areas?limit=100")).items;
    const counts = areas.map((a) => a.study_count);
    expect(counts).toEqual([...counts].sort((a, b) => b - a));
    const tissue = (await get(sb, "/research-areas?search=TISSUE")).body.data;
    expect(tissue.length).toBeGreaterThan(0);
    for (const a of tissue) expect(a.name.toLowerCase()).toContain("tissue");
  });

  it("searches profiles and educational content, never dosing or commerce pages", async () => {
    const r = await get(sb, `/search?q=${encodeURIComponent(named.name)}`);
    expect(r.body.data.peptides[0].id).toBe(named.id);
    expect(
      r.body.data.content.some(
        (c: { type: string; url: string }) => c.type === "peptide_faq" && c.url.includes(named.id),
      ),
    ).toBe(true);
    const types = new Set<string>();
    for (const q of ["evidence", "course", "review", "research overview", "affiliate"]) {
      for (const c of (await get(sb, `/search?q=${encodeURIComponent(q)}&types=content&limit=25`)).body.data.content)
        types.add(c.type);
    }
    expect([...types].sort()).toEqual(["article", "course", "site_faq"]);
    for (const q of ["dosing", "protocol", "buy", "discount codes", "price guide"]) {
      const s = await get(sb, `/search?q=${encodeURIComponent(q)}&limit=25`);
      for (const c of s.body.data.content) expect(c.url, q).not.toContain("/withheld/");
    }
    const only = await get(sb, "/search?q=repair&types=peptides");
    expect(only.body.data.content).toEqual([]);
    expect((await get(sb, "/search?q=repair&limit=1")).body.data.peptides.length).toBeLessThanOrEqual(1);
  });
});

describe("studies", () => {
  it("lists index entries with exactly the spec field names and valid ids", async () => {
    const { items } = await collect(sb, "/studies?limit=100");
    expect(items.length).toBe(data.studies.length);
    for (const s of items) {
      expect(Object.keys(s).sort()).toEqual([...STUDY_FIELDS].sort());
      expect(s.id).toMatch(/^(pmid-9\d{7}|doi-10\.5555--.+|nct-NCT99\d{6})$/);
      expect(s.source_url).toMatch(/^https:\/\/(pubmed|doi|trials)\.example\//);
      expect(typeof s.evidence_classification_label).toBe("string");
    }
    const years = items.map((s) => s.publication_year);
    expect(years).toEqual([...years].sort((a, b) => b - a));
  });

  it("filters by peptide, classification, years and title words; sorts oldest and title", async () => {
    const byPeptide = await collect(sb, `/studies?peptide=${encodeURIComponent(named.name)}&limit=100`);
    expect(byPeptide.items.map((s) => s.id).sort()).toEqual([...named.studyIds].sort());
    const cls = await collect(sb, "/studies?evidence_classification=in_vitro,regulatory_label&limit=100");
    expect(new Set(cls.items.map((s) => s.evidence_classification))).toEqual(new Set(["in_vitro", "regulatory_label"]));
    const yrs = await collect(sb, "/studies?year_from=2010&year_to=2012&limit=100");
    expect(yrs.items.length).toBeGreaterThan(0);
    for (const s of yrs.items) expect(s.publication_year >= 2010 && s.publication_year <= 2012).toBe(true);
    const words = await collect(sb, "/studies?search=RODENT%20model&limit=100");
    expect(words.items.length).toBeGreaterThan(0);
    for (const s of words.items) expect(s.title.toLowerCase()).toMatch(/rodent model/);
    const oldest = (await collect(sb, "/studies?sort=oldest&limit=100")).items.map((s) => s.publication_year);
    expect(oldest).toEqual([...oldest].sort((a, b) => a - b));
    const titles = (await collect(sb, "/studies?sort=title&limit=100")).items.map((s) => s.title.toLowerCase());
    expect(titles).toEqual([...titles].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it("serves a study by each of its id forms, with the citing profiles' summaries", async () => {
    const s = data.studies.find((x) => x.pmid && x.doi && x.nctId)!;
    const forms = [`pmid-${s.pmid}`, `doi-${s.doi!.replaceAll("/", "--")}`, `nct-${s.nctId}`];
    for (const id of forms) {
      const r = await get(sb, `/studies/${encodeURIComponent(id)}`);
      expect(r.status, id).toBe(200);
      expect(r.body.data.id).toBe(s.id);
      expect(r.body.data.finding_summary.length).toBeGreaterThan(10);
      expect(r.body.data.citing_peptides.map((p: { id: string }) => p.id)).toEqual(s.citedBy);
      expect(Object.keys(r.body.data.citing_peptides[0]).sort()).toEqual([...PEPTIDE_FIELDS].sort());
    }
    expect((await get(sb, "/studies/pmid-12345678")).status).toBe(404);
    expect((await get(sb, "/studies/doi-10.5555--nothing")).status).toBe(404);
    expect((await get(sb, "/studies/nct-NCT01234567")).status).toBe(404);
  });

  it("is served to keys with studies:read and without a key", async () => {
    expect((await get(sb, "/studies?limit=1", { key: FULL })).status).toBe(200);
    expect((await get(sb, "/studies?limit=1", { key: "sbx_research_key", header: "x-api-key" })).status).toBe(200);
  });
});
