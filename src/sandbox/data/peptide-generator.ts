/**
 * Synthetic peptide profiles. Every category, evidence level and regulatory status
 * appears (the first seven profiles are pinned so a tiny scale still covers them); a
 * share of research fields hold `not_documented`. No record holds dose figures.
 */
import { CATEGORIES, EVIDENCE_LEVELS } from "../../api/enums.js";
import { chemistryOf, RESIDUE_CODES } from "./chemistry.js";
import { daysBeforeNow } from "./data-now.js";
import { MECHANISM_TARGETS, RESEARCH_AREAS, peptideName, slugify } from "./word-stock.js";
import { createRng, type Rng } from "./prng.js";
import {
  NOT_DOCUMENTED,
  type CategoryId,
  type Documented,
  type EvidenceLevel,
  type Peptide,
  type RegulatoryStatus,
} from "./records.js";

/** Plausible regulatory statuses per evidence level; the first is used for pinned profiles. */
const STATUS_BY_LEVEL: Record<EvidenceLevel, RegulatoryStatus[]> = {
  "fda-approved": ["approved", "withdrawn"],
  "established-human": ["approved", "investigational"],
  "clinical-trial": ["investigational"],
  "limited-human": ["experimental", "investigational"],
  preclinical: ["experimental", "insufficient"],
  insufficient: ["insufficient", "experimental"],
};

const FDA_STATUS: Record<RegulatoryStatus, Documented<string>> = {
  approved: "Approved (synthetic record)",
  withdrawn: "Approval withdrawn (synthetic record)",
  investigational: "Investigational; not approved",
  experimental: "Not approved",
  insufficient: NOT_DOCUMENTED,
};

const STAGE: Record<EvidenceLevel, Documented<string>[]> = {
  "fda-approved": ["Marketed"],
  "established-human": ["Marketed", "Phase 3"],
  "clinical-trial": ["Phase 2", "Phase 3"],
  "limited-human": ["Phase 1"],
  preclinical: ["Preclinical"],
  insufficient: [NOT_DOCUMENTED, "Discovery"],
};

/** An approval without an FDA label (the `fda-approved` level is the one that rests on a label). */
const APPROVED_ELSEWHERE = "Not FDA-approved; approved in another jurisdiction (synthetic record)";

/** Stages a profile may be at: an approved product is marketed, a withdrawn one is not, nothing else is. */
function stagesFor(level: EvidenceLevel, status: RegulatoryStatus): Documented<string>[] {
  if (status === "withdrawn") return ["Withdrawn from the market"];
  if (status === "approved") return ["Marketed"];
  const stages = STAGE[level].filter((s) => s !== "Marketed");
  return stages.length > 0 ? stages : [NOT_DOCUMENTED];
}

const LEVEL_PHRASE: Record<EvidenceLevel, string> = {
  "fda-approved": "supported by a regulatory label and controlled human trials",
  "established-human": "supported by several human studies",
  "clinical-trial": "under evaluation in controlled human trials",
  "limited-human": "limited to a few small human studies",
  preclinical: "limited to animal and laboratory work",
  insufficient: "insufficient to draw conclusions",
};

const CLASSIFICATIONS = [
  "Synthetic linear peptide",
  "Cyclic peptide analogue",
  "Peptide hormone analogue",
  "Lipidated peptide",
  "Short peptide complex",
];
const ADVERSE = ["Nausea", "Headache", "Flushing", "Transient fatigue", "Local skin irritation", "Altered appetite"];
const LIMITATIONS = [
  "Most studies are small and of short duration.",
  "Few studies were independently replicated.",
  "Animal findings may not carry over to humans.",
  "Outcome measures differ between studies.",
  "Several sources are secondary reports rather than primary data.",
  "Long-term follow-up is missing.",
];
const GAPS = [
  "No long-term controlled human trials.",
  "Mechanism of action not confirmed in humans.",
  "Interactions with other compounds not studied.",
  "No data in older adults.",
  "Effects in people with chronic conditions unknown.",
  "Independent replication of the main findings is needed.",
];

function maybe<T>(rng: Rng, p: number, value: () => T): Documented<T> {
  return rng.chance(p) ? NOT_DOCUMENTED : value();
}

/**
 * The documented chemistry of a sequence. The five draws that once made up its formula and
 * weight are still taken and dropped, so every later field of a seed (and every later
 * profile's name and slug) keeps the value it had.
 */
function documentedChemistry(rng: Rng, residues: string[]): Peptide["chemical"] {
  for (let i = 0; i < 5; i++) rng.next();
  return chemistryOf(residues);
}

function initials(name: string): string {
  const letters = name
    .replace(/-\d+$/, "")
    .replace(/[aeiou]/gi, "")
    .toUpperCase();
  return `${letters}XXX`.slice(0, 3);
}

interface Names {
  name: string;
  id: string;
  synonyms: string[];
  aliases: string[];
}

/** A new name not taken by any earlier profile, with its id, synonyms and aliases (all taken from now on). */
function peptideNames(rng: Rng, i: number, taken: Set<string>): Names {
  let name = peptideName(rng);
  while (taken.has(name.toLowerCase()) || taken.has(slugify(name))) name = peptideName(rng);
  const id = slugify(name);
  const marker = name.slice(name.lastIndexOf("-") + 1);
  const code = `${initials(name)}-${marker}`;
  const labCode = `SBX-${String(1001 + i)}`;
  const synonyms = rng.chance(0.6) ? [`${name} acetate`] : [];
  const aliases = [labCode];
  if (!taken.has(code.toLowerCase())) aliases.unshift(code);
  for (const n of [name, id, code, labCode, ...synonyms]) taken.add(n.toLowerCase());
  return { name, id, synonyms, aliases };
}

interface Classified {
  categories: CategoryId[];
  level: EvidenceLevel;
  status: RegulatoryStatus;
}

/**
 * Categories, evidence level and regulatory status. The first profiles are pinned so
 * that every category and level occurs (and one withdrawn FDA-approved product).
 */
function classify(rng: Rng, i: number): Classified {
  const primary = CATEGORIES[i % CATEGORIES.length] as CategoryId;
  const categories: CategoryId[] = [primary];
  if (rng.chance(0.4)) {
    const second = rng.pick(CATEGORIES.filter((c) => c !== primary));
    categories.push(second);
  }
  const pinned = i < EVIDENCE_LEVELS.length + 1;
  const level: EvidenceLevel =
    i < EVIDENCE_LEVELS.length
      ? (EVIDENCE_LEVELS[i] as EvidenceLevel)
      : i === EVIDENCE_LEVELS.length
        ? "fda-approved"
        : rng.pick(EVIDENCE_LEVELS);
  const statuses = STATUS_BY_LEVEL[level];
  const status: RegulatoryStatus = pinned
    ? i === EVIDENCE_LEVELS.length
      ? "withdrawn"
      : (statuses[0] as RegulatoryStatus)
    : rng.pick(statuses);
  return { categories, level, status };
}

/** The safety section: human reports only where the evidence level has human research. */
function safetyOf(rng: Rng, level: EvidenceLevel): Peptide["safety"] {
  return {
    summary: maybe(rng, 0.1, () =>
      level === "preclinical" || level === "insufficient"
        ? "No human safety data; animal and laboratory reports only."
        : "Human reports describe mostly mild, transient adverse events; long-term safety is not established.",
    ),
    reportedAdverseEvents:
      level === "preclinical" || level === "insufficient" ? [] : rng.sample(ADVERSE, rng.int(1, 3)),
    knownInteractions: maybe(rng, 0.5, () => "None reported in the cited sources."),
  };
}

/** A whole profile. The draws from `rng` keep their order: the same seed gives the same data. */
function peptideRecord(rng: Rng, names: Names, { categories, level, status }: Classified): Peptide {
  const { name } = names;
  const areas = RESEARCH_AREAS.filter((a) => a.categories.some((c) => categories.includes(c as CategoryId)));
  const topics = rng.sample(areas.length > 0 ? areas : RESEARCH_AREAS, rng.int(1, 3)).map((a) => a.name);
  const targets = rng.sample(MECHANISM_TARGETS, rng.int(1, 2));
  const seqLen = rng.int(5, 24);
  const residues = Array.from({ length: seqLen }, () => rng.pick(RESIDUE_CODES));
  const chemicalUndocumented = rng.chance(0.15);
  const topicText = topics.map((t) => t.toLowerCase()).join(", ");

  return {
    id: names.id,
    name,
    synonyms: names.synonyms,
    aliases: names.aliases,
    categories,
    summary: `${name} is a synthetic sandbox peptide studied for ${topicText}. The evidence is ${LEVEL_PHRASE[level]}.`,
    researchTopics: topics,
    classification: maybe(rng, 0.1, () => rng.pick(CLASSIFICATIONS)),
    fdaStatus: status === "approved" && level !== "fda-approved" ? APPROVED_ELSEWHERE : FDA_STATUS[status],
    wadaStatus: maybe(rng, 0.3, () =>
      rng.pick(["Prohibited at all times (synthetic record)", "Not listed (synthetic record)"]),
    ),
    availability:
      status === "approved"
        ? "Prescription product (synthetic record)"
        : maybe(rng, 0.2, () => rng.pick(["Research material only", "Not commercially available"])),
    developmentStage: rng.pick(stagesFor(level, status)),
    evidenceLevel: level,
    regulatoryStatus: status,
    contentReviewedAt: daysBeforeNow(rng.int(1, 720)),
    mechanism: {
      summary: maybe(
        rng,
        0.1,
        () => `Proposed to act on ${targets.join(" and ")}; most mechanistic data come from laboratory work.`,
      ),
      targets,
    },
    chemical: chemicalUndocumented
      ? {
          sequence: NOT_DOCUMENTED,
          sequenceLength: NOT_DOCUMENTED,
          molecularFormula: NOT_DOCUMENTED,
          molecularWeightDa: NOT_DOCUMENTED,
        }
      : documentedChemistry(rng, residues),
    safety: safetyOf(rng, level),
    limitations: rng.sample(LIMITATIONS, rng.int(1, 3)),
    researchGaps: rng.sample(GAPS, rng.int(1, 3)),
    studyIds: [],
  };
}

export function generatePeptides(seed: number, count: number): Peptide[] {
  const rng = createRng(seed, "peptides");
  const taken = new Set<string>();
  const out: Peptide[] = [];
  for (let i = 0; i < count; i++) {
    const names = peptideNames(rng, i, taken);
    out.push(peptideRecord(rng, names, classify(rng, i)));
  }
  return out;
}
