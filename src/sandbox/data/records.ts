/**
 * Shapes of the synthetic records held in memory. Handlers turn these into the API's
 * response items; internal-only fields (popularity, commission, exclusion reasons) never
 * reach a response.
 */
import type {
  CATEGORIES,
  EVIDENCE_CLASSIFICATIONS,
  EVIDENCE_LEVELS,
  PRODUCT_CATEGORIES,
  REGULATORY_STATUSES,
} from "../../api/enums.js";

export type CategoryId = (typeof CATEGORIES)[number];
export type EvidenceLevel = (typeof EVIDENCE_LEVELS)[number];
export type RegulatoryStatus = (typeof REGULATORY_STATUSES)[number];
export type ProductCategory = (typeof PRODUCT_CATEGORIES)[number];
export type EvidenceClassification = (typeof EVIDENCE_CLASSIFICATIONS)[number];

/** What an undocumented research field holds (docs/api.md#content-rules). */
export const NOT_DOCUMENTED = "not_documented";
export type Documented<T> = T | typeof NOT_DOCUMENTED;

export interface ResearchArea {
  id: string;
  name: string;
  description: string;
}

export interface Peptide {
  id: string;
  name: string;
  synonyms: string[];
  aliases: string[];
  categories: CategoryId[];
  summary: string;
  researchTopics: string[];
  classification: Documented<string>;
  fdaStatus: Documented<string>;
  wadaStatus: Documented<string>;
  availability: Documented<string>;
  developmentStage: Documented<string>;
  evidenceLevel: EvidenceLevel;
  regulatoryStatus: RegulatoryStatus;
  contentReviewedAt: string;
  mechanism: { summary: Documented<string>; targets: string[] };
  chemical: {
    sequence: Documented<string>;
    sequenceLength: Documented<number>;
    molecularFormula: Documented<string>;
    molecularWeightDa: Documented<number>;
  };
  safety: { summary: Documented<string>; reportedAdverseEvents: string[]; knownInteractions: Documented<string> };
  limitations: string[];
  researchGaps: string[];
  /** Study ids (canonical) cited by this profile, at most 12. */
  studyIds: string[];
}

export interface Study {
  id: string;
  title: string;
  publicationYear: number;
  authors: string[];
  journal: string;
  doi: string | null;
  pmid: string | null;
  nctId: string | null;
  studyType: string;
  researchModel: "human" | "animal" | "in vitro";
  evidenceClassification: EvidenceClassification;
  findingSummary: string;
  citedBy: string[];
}

export interface Source {
  type: "vendor_site" | "moderated_reviews" | "catalog_crawl" | "editorial_review";
  url: string | null;
  checked_at: string;
}

export interface Vendor {
  id: string;
  slug: string;
  name: string;
  aliases: string[];
  description: string;
  logoUrl: string | null;
  country: string;
  region: string | null;
  websiteUrl: string;
  ratingAverage: number | null;
  ratingCount: number;
  verifiedCount: number;
  /** Monthly directory views; the `popular` sort. Never a commission. */
  popularity: number;
  /** Whether listed prices may be shared; offers of other vendors are never listed. */
  pricesShareable: boolean;
  /** Kept to prove that order never depends on it: no sort reads it. */
  affiliateCommissionPct: number;
  shipping: {
    /** `null`: coverage unknown. `worldwide`: every country except exclusions. */
    destinations: string[] | "worldwide" | null;
    exclusions: string[];
    methods: { name: string; carrier: string | null; estimated_days: string | null }[] | null;
    freeShipping: { available: boolean; threshold: { amount: string; currency: string } | null } | null;
    returns: { accepted: boolean; window_days: number | null; conditions: string | null } | null;
    checkedAt: string;
  };
  catalogCheckedAt: string;
}

export type ProductForm = "lyophilized-powder" | "solution" | "nasal-spray" | "capsule" | "topical";

export interface Offer {
  id: string;
  /** `null`: not matched to a library profile (never listed). */
  peptideId: string | null;
  vendorId: string;
  productName: string;
  form: ProductForm;
  price: string;
  currency: string;
  lastSeenAt: string;
  productSlug: string;
  inStock: boolean | null;
}

export type ContentType = "site_faq" | "peptide_faq" | "article" | "course";

export interface ContentItem {
  id: string;
  type: ContentType;
  title: string;
  excerpt: string;
  url: string;
  peptideId: string | null;
  /** Dosing and commerce pages exist on the site but are never returned by search. */
  topic: "education" | "dosing" | "commerce";
}
