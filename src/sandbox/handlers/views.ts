/**
 * Response shapes of each resource, built from the in-memory records. Field names of the
 * list items are exactly those the service lists, the values `fields` accepts
 * (docs/api.md#resources).
 */
import { SITE_URL } from "../request-context.js";
import { NOT_DOCUMENTED, type EvidenceClassification, type Peptide, type Study } from "../data/records.js";
import type { Dataset } from "../data/index.js";
import { CLASSIFICATION_LABELS } from "../data/study-generator.js";

export const CATEGORY_LABELS: Record<string, string> = {
  "fat-loss": "Fat loss",
  cognitive: "Cognitive",
  "muscle-recovery": "Muscle recovery",
  longevity: "Longevity",
  "glp1-metabolic": "GLP-1 and metabolic",
  cosmetic: "Cosmetic",
  experimental: "Experimental",
};

export const EVIDENCE_LABELS: Record<string, string> = {
  "fda-approved": "FDA approved",
  "established-human": "Established in humans",
  "clinical-trial": "In clinical trials",
  "limited-human": "Limited human evidence",
  preclinical: "Preclinical only",
  insufficient: "Insufficient evidence",
};

const HUMAN: readonly EvidenceClassification[] = ["regulatory_label", "human_controlled_trial", "human_study"];
const PRECLINICAL: readonly EvidenceClassification[] = ["animal_or_lab", "in_vitro"];

export const peptideUrl = (id: string) => `${SITE_URL}/peptides/${id}`;

export function peptideRef(p: Peptide): { id: string; name: string; url: string } {
  return { id: p.id, name: p.name, url: peptideUrl(p.id) };
}

export function citedStudies(data: Dataset, p: Peptide): Study[] {
  return p.studyIds.map((id) => data.studyById.get(id)).filter((s): s is Study => s !== undefined);
}

/** Item of `GET /peptides`: a peptide summary (docs/api.md#resources). */
export function peptideSummary(data: Dataset, p: Peptide, baseUrl: string) {
  const studies = citedStudies(data, p);
  const count = (set: readonly EvidenceClassification[]) =>
    studies.filter((s) => set.includes(s.evidenceClassification)).length;
  return {
    id: p.id,
    name: p.name,
    also_known_as: [...p.synonyms, ...p.aliases],
    categories: p.categories,
    summary: p.summary,
    research_topics: p.researchTopics,
    classification: p.classification,
    fda_status: p.fdaStatus,
    evidence: {
      level: p.evidenceLevel,
      label: EVIDENCE_LABELS[p.evidenceLevel],
      human_studies: count(HUMAN),
      preclinical_studies: count(PRECLINICAL),
      secondary_reports: count(["secondary_report"]),
    },
    url: peptideUrl(p.id),
    regulatory_status: p.regulatoryStatus,
    content_reviewed_at: p.contentReviewedAt,
    api_url: `${baseUrl}/peptides/${p.id}`,
  };
}

export const studySourceUrl = (s: Study) =>
  s.pmid
    ? `https://pubmed.example/${s.pmid}`
    : s.doi
      ? `https://doi.example/${s.doi}`
      : `https://trials.example/${s.nctId}`;

/** Item of `GET /studies`: a study index entry (docs/api.md#resources). */
export function studyEntry(s: Study) {
  return {
    id: s.id,
    title: s.title,
    publication_year: s.publicationYear,
    authors: s.authors,
    journal: s.journal,
    doi: s.doi,
    pmid: s.pmid,
    nct_id: s.nctId,
    study_type: s.studyType,
    research_model: s.researchModel,
    evidence_classification: s.evidenceClassification,
    evidence_classification_label: CLASSIFICATION_LABELS[s.evidenceClassification],
    source_url: studySourceUrl(s),
    cited_by: s.citedBy,
  };
}

/** A study as cited by a profile: the index entry plus the editors' finding summary. */
export function citedStudy(s: Study, baseUrl: string) {
  return {
    ...studyEntry(s),
    finding_summary: s.findingSummary,
    api_url: `${baseUrl}/studies/${encodeURIComponent(s.id)}`,
  };
}

/** A short reference to a study inside a profile or research summary. */
export function studyRef(s: Study) {
  return {
    study_id: s.id,
    title: s.title,
    publication_year: s.publicationYear,
    study_type: s.studyType,
    evidence_classification: s.evidenceClassification,
    evidence_classification_label: CLASSIFICATION_LABELS[s.evidenceClassification],
    nct_id: s.nctId,
    finding_summary: s.findingSummary,
    source_url: studySourceUrl(s),
  };
}

/** Full profile of `GET /peptides/{slug}`. Never holds dose figures or use instructions. */
export function peptideProfile(data: Dataset, p: Peptide, baseUrl: string) {
  const summary = peptideSummary(data, p, baseUrl);
  const studies = citedStudies(data, p);
  const human = studies.filter((s) => HUMAN.includes(s.evidenceClassification));
  const pre = studies.filter((s) => PRECLINICAL.includes(s.evidenceClassification));
  const secondary = studies.filter((s) => s.evidenceClassification === "secondary_report");
  return {
    ...summary,
    synonyms: p.synonyms,
    aliases: p.aliases,
    mechanism: { summary: p.mechanism.summary, targets: p.mechanism.targets },
    chemical_properties: {
      sequence: p.chemical.sequence,
      sequence_length: p.chemical.sequenceLength,
      molecular_formula: p.chemical.molecularFormula,
      molecular_weight_da: p.chemical.molecularWeightDa,
    },
    evidence: {
      ...summary.evidence,
      human: {
        summary: human.length > 0 ? `${human.length} human source(s) cited.` : NOT_DOCUMENTED,
        studies: human.map(studyRef),
      },
      preclinical: {
        summary:
          pre.length > 0
            ? `${pre.length} animal or laboratory source(s) cited; findings may not apply to humans.`
            : NOT_DOCUMENTED,
        studies: pre.map(studyRef),
      },
      secondary: { studies: secondary.map(studyRef) },
    },
    safety: {
      summary: p.safety.summary,
      reported_adverse_events: p.safety.reportedAdverseEvents,
      known_interactions: p.safety.knownInteractions,
    },
    regulatory: regulatoryStatus(p),
    references: studies.map((s) => ({ ...studyRef(s), api_url: `${baseUrl}/studies/${encodeURIComponent(s.id)}` })),
    disclaimer: "Synthetic sandbox record for research and education only; not medical advice.",
  };
}

export function regulatoryStatus(p: Peptide) {
  return {
    regulatory_status: p.regulatoryStatus,
    fda_status: p.fdaStatus,
    wada_status: p.wadaStatus,
    availability: p.availability,
    development_stage: p.developmentStage,
    reviewed_at: p.contentReviewedAt,
  };
}
