/**
 * Synthetic studies cited by the profiles. Identifiers are ones that cannot exist:
 * PMIDs from 90000000, DOIs under the 10.5555 test prefix, NCT numbers from NCT99000000.
 * A few titles carry BibTeX specials and many authors non-ASCII letters, so citation
 * writers get exercised. Studies are shared between profiles (de-duplicated), each
 * profile cites at most 12.
 */
import { EVIDENCE_CLASSIFICATIONS, LIMITS } from "../../api/enums.js";
import { JOURNALS, authorName } from "./names.js";
import { createRng, type Rng } from "./prng.js";
import type { EvidenceClassification, EvidenceLevel, Peptide, Study } from "./types.js";

export const CLASSIFICATION_LABELS: Record<EvidenceClassification, string> = {
  regulatory_label: "Regulatory label",
  human_controlled_trial: "Controlled human trial",
  human_study: "Human study",
  secondary_report: "Secondary report",
  animal_or_lab: "Animal or lab",
  in_vitro: "In vitro",
};

/** Weights of each classification among the studies a profile cites, by its evidence level. */
const MIX: Record<EvidenceLevel, Partial<Record<EvidenceClassification, number>>> = {
  "fda-approved": { regulatory_label: 2, human_controlled_trial: 4, human_study: 2, secondary_report: 1, animal_or_lab: 1, in_vitro: 1 },
  "established-human": { human_controlled_trial: 3, human_study: 3, secondary_report: 2, animal_or_lab: 1, in_vitro: 1 },
  "clinical-trial": { human_controlled_trial: 3, human_study: 1, secondary_report: 1, animal_or_lab: 2, in_vitro: 1 },
  "limited-human": { human_controlled_trial: 1, human_study: 2, secondary_report: 2, animal_or_lab: 3, in_vitro: 2 },
  preclinical: { secondary_report: 1, animal_or_lab: 5, in_vitro: 3 },
  insufficient: { secondary_report: 2, animal_or_lab: 1, in_vitro: 2 },
};

const TYPES: Record<EvidenceClassification, string[]> = {
  regulatory_label: ["regulatory label"],
  human_controlled_trial: ["randomized controlled trial", "double-blind controlled trial"],
  human_study: ["open-label study", "observational cohort", "case series"],
  secondary_report: ["narrative review", "systematic review", "case report"],
  animal_or_lab: ["animal study"],
  in_vitro: ["cell culture study", "receptor binding assay"],
};

const MODEL: Record<EvidenceClassification, Study["researchModel"]> = {
  regulatory_label: "human",
  human_controlled_trial: "human",
  human_study: "human",
  secondary_report: "human",
  animal_or_lab: "animal",
  in_vitro: "in vitro",
};

function weighted(rng: Rng, weights: Partial<Record<EvidenceClassification, number>>): EvidenceClassification {
  const entries = Object.entries(weights) as [EvidenceClassification, number][];
  const total = entries.reduce((s, [, w]) => s + w, 0);
  let r = rng.next() * total;
  for (const [k, w] of entries) {
    r -= w;
    if (r < 0) return k;
  }
  return (entries[entries.length - 1] as [EvidenceClassification, number])[0];
}

function title(rng: Rng, c: EvidenceClassification, name: string, topic: string): string {
  const t = topic.toLowerCase();
  const options: Record<EvidenceClassification, string[]> = {
    regulatory_label: [`Regulatory label review of ${name} (synthetic record)`],
    human_controlled_trial: [
      `A randomized, placebo-controlled trial of ${name} on ${t} in adults`,
      `Double-blind controlled study of ${name} and ${t}`,
    ],
    human_study: [`Open-label observational study of ${name} and ${t}`, `Cohort analysis of ${t} outcomes after ${name} exposure`],
    secondary_report: [`${name} and ${t}: a narrative review`, `Systematic review of ${name} research on ${t}`, `Case report: ${t} findings in a person using ${name}`],
    animal_or_lab: [`Effects of ${name} on ${t} in a rodent model`, `${name} modulates ${t} in zebrafish larvae`],
    in_vitro: [`${name} binding in cultured cells: implications for ${t}`, `In vitro characterisation of ${name} and ${t}`],
  };
  return rng.pick(options[c]);
}

/** Titles holding characters that must be escaped in BibTeX: { } & % $ _ */
function specialTitle(k: number, name: string, topic: string): string {
  const list = [
    `${name} & ${topic.toLowerCase()}: a 40% shift in {marker} expression`,
    `Receptor_B occupancy by ${name}: $K_d$ estimates {in vitro}`,
    `Cost & access: 100% of ${name} records reviewed`,
    `The {${name}} family and the ~50% question`,
  ];
  return list[k % list.length] as string;
}

function finding(c: EvidenceClassification, name: string, topic: string): string {
  const t = topic.toLowerCase();
  switch (c) {
    case "regulatory_label":
      return `The synthetic label record describes ${name} and lists its reviewed indications related to ${t}.`;
    case "human_controlled_trial":
      return `Participants given ${name} showed a modest change in ${t} markers compared with placebo; the effect size was small.`;
    case "human_study":
      return `An uncontrolled human study reported changes in ${t} after ${name} exposure; without a control group the cause is uncertain.`;
    case "secondary_report":
      return `A secondary source summarising earlier work on ${name} and ${t}; it adds no new primary data.`;
    case "animal_or_lab":
      return `Animals exposed to ${name} showed changes in ${t}; the relevance to humans is unknown.`;
    case "in_vitro":
      return `Cultured cells exposed to ${name} showed altered ${t} signalling; no whole-organism data.`;
  }
}

/** Generates `count` studies and fills each profile's `studyIds` (at most 12). */
export function generateStudies(seed: number, count: number, peptides: Peptide[], nowYear: number): Study[] {
  const rng = createRng(seed, "studies");
  const max = LIMITS.peptideStudiesMax;
  const studies: Study[] = [];
  let pmid = 90_000_000;
  let nct = 0;
  for (let j = 0; j < count; j++) {
    const owner = peptides[j % peptides.length] as Peptide;
    const c: EvidenceClassification =
      j < EVIDENCE_CLASSIFICATIONS.length ? (EVIDENCE_CLASSIFICATIONS[j] as EvidenceClassification) : weighted(rng, MIX[owner.evidenceLevel]);
    const topic = rng.pick(owner.researchTopics);
    const year = c === "regulatory_label" ? rng.int(2005, nowYear) : rng.int(1995, nowYear);
    pmid += rng.int(1, 40);
    let pmidValue: string | null = null;
    let doi: string | null = null;
    let nctId: string | null = null;
    if (c === "regulatory_label") {
      doi = `10.5555/sbx-label.${year}.${String(j + 1).padStart(5, "0")}`;
    } else {
      const form = rng.next();
      if (c === "human_controlled_trial") {
        nctId = `NCT99${String(nct++).padStart(6, "0")}`;
        if (form < 0.75) pmidValue = String(pmid);
        if (form < 0.5 || (form >= 0.75 && form < 0.85)) doi = `10.5555/sbx.${year}.${String(j + 1).padStart(5, "0")}`;
      } else if (form < 0.7) {
        pmidValue = String(pmid);
        if (rng.chance(0.6)) doi = `10.5555/sbx.${year}.${String(j + 1).padStart(5, "0")}`;
      } else {
        doi = `10.5555/sbx.${year}.${String(j + 1).padStart(5, "0")}`;
      }
    }
    const id = pmidValue ? `pmid-${pmidValue}` : doi ? `doi-${doi.replaceAll("/", "--")}` : `nct-${nctId}`;
    const authors = Array.from({ length: rng.int(1, 6) }, () => authorName(rng));
    const special = j % 37 === 5;
    studies.push({
      id,
      title: special ? specialTitle(Math.floor(j / 37), owner.name, topic) : title(rng, c, owner.name, topic),
      publicationYear: year,
      authors: [...new Set(authors)],
      journal: c === "regulatory_label" ? "Example Regulatory Science Bulletin" : rng.pick(JOURNALS),
      doi,
      pmid: pmidValue,
      nctId,
      studyType: rng.pick(TYPES[c]),
      researchModel: MODEL[c],
      evidenceClassification: c,
      findingSummary: finding(c, owner.name, topic),
      citedBy: [],
    });
  }
  // Primary citations: study j belongs to profile j mod P, so every study is cited.
  studies.forEach((s, j) => {
    const p = peptides[j % peptides.length] as Peptide;
    if (p.studyIds.length < max) {
      p.studyIds.push(s.id);
      s.citedBy.push(p.id);
    }
  });
  // Shared citations: some studies are cited by a second profile, which is what makes
  // de-duplication visible in `cited_by`.
  for (const s of studies) {
    if (!rng.chance(0.25)) continue;
    const p = rng.pick(peptides);
    if (p.studyIds.length >= max || s.citedBy.includes(p.id)) continue;
    p.studyIds.push(s.id);
    s.citedBy.push(p.id);
  }
  return studies.filter((s) => s.citedBy.length > 0);
}
