#!/usr/bin/env node
/**
 * Checks, from outside, that a sandbox server's synthetic research data holds together:
 *
 *   node scripts/sandbox-audit.mjs --base-url http://127.0.0.1:4010/v1 [--api-key sbx_full_key] [--json]
 *
 * (PEP_BASE_URL and PEP_API_KEY are read when the flags are absent.) It reads every peptide
 * profile and the whole study index over HTTP, counts the violations of each rule and exits
 * 1 if there is any. The rules are written here from scratch, not taken from the generator:
 * its own residue table (free amino acids, standard formulas), its own average atomic masses,
 * its own words that give a study's design away in a title.
 *
 * `auditResearch({ profiles, summaries, studies })` is the same check on data already in
 * hand; the sandbox's property tests call it on the data of many seeds and scales.
 */
import { pathToFileURL } from "node:url";

// ---------------------------------------------------------------------------------------
// Chemistry

/** Formulas of the free amino acids (standard values), by three-letter code. */
export const AMINO_ACIDS = {
  Ala: "C3H7NO2",
  Arg: "C6H14N4O2",
  Asn: "C4H8N2O3",
  Asp: "C4H7NO4",
  Cys: "C3H7NO2S",
  Gln: "C5H10N2O3",
  Glu: "C5H9NO4",
  Gly: "C2H5NO2",
  His: "C6H9N3O2",
  Ile: "C6H13NO2",
  Leu: "C6H13NO2",
  Lys: "C6H14N2O2",
  Met: "C5H11NO2S",
  Phe: "C9H11NO2",
  Pro: "C5H9NO2",
  Ser: "C3H7NO3",
  Thr: "C4H9NO3",
  Trp: "C11H12N2O2",
  Tyr: "C9H11NO3",
  Val: "C5H11NO2",
};

/** Standard atomic weights (IUPAC conventional values), in daltons. */
export const ATOMIC_MASS = { C: 12.011, H: 1.008, N: 14.007, O: 15.999, S: 32.06 };

/** `{C: 3, H: 7, ...}` from `C3H7NO2`; undefined when the text is not a formula of these elements. */
export function parseFormula(text) {
  if (typeof text !== "string" || !/^([A-Z][a-z]?\d*)+$/.test(text)) return undefined;
  const counts = {};
  for (const [, el, n] of text.matchAll(/([A-Z][a-z]?)(\d*)/g)) {
    if (!(el in ATOMIC_MASS) || el in counts) return undefined;
    counts[el] = n === "" ? 1 : Number(n);
  }
  return counts;
}

/** The formula of a linear peptide written `Ala-Cys-...`: the free amino acids less one water per peptide bond. */
export function peptideFormula(sequence) {
  const codes = sequence.split("-");
  const total = { C: 0, H: 0, N: 0, O: 0, S: 0 };
  for (const code of codes) {
    const f = AMINO_ACIDS[code];
    if (!f) return undefined;
    for (const [el, n] of Object.entries(parseFormula(f))) total[el] += n;
  }
  total.H -= 2 * (codes.length - 1);
  total.O -= codes.length - 1;
  return total;
}

/** Hill order for a compound with carbon: C, H, then the rest alphabetically; a count of 1 is not written. */
export function hillFormula(counts) {
  const rest = Object.keys(counts)
    .filter((el) => el !== "C" && el !== "H")
    .sort();
  return ["C", "H", ...rest]
    .filter((el) => (counts[el] ?? 0) > 0)
    .map((el) => `${el}${counts[el] === 1 ? "" : counts[el]}`)
    .join("");
}

export function averageMass(counts) {
  return Object.entries(counts).reduce((sum, [el, n]) => sum + ATOMIC_MASS[el] * n, 0);
}

// ---------------------------------------------------------------------------------------
// Study designs as a reader tells them from a title

const HUMAN_CLASSES = ["regulatory_label", "human_controlled_trial", "human_study"];
const PRECLINICAL_CLASSES = ["animal_or_lab", "in_vitro"];

/** What each study type is: its evidence classification and research model (`review` = human, or animal for a review of preclinical work). */
const TYPES = {
  "regulatory label": { classification: "regulatory_label", model: "human" },
  "randomized controlled trial": { classification: "human_controlled_trial", model: "human" },
  "double-blind controlled trial": { classification: "human_controlled_trial", model: "human" },
  "open-label study": { classification: "human_study", model: "human" },
  "observational cohort": { classification: "human_study", model: "human" },
  "case series": { classification: "human_study", model: "human" },
  "narrative review": { classification: "secondary_report", model: "review" },
  "systematic review": { classification: "secondary_report", model: "review" },
  "case report": { classification: "secondary_report", model: "human" },
  "animal study": { classification: "animal_or_lab", model: "animal" },
  "cell culture study": { classification: "in_vitro", model: "in vitro" },
  "receptor binding assay": { classification: "in_vitro", model: "in vitro" },
};

/** Words in a title and the study types they are compatible with. */
const TITLE_WORDS = [
  [/regulatory label/i, ["regulatory label"]],
  [/randomi[sz]ed/i, ["randomized controlled trial"]],
  [/double-blind/i, ["double-blind controlled trial"]],
  [/placebo/i, ["randomized controlled trial", "double-blind controlled trial"]],
  [/open-label/i, ["open-label study"]],
  [/cohort/i, ["observational cohort"]],
  [/case series/i, ["case series"]],
  [/narrative review/i, ["narrative review"]],
  [/systematic review/i, ["systematic review"]],
  [/case report/i, ["case report"]],
  [/rodent|zebrafish|\bmice\b|\brats?\b|animal model/i, ["animal study"]],
  [/cultured cells|cell culture/i, ["cell culture study"]],
  [/receptor binding|occupancy/i, ["receptor binding assay"]],
  [/in vitro/i, ["cell culture study", "receptor binding assay"]],
];

/** Names of real peptides that must never appear in synthetic data. */
const REAL_NAMES =
  /\b(BPC-?157|TB-?500|thymosin|semaglutide|tirzepatide|retatrutide|liraglutide|exenatide|ipamorelin|CJC-?1295|sermorelin|tesamorelin|GHK-Cu|melanotan|bremelanotide|PT-?141|oxytocin|epitalon|selank|semax|AOD-?9604|MOTS-c|humanin|kisspeptin|dihexa|cerebrolysin)\b/i;
const DOSE = /\b\d+(\.\d+)?\s?(mg|mcg|µg|iu|ml)\b/i;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

// ---------------------------------------------------------------------------------------
// The audit

/**
 * `profiles`: every `GET /peptides/{slug}` answer's `data`; `summaries`: every `GET /peptides`
 * item (optional); `studies`: every `GET /studies` item. Returns per-rule counts and the
 * violations themselves.
 */
export function auditResearch({ profiles, summaries = [], studies }) {
  const violations = [];
  const add = (rule, subject, detail) => violations.push({ rule, subject, detail });
  const studyById = new Map(studies.map((s) => [s.id, s]));
  const nameToId = new Map(profiles.map((p) => [p.name.toLowerCase(), p.id]));
  const profileById = new Map(profiles.map((p) => [p.id, p]));
  /** Ids of the profiles a text names (tokens shaped like `Name-12` that are profile names). */
  const named = (text) =>
    new Set(
      [...String(text).matchAll(/[A-Za-z]+-\d+/g)]
        .map((m) => nameToId.get(m[0].toLowerCase()))
        .filter((id) => id !== undefined),
    );

  let citations = 0;
  let badCitations = 0;
  const profilesWithBad = new Set();

  for (const s of studies) {
    const type = TYPES[s.study_type];
    if (!type) {
      add("unknown-study-type", s.id, s.study_type);
    } else {
      if (type.classification !== s.evidence_classification)
        add("type-classification-mismatch", s.id, `${s.study_type} classified ${s.evidence_classification}`);
      const model = type.model === "review" ? (/preclinical|animal/i.test(s.title) ? "animal" : "human") : type.model;
      if (model !== s.research_model)
        add("type-model-mismatch", s.id, `${s.study_type} (${s.title}) with research model ${s.research_model}`);
      const hits = TITLE_WORDS.filter(([re]) => re.test(s.title)).map(([, types]) => types);
      if (hits.length === 0) add("title-hides-type", s.id, `"${s.title}" typed ${s.study_type}`);
      else if (!hits.every((types) => types.includes(s.study_type)))
        add("title-contradicts-type", s.id, `"${s.title}" typed ${s.study_type}`);
    }
    const titleNames = named(s.title);
    const citedBy = new Set(s.cited_by);
    for (const id of titleNames)
      if (!citedBy.has(id))
        add("title-names-uncited-peptide", s.id, `"${s.title}" names ${id}, cited by ${s.cited_by.join(", ")}`);
    if (s.cited_by.length === 0) add("study-cited-by-none", s.id, "empty cited_by");
    for (const id of s.cited_by) {
      const p = profileById.get(id);
      if (!p) add("cited-by-unknown-peptide", s.id, id);
      else if (!p.references.some((r) => r.study_id === s.id))
        add("cited-by-not-citing", s.id, `${id} does not cite it`);
    }
    if (s.pmid !== null && !(/^\d+$/.test(s.pmid) && Number(s.pmid) >= 90_000_000))
      add("real-identifier", s.id, `pmid ${s.pmid}`);
    if (s.doi !== null && !s.doi.startsWith("10.5555/")) add("real-identifier", s.id, `doi ${s.doi}`);
    if (s.nct_id !== null && !/^NCT99\d{6}$/.test(s.nct_id)) add("real-identifier", s.id, `nct ${s.nct_id}`);
  }

  for (const p of profiles) {
    const refs = p.references ?? [];
    const cited = refs.map((r) => ({ ref: r, study: studyById.get(r.study_id) }));
    if (refs.length > 12) add("too-many-citations", p.id, `${refs.length} studies`);
    for (const { ref, study } of cited) {
      citations++;
      let bad = false;
      if (!study) {
        add("citation-not-in-index", p.id, ref.study_id);
        continue;
      }
      if (!named(study.title).has(p.id)) {
        add("citation-title-not-about-peptide", p.id, `"${study.title}"`);
        bad = true;
      }
      if (!named(ref.finding_summary).has(p.id)) {
        add("citation-finding-not-about-peptide", p.id, `"${ref.finding_summary}"`);
        bad = true;
      }
      for (const id of named(ref.finding_summary))
        if (!study.cited_by.includes(id)) {
          add("finding-names-uncited-peptide", p.id, `${study.id} names ${id}`);
          bad = true;
        }
      if (!study.cited_by.includes(p.id)) {
        add("citation-missing-from-cited-by", p.id, study.id);
        bad = true;
      }
      if (
        ref.title !== study.title ||
        ref.study_type !== study.study_type ||
        ref.evidence_classification !== study.evidence_classification
      ) {
        add("reference-disagrees-with-index", p.id, study.id);
      }
      if (bad) {
        badCitations++;
        profilesWithBad.add(p.id);
      }
    }

    // Evidence level against the studies cited.
    const studiesCited = cited.map((c) => c.study).filter(Boolean);
    const classes = studiesCited.map((s) => s.evidence_classification);
    const count = (set) => classes.filter((c) => set.includes(c)).length;
    const level = p.evidence?.level;
    const human = count(HUMAN_CLASSES);
    if (level === "preclinical" || level === "insufficient") {
      if (p.evidence.human_studies > 0 || human > 0)
        add(
          `human-evidence-under-${level}`,
          p.id,
          `human_studies ${p.evidence.human_studies}, ${human} human studies cited`,
        );
      const humanModel = studiesCited.filter((s) => s.research_model === "human");
      if (humanModel.length > 0) add(`human-research-under-${level}`, p.id, humanModel.map((s) => s.title).join(" | "));
    }
    if (level === "fda-approved" && !classes.includes("regulatory_label"))
      add("level-unsupported", p.id, "fda-approved without a regulatory label");
    if (level !== "fda-approved" && classes.includes("regulatory_label"))
      add("level-unsupported", p.id, `${level} citing a regulatory label`);
    if ((level === "established-human" || level === "clinical-trial") && !classes.includes("human_controlled_trial"))
      add("level-unsupported", p.id, `${level} without a controlled trial`);
    if (level === "limited-human" && human === 0) add("level-unsupported", p.id, "limited-human without a human study");

    // Regulatory facts against each other: an FDA approval is the fda-approved level, only an
    // approved product is marketed, a withdrawn one is not.
    const reg = p.regulatory ?? {};
    if (/^approved/i.test(String(p.fda_status)) && level !== "fda-approved")
      add("regulatory-contradiction", p.id, `fda_status "${p.fda_status}" at level ${level}`);
    if (/^marketed/i.test(String(reg.development_stage)) && reg.regulatory_status !== "approved")
      add("regulatory-contradiction", p.id, `marketed while ${reg.regulatory_status}`);
    if (reg.regulatory_status === "withdrawn" && !/withdrawn/i.test(String(reg.development_stage)))
      add("regulatory-contradiction", p.id, `withdrawn at stage ${reg.development_stage}`);

    // Counts against the studies cited.
    const want = {
      human_studies: human,
      preclinical_studies: count(PRECLINICAL_CLASSES),
      secondary_reports: count(["secondary_report"]),
    };
    for (const [k, v] of Object.entries(want))
      if (p.evidence?.[k] !== v) add("count-mismatch", p.id, `${k} ${p.evidence?.[k]}, ${v} cited`);
    const lists = { human: HUMAN_CLASSES, preclinical: PRECLINICAL_CLASSES, secondary: ["secondary_report"] };
    for (const [k, set] of Object.entries(lists)) {
      const listed = p.evidence?.[k]?.studies ?? [];
      if (listed.length !== count(set) || listed.some((r) => !set.includes(r.evidence_classification)))
        add("count-mismatch", p.id, `evidence.${k} lists ${listed.length}, ${count(set)} cited`);
    }

    // Chemistry.
    const c = p.chemical_properties ?? {};
    const fields = [c.sequence, c.sequence_length, c.molecular_formula, c.molecular_weight_da];
    const undocumented = fields.filter((f) => f === "not_documented").length;
    if (undocumented > 0) {
      if (undocumented < fields.length) add("chemistry-partly-documented", p.id, JSON.stringify(c));
    } else {
      const formula = typeof c.sequence === "string" ? peptideFormula(c.sequence) : undefined;
      const stated = parseFormula(c.molecular_formula);
      if (!formula) add("sequence-unreadable", p.id, String(c.sequence));
      else {
        if (c.sequence_length !== c.sequence.split("-").length)
          add("length-mismatch", p.id, `${c.sequence_length} for ${c.sequence}`);
        if (c.molecular_formula !== hillFormula(formula))
          add("formula-sequence-mismatch", p.id, `${c.molecular_formula}, sequence gives ${hillFormula(formula)}`);
      }
      if (!stated) add("formula-unreadable", p.id, String(c.molecular_formula));
      else if (
        typeof c.molecular_weight_da !== "number" ||
        Math.abs(c.molecular_weight_da - averageMass(stated)) > 0.0051
      ) {
        add(
          "weight-formula-mismatch",
          p.id,
          `${c.molecular_weight_da} Da, ${c.molecular_formula} weighs ${averageMass(stated).toFixed(3)}`,
        );
      }
    }

    // Invented names only.
    if (!/^[A-Z][a-z]+-\d+$/.test(p.name)) add("name-not-invented-shape", p.id, p.name);
  }

  for (const s of summaries) {
    const p = profileById.get(s.id);
    if (!p) add("summary-without-profile", s.id, s.name);
    else if (
      JSON.stringify(s.evidence) !==
      JSON.stringify({
        level: p.evidence.level,
        label: p.evidence.label,
        human_studies: p.evidence.human_studies,
        preclinical_studies: p.evidence.preclinical_studies,
        secondary_reports: p.evidence.secondary_reports,
      })
    ) {
      add("count-mismatch", s.id, "list summary and profile disagree");
    }
  }

  // Rules over the whole text: hosts, real names, dose figures.
  const text = JSON.stringify([profiles, summaries, studies]);
  for (const m of text.matchAll(/https?:\/\/([^/"\s:]+|\[[^\]]+\])/g)) {
    const host = m[1].toLowerCase();
    if (!host.endsWith(".example") && !LOOPBACK.has(host)) add("non-example-host", host, m[0]);
  }
  const real = text.match(REAL_NAMES);
  if (real) add("real-peptide-name", real[0], "named in the data");
  const dose = text.match(DOSE);
  if (dose) add("dose-figure", dose[0], "in the data");

  const byRule = {};
  for (const v of violations) byRule[v.rule] = (byRule[v.rule] ?? 0) + 1;
  return {
    profiles: profiles.length,
    studies: studies.length,
    citations,
    badCitations,
    profilesCitingOtherPeptides: profilesWithBad.size,
    byRule,
    violations,
  };
}

// ---------------------------------------------------------------------------------------
// Command line

async function getJson(url, key) {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(url, {
      headers: key ? { Authorization: `Bearer ${key}`, Accept: "application/json" } : { Accept: "application/json" },
    });
    if (res.status === 429 && attempt < 5) {
      await new Promise((r) => setTimeout(r, Math.min(60, Number(res.headers.get("retry-after")) || 1) * 1000));
      continue;
    }
    if (!res.ok) throw new Error(`GET ${url}: HTTP ${res.status}`);
    return res.json();
  }
}

async function all(base, path, key) {
  const items = [];
  let cursor;
  do {
    const u = new URL(base + path);
    u.searchParams.set("limit", "100");
    if (cursor) u.searchParams.set("cursor", cursor);
    const page = await getJson(u.href, key);
    items.push(...page.data);
    cursor = page.pagination?.has_more ? page.pagination.next_cursor : undefined;
  } while (cursor);
  return items;
}

async function main(argv) {
  let base = process.env.PEP_BASE_URL;
  let key = process.env.PEP_API_KEY;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--base-url") base = argv[++i];
    else if (a === "--api-key") key = argv[++i];
    else if (a === "--json") json = true;
    else {
      process.stderr.write(
        `sandbox-audit: unknown argument ${a}\nusage: node scripts/sandbox-audit.mjs [--base-url <url ending in /v1>] [--api-key <key>] [--json]\n`,
      );
      return 2;
    }
  }
  if (!base) {
    process.stderr.write("sandbox-audit: give --base-url or PEP_BASE_URL (start one with `pep sandbox --port 0`)\n");
    return 2;
  }
  base = base.replace(/\/+$/, "");
  const summaries = await all(base, "/peptides", key);
  const profiles = [];
  for (const s of summaries) profiles.push((await getJson(`${base}/peptides/${encodeURIComponent(s.id)}`, key)).data);
  const studies = await all(base, "/studies", key);
  const report = auditResearch({ profiles, summaries, studies });
  if (json)
    process.stdout.write(`${JSON.stringify({ ...report, violations: report.violations.slice(0, 200) }, null, 2)}\n`);
  else {
    const lines = [
      `${base}: ${report.profiles} profiles, ${report.studies} studies, ${report.citations} citations`,
      `profiles citing a study about another peptide: ${report.profilesCitingOtherPeptides} of ${report.profiles} (${report.badCitations} of ${report.citations} citations)`,
      `violations: ${report.violations.length}`,
      ...Object.entries(report.byRule)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([rule, n]) => `  ${rule.padEnd(36)} ${n}`),
    ];
    const firsts = new Map();
    for (const v of report.violations) if (!firsts.has(v.rule)) firsts.set(v.rule, v);
    if (firsts.size > 0)
      lines.push("first of each:", ...[...firsts.values()].map((v) => `  ${v.rule}: ${v.subject}: ${v.detail}`));
    process.stdout.write(`${lines.join("\n")}\n`);
  }
  return report.violations.length === 0 ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (code) => (process.exitCode = code),
    (e) => {
      process.stderr.write(`sandbox-audit: ${e.message}\n`);
      process.exitCode = 2;
    },
  );
}
