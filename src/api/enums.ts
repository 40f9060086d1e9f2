/**
 * Enumerated values of the API (docs/api.md#enumerated-values, and the sort values of
 * docs/api.md#query-parameters), as plain data. Help text, completions, man pages and the
 * zod parameter schemas in `query-schemas.ts` all derive from these lists; nothing else spells
 * them out. It imports nothing, so every layer may read it (CONTRIBUTING.md, Layers).
 */

export const CATEGORIES = [
  "fat-loss",
  "cognitive",
  "muscle-recovery",
  "longevity",
  "glp1-metabolic",
  "cosmetic",
  "experimental",
] as const;

export const EVIDENCE_LEVELS = [
  "fda-approved",
  "established-human",
  "clinical-trial",
  "limited-human",
  "preclinical",
  "insufficient",
] as const;

export const REGULATORY_STATUSES = [
  "approved",
  "investigational",
  "experimental",
  "withdrawn",
  "insufficient",
] as const;

export const PRODUCT_CATEGORIES = ["peptides", "sprays", "capsules", "other"] as const;

/**
 * Product forms (`form` of products and prices) as the data spells them: ids, not the
 * product categories above (`capsule`, not `capsules`). The spec names no full list, so
 * these are examples for help and tool descriptions; the API is the judge.
 */
export const PRODUCT_FORM_EXAMPLES = ["lyophilized-powder", "solution", "nasal-spray", "capsule", "topical"] as const;

/**
 * Evidence classification identifiers. The spec names the six classes and gives one
 * exact identifier (`human_controlled_trial`); the others follow the same pattern.
 * The CLI refuses any other value before the request, with a suggestion, and offers
 * these for completion and help.
 */
export const EVIDENCE_CLASSIFICATIONS = [
  "regulatory_label",
  "human_controlled_trial",
  "human_study",
  "secondary_report",
  "animal_or_lab",
  "in_vitro",
] as const;

/**
 * Words people type for an evidence classification, offered as "did you mean" when a
 * value is not one pep knows (never sent in its place: the user chooses).
 */
export const EVIDENCE_CLASSIFICATION_SYNONYMS: Readonly<Record<string, (typeof EVIDENCE_CLASSIFICATIONS)[number]>> = {
  rct: "human_controlled_trial",
  trial: "human_controlled_trial",
  controlled_trial: "human_controlled_trial",
  clinical_trial: "human_controlled_trial",
  clinical: "human_controlled_trial",
  randomized: "human_controlled_trial",
  randomised: "human_controlled_trial",
  human: "human_study",
  people: "human_study",
  cohort: "human_study",
  case_report: "human_study",
  observational: "human_study",
  label: "regulatory_label",
  fda: "regulatory_label",
  approved: "regulatory_label",
  regulatory: "regulatory_label",
  review: "secondary_report",
  meta_analysis: "secondary_report",
  systematic_review: "secondary_report",
  animal: "animal_or_lab",
  lab: "animal_or_lab",
  rodent: "animal_or_lab",
  mouse: "animal_or_lab",
  mice: "animal_or_lab",
  rat: "animal_or_lab",
  preclinical: "animal_or_lab",
  invitro: "in_vitro",
  cell: "in_vitro",
};

/**
 * Words people type for an evidence level (`clinical` is `clinical-trial`, never
 * `preclinical`, its opposite), offered as "did you mean" as the classification's are.
 * A word that fits several levels names them all, strongest first.
 */
export const EVIDENCE_LEVEL_SYNONYMS: Readonly<Record<string, readonly (typeof EVIDENCE_LEVELS)[number][]>> = {
  approved: ["fda-approved"],
  fda: ["fda-approved"],
  label: ["fda-approved"],
  licensed: ["fda-approved"],
  established: ["established-human"],
  proven: ["established-human"],
  strong: ["established-human"],
  human: ["established-human", "clinical-trial", "limited-human"],
  people: ["established-human", "clinical-trial", "limited-human"],
  clinical: ["clinical-trial"],
  clinic: ["clinical-trial"],
  trial: ["clinical-trial"],
  rct: ["clinical-trial"],
  randomized: ["clinical-trial"],
  randomised: ["clinical-trial"],
  limited: ["limited-human"],
  some_human: ["limited-human"],
  case_report: ["limited-human"],
  observational: ["limited-human"],
  animal: ["preclinical"],
  lab: ["preclinical"],
  laboratory: ["preclinical"],
  rodent: ["preclinical"],
  mouse: ["preclinical"],
  mice: ["preclinical"],
  rat: ["preclinical"],
  in_vitro: ["preclinical"],
  invitro: ["preclinical"],
  cell: ["preclinical"],
  none: ["insufficient"],
  unknown: ["insufficient"],
  weak: ["insufficient"],
  anecdotal: ["insufficient"],
};

/** Words people type for a regulatory status. */
export const REGULATORY_STATUS_SYNONYMS: Readonly<Record<string, readonly (typeof REGULATORY_STATUSES)[number][]>> = {
  fda: ["approved"],
  fda_approved: ["approved"],
  licensed: ["approved"],
  authorized: ["approved"],
  authorised: ["approved"],
  legal: ["approved"],
  trial: ["investigational"],
  clinical: ["investigational"],
  clinical_trial: ["investigational"],
  testing: ["investigational"],
  research: ["experimental"],
  unapproved: ["experimental", "investigational"],
  banned: ["withdrawn"],
  recalled: ["withdrawn"],
  discontinued: ["withdrawn"],
  pulled: ["withdrawn"],
  unknown: ["insufficient"],
  none: ["insufficient"],
};

/** Words people type for a research category. */
export const CATEGORY_SYNONYMS: Readonly<Record<string, readonly (typeof CATEGORIES)[number][]>> = {
  fat: ["fat-loss"],
  weight: ["fat-loss"],
  weight_loss: ["fat-loss"],
  obesity: ["fat-loss"],
  slimming: ["fat-loss"],
  brain: ["cognitive"],
  cognition: ["cognitive"],
  memory: ["cognitive"],
  nootropic: ["cognitive"],
  focus: ["cognitive"],
  muscle: ["muscle-recovery"],
  recovery: ["muscle-recovery"],
  healing: ["muscle-recovery"],
  injury: ["muscle-recovery"],
  tendon: ["muscle-recovery"],
  aging: ["longevity"],
  ageing: ["longevity"],
  anti_aging: ["longevity"],
  lifespan: ["longevity"],
  glp1: ["glp1-metabolic"],
  glp_1: ["glp1-metabolic"],
  metabolic: ["glp1-metabolic"],
  metabolism: ["glp1-metabolic"],
  diabetes: ["glp1-metabolic"],
  insulin: ["glp1-metabolic"],
  glucose: ["glp1-metabolic"],
  skin: ["cosmetic"],
  hair: ["cosmetic"],
  beauty: ["cosmetic"],
  tanning: ["cosmetic"],
  new: ["experimental"],
};

/**
 * The synonym tables by query parameter, for the messages that judge a value: a word
 * people use gets the value it means (never sent in its place: the user chooses).
 */
export const VALUE_SYNONYMS: Readonly<Record<string, Readonly<Record<string, string | readonly string[]>>>> = {
  evidence_level: EVIDENCE_LEVEL_SYNONYMS,
  evidence_classification: EVIDENCE_CLASSIFICATION_SYNONYMS,
  regulatory_status: REGULATORY_STATUS_SYNONYMS,
  category: CATEGORY_SYNONYMS,
};

export const PEPTIDE_SORTS = ["relevance", "name", "-name", "evidence", "updated"] as const;
export const STUDY_SORTS = ["newest", "oldest", "title"] as const;
export const VENDOR_SORTS = ["best_match", "rating", "reviews", "popular", "products", "name", "-name"] as const;
export const SEARCH_TYPES = ["peptides", "content"] as const;

/**
 * The CSV/TSV columns of a list of peptides, in the order the API documents its fields
 * (docs/api.md#resources), nested objects flattened to the paths named here. The fields
 * `--fields` may name are derived from it (its top-level names), so the two never differ.
 */
export const PEPTIDE_COLUMNS = [
  "id",
  "name",
  "also_known_as",
  "categories",
  "summary",
  "research_topics",
  "classification",
  "fda_status",
  "evidence.level",
  "evidence.label",
  "evidence.human_studies",
  "evidence.preclinical_studies",
  "evidence.secondary_reports",
  "url",
  "regulatory_status",
  "content_reviewed_at",
  "api_url",
] as const;

/** The top-level fields of a list of columns, in order: `rating.average`, `rating.count` -> `rating`. */
function topLevel(columns: readonly string[]): readonly string[] {
  return [...new Set(columns.map((c) => c.split(".")[0]!))];
}

/** The fields of a peptide `--fields` (and the API's `fields`) may name. */
export const PEPTIDE_FIELDS = topLevel(PEPTIDE_COLUMNS);

export const STUDY_FIELDS = [
  "id",
  "title",
  "publication_year",
  "authors",
  "journal",
  "doi",
  "pmid",
  "nct_id",
  "study_type",
  "research_model",
  "evidence_classification",
  "evidence_classification_label",
  "source_url",
  "cited_by",
] as const;

/** The CSV/TSV columns of a list of vendors (as PEPTIDE_COLUMNS). */
export const VENDOR_COLUMNS = [
  "id",
  "slug",
  "name",
  "description",
  "logo_url",
  "country",
  "region",
  "website_url",
  "profile_url",
  "product_categories",
  "rating.average",
  "rating.count",
  "rating.verified_count",
  "catalog.product_count",
  "catalog.peptide_count",
  "catalog.last_checked_at",
  "shipping.coverage",
  "shipping.destinations",
  "shipping.exclusions",
  "shipping.free_shipping.available",
  "shipping.free_shipping.threshold",
  "shipping.returns_accepted",
  "api_url",
] as const;

/** The fields of a vendor `--fields` (and the API's `fields`) may name: VENDOR_COLUMNS' top-level names. */
export const VENDOR_FIELDS = topLevel(VENDOR_COLUMNS);

export const SCOPES = ["research:read", "studies:read", "vendors:read", "products:read", "pricing:read"] as const;
export type Scope = (typeof SCOPES)[number];

export const AUTH_HEADERS = ["bearer", "x-api-key"] as const;
export type AuthHeader = (typeof AUTH_HEADERS)[number];

/** Output formats: every command, and the extra ones of the study commands. */
export const OUTPUT_FORMATS = ["table", "json", "ndjson", "csv", "tsv", "ids"] as const;
export const CITATION_FORMATS = ["bibtex", "ris", "csl-json"] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number] | (typeof CITATION_FORMATS)[number];

/** The API's bounds (docs/api.md#parameter-bounds), shared by flags, validation, help and the sandbox. */
export const LIMITS = {
  pageMax: 100,
  pageDefault: 20,
  searchLimitMax: 25,
  searchLimitDefault: 10,
  searchMaxLength: 200,
  areaSearchMaxLength: 80,
  researchAreaMaxLength: 80,
  yearMin: 1900,
  yearMax: 2100,
  ratingMin: 0,
  ratingMax: 5,
  compareMin: 2,
  compareMax: 4,
  peptideStudiesMax: 12,
} as const;

/** ISO 3166-1 alpha-2, and a subdivision such as `US-CA` (docs/api.md#parameter-bounds). */
export const COUNTRY_PATTERN = /^[A-Za-z]{2}$/;
export const SHIPS_TO_PATTERN = /^[A-Za-z]{2}(-[A-Za-z0-9]{1,3})?$/;

/**
 * What `pep sync` keeps, by the names it takes: each list resource of the API, in the
 * order a whole sync walks them (peptides first, so that their cited studies link up).
 */
export const LIBRARY_RESOURCES = [
  "peptides",
  "studies",
  "vendors",
  "products",
  "prices",
  "categories",
  "research-areas",
] as const;
/** A resource of the library, named as `pep sync` names it. */
export type LibraryResource = (typeof LIBRARY_RESOURCES)[number];

/**
 * The answers the library keeps per item, beside the lists, by resource: the kind names a
 * row of its `details` table (docs/library.md). Which endpoint answers each is a fact of
 * that endpoint's descriptor (`offline` in api/endpoints.ts).
 */
export const DETAIL_KINDS = {
  peptides: ["profile", "research", "regulatory", "studies"],
  vendors: ["profile"],
  studies: ["profile"],
} as const;
/** A resource whose items have detail answers kept. */
export type DetailResource = keyof typeof DETAIL_KINDS;
/** A kind of detail answer (`profile`, `research`, `regulatory`, `studies`). */
export type DetailKind = (typeof DETAIL_KINDS)[DetailResource][number];
