/**
 * Synthetic studies cited by the profiles. Identifiers are ones that cannot exist:
 * PMIDs from 90000000, DOIs under the 10.5555 test prefix, NCT numbers from NCT99000000.
 * A few titles carry BibTeX specials and many authors non-ASCII letters, so citation
 * writers get exercised. Each study is about the profile that cites it, drawn from the
 * one table of designs in study-kinds.ts; some compare two profiles, name both and are
 * cited by both (what makes de-duplication visible in `cited_by`). A profile cites at most
 * 12, and only designs its evidence level allows: no human research under `preclinical`
 * or `insufficient`, a regulatory label only under `fda-approved`.
 */
import { EVIDENCE_CLASSIFICATIONS, LIMITS } from "../../api/enums.js";
import { JOURNALS, authorName } from "./word-stock.js";
import { createRng, type Rng } from "./prng.js";
import { kindFits, kindsFor, MIX, type StudyKind } from "./study-kinds.js";
import type { EvidenceClassification, EvidenceLevel, Peptide, Study } from "./records.js";

export const CLASSIFICATION_LABELS: Record<EvidenceClassification, string> = {
  regulatory_label: "Regulatory label",
  human_controlled_trial: "Controlled human trial",
  human_study: "Human study",
  secondary_report: "Secondary report",
  animal_or_lab: "Animal or lab",
  in_vitro: "In vitro",
};

/**
 * What each evidence level needs among the studies it cites (one of `any`), and what one of
 * its own studies becomes when the weighted draws gave it none.
 */
const NEEDS: Partial<Record<EvidenceLevel, { any: EvidenceClassification[]; make: EvidenceClassification }>> = {
  "fda-approved": { any: ["regulatory_label"], make: "regulatory_label" },
  "established-human": { any: ["human_controlled_trial"], make: "human_controlled_trial" },
  "clinical-trial": { any: ["human_controlled_trial"], make: "human_controlled_trial" },
  "limited-human": { any: ["human_controlled_trial", "human_study"], make: "human_study" },
};

/** Share of studies (of a design that can have two subjects) that compare their profile with another. */
const PAIR_SHARE = 0.15;
const PAIR_TRIES = 8;
const LABEL_JOURNAL = "Example Regulatory Science Bulletin";

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

/** Endings holding every character BibTeX needs escaped ({ } & % $ _), for a few titles. */
const SPECIAL_ENDINGS = [
  " ({marker}_B & $K_d$: a 40% shift)",
  ": a 25% change in {Receptor_B} & $K_d$ estimates",
  " & the ~50% question: {Receptor_B} $K_d$ estimates",
];

interface Draft {
  j: number;
  owner: Peptide;
  partner: Peptide | undefined;
  c: EvidenceClassification;
  topic: string;
  /** Uniform draws choosing the title among the kind's and the kind among the classification's. */
  titleDraw: number;
  kindDraw: number;
  special: boolean;
  study: Study;
}

const pad = (j: number) => String(j + 1).padStart(5, "0");
const nth = <T>(items: readonly T[], draw: number): T =>
  items[Math.min(items.length - 1, Math.floor(draw * items.length))] as T;

/** Turns a draft into a regulatory label: its own identifier form, journal and a year labels can have. */
function makeLabel(d: Draft): void {
  const s = d.study;
  s.publicationYear = Math.max(2005, s.publicationYear);
  s.doi = `10.5555/sbx-label.${s.publicationYear}.${pad(d.j)}`;
  s.pmid = null;
  s.nctId = null;
  s.id = `doi-${s.doi.replaceAll("/", "--")}`;
  s.journal = LABEL_JOURNAL;
}

interface Identifiers {
  pmidValue: string | null;
  doi: string | null;
  nctId: string | null;
}

/**
 * A study's PubMed id, DOI and trial number: a label has a DOI only, a controlled trial
 * always a trial number, the others a PMID or a DOI or both. `next` holds the counters.
 */
function identifiers(
  rng: Rng,
  c: EvidenceClassification,
  year: number,
  j: number,
  next: { pmid: number; nct: number },
): Identifiers {
  const ids: Identifiers = { pmidValue: null, doi: null, nctId: null };
  if (c === "regulatory_label") {
    ids.doi = `10.5555/sbx-label.${year}.${pad(j)}`;
    return ids;
  }
  const form = rng.next();
  if (c === "human_controlled_trial") {
    ids.nctId = `NCT99${String(next.nct++).padStart(6, "0")}`;
    if (form < 0.75) ids.pmidValue = String(next.pmid);
    if (form < 0.5 || (form >= 0.75 && form < 0.85)) ids.doi = `10.5555/sbx.${year}.${pad(j)}`;
  } else if (form < 0.7) {
    ids.pmidValue = String(next.pmid);
    if (rng.chance(0.6)) ids.doi = `10.5555/sbx.${year}.${pad(j)}`;
  } else {
    ids.doi = `10.5555/sbx.${year}.${pad(j)}`;
  }
  return ids;
}

/**
 * Identifiers, years, authors and journals of `count` studies; the draws keep their
 * order so that a seed's study ids stay what they were.
 */
function draftStudies(rng: Rng, count: number, peptides: Peptide[], nowYear: number): Draft[] {
  const drafts: Draft[] = [];
  const next = { pmid: 90_000_000, nct: 0 };
  for (let j = 0; j < count; j++) {
    const owner = peptides[j % peptides.length] as Peptide;
    const c: EvidenceClassification =
      j < EVIDENCE_CLASSIFICATIONS.length
        ? (EVIDENCE_CLASSIFICATIONS[j] as EvidenceClassification)
        : weighted(rng, MIX[owner.evidenceLevel]);
    const topic = rng.pick(owner.researchTopics);
    const year = c === "regulatory_label" ? rng.int(2005, nowYear) : rng.int(1995, nowYear);
    next.pmid += rng.int(1, 40);
    const { pmidValue, doi, nctId } = identifiers(rng, c, year, j, next);
    const id = pmidValue ? `pmid-${pmidValue}` : doi ? `doi-${doi.replaceAll("/", "--")}` : `nct-${nctId}`;
    const authors = Array.from({ length: rng.int(1, 6) }, () => authorName(rng));
    const special = j % 37 === 5;
    const titleDraw = special ? 0 : rng.next();
    const journal = c === "regulatory_label" ? LABEL_JOURNAL : rng.pick(JOURNALS);
    const kindDraw = rng.next();
    drafts.push({
      j,
      owner,
      partner: undefined,
      c,
      topic,
      titleDraw,
      kindDraw,
      special,
      study: {
        id,
        title: "",
        publicationYear: year,
        authors: [...new Set(authors)],
        journal,
        doi,
        pmid: pmidValue,
        nctId,
        studyType: "",
        researchModel: "human",
        evidenceClassification: c,
        findingSummary: "",
        citedBy: [],
      },
    });
  }
  return drafts;
}

/**
 * Each evidence level cites what it rests on: where the draws gave a profile none, its
 * last study (never one of the first few, which pin every classification) becomes one.
 */
function backEachLevel(own: Map<Peptide, Draft[]>): void {
  for (const [p, list] of own) {
    const need = NEEDS[p.evidenceLevel];
    if (!need || list.some((d) => need.any.includes(d.c))) continue;
    const d = list.filter((x) => x.j >= EVIDENCE_CLASSIFICATIONS.length && x.c !== "regulatory_label").pop();
    if (!d) continue;
    d.c = need.make;
    d.study.evidenceClassification = need.make;
    if (need.make === "regulatory_label") makeLabel(d);
  }
}

/** Profiles by research topic, in the profiles' order. */
function peptidesByTopic(peptides: readonly Peptide[]): Map<string, Peptide[]> {
  const byTopic = new Map<string, Peptide[]>();
  for (const p of peptides) {
    for (const t of p.researchTopics) {
      const list = byTopic.get(t);
      if (list) list.push(p);
      else byTopic.set(t, [p]);
    }
  }
  return byTopic;
}

/**
 * Each study's design; some studies compare their profile with another studied for the
 * same topic whose evidence level allows the design and who has room for one more citation.
 */
function designsAndPairs(seed: number, cited: Draft[], own: Map<Peptide, Draft[]>, peptides: Peptide[]) {
  const max = LIMITS.peptideStudiesMax;
  const pairRng = createRng(seed, "study-pairs");
  const load = new Map<Peptide, number>([...own].map(([p, list]) => [p, list.length]));
  const byTopic = peptidesByTopic(peptides);
  const kinds = new Map<Draft, StudyKind>();
  const kindCache = new Map<string, StudyKind[]>();
  for (const d of cited) {
    const key = `${d.c}|${d.owner.evidenceLevel}`;
    const options = kindCache.get(key) ?? kindCache.set(key, kindsFor(d.c, d.owner.evidenceLevel)).get(key)!;
    if (options.length === 0) throw new Error(`no study design for ${d.c} under ${d.owner.evidenceLevel}`);
    const kind = nth(options, d.kindDraw);
    kinds.set(d, kind);
    if (!kind.pair || !pairRng.chance(PAIR_SHARE)) continue;
    // A few random tries rather than filtering the whole topic: scale 100 has thousands of profiles a topic.
    const sameTopic = byTopic.get(d.topic) ?? [];
    for (let attempt = 0; attempt < PAIR_TRIES && d.partner === undefined; attempt++) {
      const q = pairRng.pick(sameTopic);
      if (q !== d.owner && (load.get(q) ?? max) < max && kindFits(kind, q.evidenceLevel)) d.partner = q;
    }
    if (d.partner) load.set(d.partner, (load.get(d.partner) ?? 0) + 1);
  }
  return kinds;
}

/** The text, from the design's row. */
function writeText(cited: Draft[], kinds: Map<Draft, StudyKind>): void {
  for (const d of cited) {
    const kind = kinds.get(d) as StudyKind;
    const t = d.topic.toLowerCase();
    const names = d.partner ? [d.owner.name, d.partner.name] : [d.owner.name];
    const base =
      d.partner && kind.pair
        ? kind.pair(d.owner.name, d.partner.name, t)
        : nth(kind.titles, d.titleDraw)(d.owner.name, t);
    Object.assign(d.study, {
      title: d.special ? base + (SPECIAL_ENDINGS[Math.floor(d.j / 37) % SPECIAL_ENDINGS.length] as string) : base,
      studyType: kind.studyType,
      researchModel: kind.researchModel,
      findingSummary: kind.finding(names, t),
    });
  }
}

/** Citations: each profile its own studies first, then those it is the second subject of. */
function cite(cited: Draft[]): void {
  for (const d of cited) {
    d.owner.studyIds.push(d.study.id);
    d.study.citedBy.push(d.owner.id);
  }
  for (const d of cited) {
    if (!d.partner) continue;
    d.partner.studyIds.push(d.study.id);
    d.study.citedBy.push(d.partner.id);
  }
}

/** Generates `count` studies and fills each profile's `studyIds` (at most 12). */
export function generateStudies(seed: number, count: number, peptides: Peptide[], nowYear: number): Study[] {
  const drafts = draftStudies(createRng(seed, "studies"), count, peptides, nowYear);
  // Study j is its owner's (j mod P); an owner keeps its first 12.
  const cited = drafts.filter((d) => Math.floor(d.j / peptides.length) < LIMITS.peptideStudiesMax);
  const own = new Map<Peptide, Draft[]>(peptides.map((p) => [p, []]));
  for (const d of cited) own.get(d.owner)?.push(d);
  backEachLevel(own);
  const kinds = designsAndPairs(seed, cited, own, peptides);
  writeText(cited, kinds);
  cite(cited);
  return cited.map((d) => d.study);
}
