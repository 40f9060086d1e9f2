/**
 * The synthetic data holds together, over seeds and scales nobody tuned for: every citation
 * is about its profile, evidence levels and counts agree with the studies cited, a study's
 * title, type, model and classification agree, and chemistry follows from the sequence.
 * The rules are those of scripts/sandbox-audit.mjs (written apart from the generator); the
 * chemistry is checked once more against mf-parser, a chemistry library.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { MF } from "mf-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditResearch,
  averageMass,
  hillFormula,
  parseFormula,
  peptideFormula,
  type AuditReport,
} from "../../scripts/sandbox-audit.mjs";
import { buildDataset, startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { chemistryOf } from "../../src/sandbox/data/chemistry.js";
import type { Dataset } from "../../src/sandbox/data/index.js";
import { STUDY_KINDS } from "../../src/sandbox/data/study-kinds.js";
import { peptideProfile, peptideSummary, studyEntry } from "../../src/sandbox/handlers/views.js";
import { collect, FULL, get } from "./helpers.js";

const BASE = "http://127.0.0.1:4010/v1";
const SEEDS = [1, 7, 23, 90210];
const SCALES = [0.2, 1, 10];
const DOSE = /\b\d+(\.\d+)?\s?(mg|mcg|µg|iu|ml)\b/i;

/** The API's answers for a data set, as the handlers build them. */
function answers(data: Dataset) {
  return {
    profiles: data.peptides.map((p) => peptideProfile(data, p, BASE)),
    summaries: data.peptides.map((p) => peptideSummary(data, p, BASE)),
    studies: data.studies.map(studyEntry),
  };
}

const sets = SEEDS.flatMap((seed) => SCALES.map((scale) => ({ seed, scale })));
const built = new Map<string, { data: Dataset; report: AuditReport; api: ReturnType<typeof answers> }>();
const of = (seed: number, scale: number) => {
  const key = `${seed}/${scale}`;
  let entry = built.get(key);
  if (!entry) {
    const data = buildDataset(seed, scale);
    const api = answers(data);
    entry = { data, api, report: auditResearch(api) };
    built.set(key, entry);
  }
  return entry;
};

describe.each(sets)("sandbox data at seed $seed, scale $scale", ({ seed, scale }) => {
  it("breaks none of the audit's rules", () => {
    const { report, data } = of(seed, scale);
    expect(report.profiles).toBe(data.peptides.length);
    expect(report.studies).toBe(data.studies.length);
    expect(report.citations).toBeGreaterThanOrEqual(report.studies);
    expect(report.violations.slice(0, 5)).toEqual([]);
  });

  it("keeps the documented counts, with two-peptide studies named and cited by both", () => {
    const { data } = of(seed, scale);
    const n = (base: number, min: number) => Math.max(min, Math.round(base * scale));
    expect(data.peptides).toHaveLength(n(40, 8));
    expect(data.studies).toHaveLength(n(300, 60));
    expect(data.vendors).toHaveLength(n(25, 12));
    const pairs = data.studies.filter((s) => s.citedBy.length === 2);
    if (scale >= 1) expect(pairs.length).toBeGreaterThan(0);
    for (const s of pairs) {
      for (const id of s.citedBy) {
        const name = data.peptideById.get(id)!.name;
        expect(s.title).toContain(name);
        expect(s.findingSummary).toContain(name);
      }
    }
    expect(data.studies.every((s) => s.citedBy.length >= 1 && s.citedBy.length <= 2)).toBe(true);
  });

  it("holds no dose figures, only .example hosts and identifiers that cannot exist", () => {
    const { data, api } = of(seed, scale);
    const text = JSON.stringify([api, data.vendors, data.offers, data.content, data.products]);
    expect(text.match(DOSE)).toBeNull();
    for (const m of text.matchAll(/https?:\/\/([^/"\s:]+)/g))
      expect(m[1] === "127.0.0.1" || m[1]!.endsWith(".example"), m[0]).toBe(true);
    for (const s of data.studies) {
      if (s.pmid !== null) expect(Number(s.pmid)).toBeGreaterThanOrEqual(90_000_000);
      if (s.doi !== null) expect(s.doi.startsWith("10.5555/")).toBe(true);
      if (s.nctId !== null) expect(s.nctId).toMatch(/^NCT99\d{6}$/);
    }
    for (const p of data.peptides) expect(p.name).toMatch(/^[A-Z][a-z]+-\d+$/);
    for (const v of data.vendors) expect(new URL(v.websiteUrl).hostname.endsWith(".example")).toBe(true);
  });

  it("states the same formula and weight as a chemistry library computes from the sequence", () => {
    const { data } = of(seed, scale);
    const documented = data.peptides.filter((p) => p.chemical.sequence !== "not_documented");
    expect(documented.length).toBeGreaterThan(0);
    for (const p of documented.slice(0, 60)) {
      const residues = (p.chemical.sequence as string).split("-");
      const info = new MF(`H${residues.join("")}OH`).getInfo();
      expect(p.chemical.molecularFormula, p.id).toBe(info.mf);
      // mf-parser uses its own element masses; they agree with the stated ones to 0.005%.
      expect(Math.abs((p.chemical.molecularWeightDa as number) - info.mass) / info.mass, p.id).toBeLessThan(5e-5);
    }
  });
});

describe("the study design table", () => {
  it("is used whole: every row appears at scale 10", () => {
    const { data } = of(1, 10);
    for (const k of STUDY_KINDS) {
      expect(
        data.studies.some(
          (s) =>
            s.studyType === k.studyType &&
            s.researchModel === k.researchModel &&
            s.evidenceClassification === k.classification,
        ),
        `${k.studyType} (${k.researchModel})`,
      ).toBe(true);
    }
  });

  it("keeps human research away from preclinical and insufficient profiles, and gives each level what it rests on", () => {
    for (const { seed, scale } of sets) {
      const { data } = of(seed, scale);
      for (const p of data.peptides) {
        const cited = p.studyIds.map((id) => data.studyById.get(id)!);
        const classes = new Set(cited.map((s) => s.evidenceClassification));
        if (p.evidenceLevel === "preclinical" || p.evidenceLevel === "insufficient")
          expect(
            cited.filter((s) => s.researchModel === "human"),
            p.id,
          ).toEqual([]);
        if (p.evidenceLevel === "fda-approved") expect(classes.has("regulatory_label"), p.id).toBe(true);
        else expect(classes.has("regulatory_label"), p.id).toBe(false);
      }
    }
  });
});

describe("chemistry", () => {
  // Published formulas and average weights of three linear peptides (one with Met, one with Cys).
  const KNOWN = [
    { seq: ["Tyr", "Gly", "Gly", "Phe", "Leu"], mf: "C28H37N5O7", mw: 555.62 },
    { seq: ["Tyr", "Gly", "Gly", "Phe", "Met"], mf: "C27H35N5O7S", mw: 573.66 },
    { seq: ["Cys", "Gly"], mf: "C5H10N2O3S", mw: 178.21 },
    { seq: ["Asp", "Arg", "Val", "Tyr", "Ile", "His", "Pro", "Phe"], mf: "C50H71N13O12", mw: 1046.18 },
  ];

  it("gives the published formula and weight (to 0.02 Da) of known sequences", () => {
    for (const k of KNOWN) {
      const c = chemistryOf(k.seq);
      expect(c.molecularFormula).toBe(k.mf);
      expect(Math.abs(c.molecularWeightDa - k.mw)).toBeLessThan(0.02);
      expect(c.sequence).toBe(k.seq.join("-"));
      expect(c.sequenceLength).toBe(k.seq.length);
      // The audit's own computation, from free amino acids, agrees.
      expect(hillFormula(peptideFormula(c.sequence)!)).toBe(k.mf);
      expect(Math.abs(averageMass(parseFormula(k.mf)!) - c.molecularWeightDa)).toBeLessThan(0.0051);
    }
  });

  it("refuses a residue it does not know", () => {
    expect(() => chemistryOf(["Ala", "Xyz"])).toThrow(/Xyz/);
  });
});

describe("the audit finds what it looks for", () => {
  it("reports a citation about another peptide, human evidence under preclinical, a title that contradicts its type, wrong chemistry and counts", () => {
    const { api } = of(7, 1);
    const bad = structuredClone(api);
    const [a, b] = bad.profiles.filter((p) => p.chemical_properties.sequence !== "not_documented");
    // a cites one of b's own studies
    const theirs = b!.references.find((r) => !bad.studies.find((s) => s.id === r.study_id)!.cited_by.includes(a!.id))!;
    a!.references.push(theirs);
    // a preclinical profile claims a human study
    const pre = bad.profiles.find((p) => p.evidence.level === "preclinical")!;
    pre.evidence.human_studies = 1;
    // a case report typed as a systematic review
    const report = bad.studies.find((s) => s.study_type === "case report")!;
    report.study_type = "systematic review";
    // chemistry that does not follow from the sequence
    b!.chemical_properties.molecular_formula = "C10H20N2O3";
    (a!.chemical_properties as { molecular_weight_da: number }).molecular_weight_da += 1;

    const rules = auditResearch(bad).byRule;
    expect(rules["citation-title-not-about-peptide"]).toBeGreaterThanOrEqual(1);
    expect(rules["citation-missing-from-cited-by"]).toBeGreaterThanOrEqual(1);
    expect(rules["human-evidence-under-preclinical"]).toBe(1);
    expect(rules["title-contradicts-type"]).toBe(1);
    expect(rules["formula-sequence-mismatch"]).toBe(1);
    expect(rules["weight-formula-mismatch"]).toBe(2);
    expect(rules["count-mismatch"]).toBeGreaterThanOrEqual(2);
  });

  it("reports real identifiers, other hosts, real peptide names, dose figures and a marketed withdrawn product", () => {
    const bad = structuredClone(of(1, 1).api);
    const s = bad.studies.find((x) => x.pmid !== null)!;
    s.pmid = "12345678";
    s.source_url = "https://pubmed.ncbi.nlm.nih.gov/12345678";
    bad.profiles[0]!.summary = "Compared with BPC-157 at 250 mcg.";
    const withdrawn = bad.profiles.find((p) => p.regulatory.regulatory_status === "withdrawn")!;
    withdrawn.regulatory.development_stage = "Marketed";
    const rules = auditResearch(bad).byRule;
    expect(rules["regulatory-contradiction"]).toBe(2);
    expect(rules["real-identifier"]).toBe(1);
    expect(rules["non-example-host"]).toBe(1);
    expect(rules["real-peptide-name"]).toBe(1);
    expect(rules["dose-figure"]).toBe(1);
  });
});

describe("the audit script against a running sandbox", () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0, seed: 7, scale: 1 });
  });
  afterAll(() => sb.close());

  it("reads every profile and study over HTTP and counts no violation", async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["scripts/sandbox-audit.mjs", "--base-url", sb.baseUrl, "--api-key", FULL, "--json"],
      {
        env: { ...process.env, PEP_BASE_URL: "", PEP_API_KEY: "" },
      },
    );
    const report = JSON.parse(stdout) as AuditReport;
    expect(report.profiles).toBe(40);
    expect(report.studies).toBe(300);
    expect(report.violations).toEqual([]);
    // the same answers the in-memory audit saw
    const { items } = await collect(sb, "/studies?limit=100");
    const byId = (x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : 1);
    expect(items.sort(byId)).toEqual(JSON.parse(JSON.stringify(of(7, 1).api.studies)).sort(byId));
    const one = await get(sb, `/peptides/${of(7, 1).data.peptides[0]!.id}`);
    expect(one.body.data.evidence).toEqual(JSON.parse(JSON.stringify(of(7, 1).api.profiles[0]!.evidence)));
  });

  it("exits 2 and says what it needs without a base URL", async () => {
    const run = promisify(execFile)(process.execPath, ["scripts/sandbox-audit.mjs"], {
      env: { ...process.env, PEP_BASE_URL: "", PEP_API_KEY: "" },
    });
    await expect(run).rejects.toMatchObject({ code: 2, stderr: expect.stringMatching(/--base-url/) });
  });
});
