/**
 * The one table of study designs. A study's `study_type`, `research_model`,
 * `evidence_classification`, title and finding all come from its row, so they cannot
 * contradict each other: a "case report" is titled as one, a review of animal work is not
 * a human study. Every title and finding names the peptides the study is about; a row with
 * `pair` can also be a study of two peptides, which names both.
 */
import type { EvidenceClassification, EvidenceLevel, Study } from "./records.js";

export interface StudyKind {
  studyType: string;
  classification: EvidenceClassification;
  researchModel: Study["researchModel"];
  /** Titles of a study of one peptide `a`; `t` is the research topic in lower case. */
  titles: readonly ((a: string, t: string) => string)[];
  /** Title of a study comparing two peptides; absent where the design has one subject. */
  pair?: (a: string, b: string, t: string) => string;
  /** The editors' finding; `names` holds one or two peptide names. */
  finding: (names: readonly string[], t: string) => string;
}

const and = (names: readonly string[]) => names.join(" and ");
const or = (names: readonly string[]) => names.join(" or ");

export const STUDY_KINDS: readonly StudyKind[] = [
  {
    studyType: "regulatory label",
    classification: "regulatory_label",
    researchModel: "human",
    titles: [(a) => `Regulatory label review of ${a} (synthetic record)`],
    finding: ([a], t) =>
      `The synthetic label record describes ${a} and lists its reviewed indications related to ${t}.`,
  },
  {
    studyType: "randomized controlled trial",
    classification: "human_controlled_trial",
    researchModel: "human",
    titles: [
      (a, t) => `A randomized, placebo-controlled trial of ${a} on ${t} in adults`,
      (a, t) => `Randomized trial of ${a} versus placebo for ${t}`,
    ],
    pair: (a, b, t) => `A randomized trial comparing ${a} with ${b} on ${t} in adults`,
    finding: (n, t) =>
      n.length === 1
        ? `Participants randomized to ${n[0]} showed a modest change in ${t} markers compared with placebo; the effect size was small.`
        : `Participants randomized to ${or(n)} showed similar, modest changes in ${t} markers; the trial could not separate the two.`,
  },
  {
    studyType: "double-blind controlled trial",
    classification: "human_controlled_trial",
    researchModel: "human",
    titles: [(a, t) => `Double-blind, placebo-controlled study of ${a} and ${t}`],
    pair: (a, b, t) => `Double-blind comparison of ${a} and ${b} on ${t}`,
    finding: (n, t) =>
      n.length === 1
        ? `In a double-blind trial, participants given ${n[0]} showed a small change in ${t} markers compared with placebo.`
        : `In a double-blind comparison, ${and(n)} gave small, similar changes in ${t} markers.`,
  },
  {
    studyType: "open-label study",
    classification: "human_study",
    researchModel: "human",
    titles: [(a, t) => `Open-label study of ${a} and ${t} in adults`],
    pair: (a, b, t) => `Open-label study of ${a} and ${b} on ${t}`,
    finding: (n, t) =>
      `An open-label human study reported changes in ${t} after ${or(n)} exposure; without a control group the cause is uncertain.`,
  },
  {
    studyType: "observational cohort",
    classification: "human_study",
    researchModel: "human",
    titles: [(a, t) => `Cohort analysis of ${t} outcomes after ${a} exposure`],
    pair: (a, b, t) => `Cohort analysis of ${t} outcomes after ${a} or ${b} exposure`,
    finding: (n, t) =>
      `An observational cohort linked ${or(n)} exposure with changes in ${t}; confounding cannot be ruled out.`,
  },
  {
    studyType: "case series",
    classification: "human_study",
    researchModel: "human",
    titles: [(a, t) => `Case series: ${t} findings in people using ${a}`],
    pair: (a, b, t) => `Case series: ${t} findings in people using ${a} or ${b}`,
    finding: (n, t) => `A case series described ${t} findings in people using ${or(n)}; there was no comparison group.`,
  },
  {
    studyType: "narrative review",
    classification: "secondary_report",
    researchModel: "human",
    titles: [(a, t) => `${a} and ${t}: a narrative review of human data`],
    pair: (a, b, t) => `${a} and ${b} in ${t}: a narrative review of human data`,
    finding: (n, t) =>
      `A secondary source summarising earlier human work on ${and(n)} and ${t}; it adds no new primary data.`,
  },
  {
    studyType: "systematic review",
    classification: "secondary_report",
    researchModel: "human",
    titles: [(a, t) => `Systematic review of human studies of ${a} on ${t}`],
    pair: (a, b, t) => `Systematic review of human studies of ${a} and ${b} on ${t}`,
    finding: (n, t) =>
      `A systematic review of human studies of ${and(n)} and ${t}; it pools earlier reports and adds no new primary data.`,
  },
  {
    studyType: "case report",
    classification: "secondary_report",
    researchModel: "human",
    titles: [(a, t) => `Case report: ${t} findings in a person using ${a}`],
    finding: ([a], t) => `A single case report of ${t} findings in a person using ${a}; one case cannot show a cause.`,
  },
  {
    studyType: "narrative review",
    classification: "secondary_report",
    researchModel: "animal",
    titles: [(a, t) => `${a} and ${t}: a narrative review of preclinical work`],
    pair: (a, b, t) => `${a} and ${b} in ${t}: a narrative review of preclinical work`,
    finding: (n, t) =>
      `A secondary source summarising animal and laboratory work on ${and(n)} and ${t}; it adds no new primary data.`,
  },
  {
    studyType: "systematic review",
    classification: "secondary_report",
    researchModel: "animal",
    titles: [(a, t) => `Systematic review of animal studies of ${a} on ${t}`],
    pair: (a, b, t) => `Systematic review of animal studies of ${a} and ${b} on ${t}`,
    finding: (n, t) =>
      `A systematic review of animal studies of ${and(n)} and ${t}; the relevance to humans is unknown.`,
  },
  {
    studyType: "animal study",
    classification: "animal_or_lab",
    researchModel: "animal",
    titles: [
      (a, t) => `Effects of ${a} on ${t} in a rodent model`,
      (a, t) => `${a} modulates ${t} in zebrafish larvae`,
    ],
    pair: (a, b, t) => `${a} versus ${b} on ${t} in a rodent model`,
    finding: (n, t) => `Animals exposed to ${or(n)} showed changes in ${t}; the relevance to humans is unknown.`,
  },
  {
    studyType: "cell culture study",
    classification: "in_vitro",
    researchModel: "in vitro",
    titles: [
      (a, t) => `${a} in cultured cells: implications for ${t}`,
      (a, t) => `In vitro characterisation of ${a} and ${t} in cultured cells`,
    ],
    pair: (a, b, t) => `${a} and ${b} compared in cultured cells: implications for ${t}`,
    finding: (n, t) => `Cultured cells exposed to ${or(n)} showed altered ${t} pathways; no whole-organism data.`,
  },
  {
    studyType: "receptor binding assay",
    classification: "in_vitro",
    researchModel: "in vitro",
    titles: [(a, t) => `Receptor binding assay of ${a}: implications for ${t}`],
    pair: (a, b, t) => `Receptor binding of ${a} and ${b} compared: implications for ${t}`,
    finding: (n, t) =>
      `A receptor binding assay found that ${or(n)} bound its proposed target in vitro; binding alone does not show an effect on ${t}.`,
  },
];

/** Evidence levels resting on human data; the others cite no human research at all. */
export const HUMAN_LEVELS: ReadonlySet<EvidenceLevel> = new Set([
  "fda-approved",
  "established-human",
  "clinical-trial",
  "limited-human",
]);

/** Weights of each classification among the studies a profile cites, by its evidence level. */
export const MIX: Record<EvidenceLevel, Partial<Record<EvidenceClassification, number>>> = {
  "fda-approved": {
    regulatory_label: 2,
    human_controlled_trial: 4,
    human_study: 2,
    secondary_report: 1,
    animal_or_lab: 1,
    in_vitro: 1,
  },
  "established-human": {
    human_controlled_trial: 3,
    human_study: 3,
    secondary_report: 2,
    animal_or_lab: 1,
    in_vitro: 1,
  },
  "clinical-trial": { human_controlled_trial: 3, human_study: 1, secondary_report: 1, animal_or_lab: 2, in_vitro: 1 },
  "limited-human": { human_controlled_trial: 1, human_study: 2, secondary_report: 2, animal_or_lab: 3, in_vitro: 2 },
  preclinical: { secondary_report: 1, animal_or_lab: 5, in_vitro: 3 },
  insufficient: { secondary_report: 2, animal_or_lab: 1, in_vitro: 2 },
};

/** Whether a profile at `level` may cite a study of this kind: its classification is in the level's mix, and only human-evidence levels cite human research. */
export function kindFits(kind: StudyKind, level: EvidenceLevel): boolean {
  return (MIX[level][kind.classification] ?? 0) > 0 && (HUMAN_LEVELS.has(level) || kind.researchModel !== "human");
}

/** The kinds of classification `c` a profile at `level` may cite, in table order. */
export function kindsFor(c: EvidenceClassification, level: EvidenceLevel): StudyKind[] {
  return STUDY_KINDS.filter((k) => k.classification === c && kindFits(k, level));
}
