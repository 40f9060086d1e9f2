/**
 * Order and section titles of the cards of known resources. Field names the spec leaves
 * open are listed as candidates (the first ones the API is likely to use, then common
 * alternatives); keys a layout does not name still appear, after the named ones.
 */
import type { Resource } from "../core/command.js";
import type { CardLayout, SectionSpec } from "./card-types.js";

/** Details of the record itself, printed last on every card that has them. */
const RECORD: SectionSpec = {
  title: "About this record",
  keys: ["content_reviewed_at", "reviewed_at", "date_reviewed", "updated_at", "api_url", "logo_url", "disclaimer"],
};

// Profiles: identity, the summary, the evidence (human apart from preclinical), then the
// details: mechanism, chemistry, safety, regulation, and the references not cited above.
const PEPTIDE: CardLayout = {
  titleKeys: ["name", "title"],
  overview: [
    "id",
    "slug",
    "also_known_as",
    "aliases",
    "synonyms",
    "classification",
    "categories",
    "research_topics",
    "evidence_level",
    "evidence.level",
    "studies_cited",
    "regulatory_status",
    "fda_status",
  ],
  sections: [
    { title: "Summary", keys: ["summary"], paragraph: true },
    {
      title: "Evidence in humans",
      keys: ["human_evidence", "evidence.human", "evidence.humans", "evidence.clinical", "clinical_evidence"],
    },
    {
      title: "Preclinical evidence (animal and laboratory)",
      keys: ["preclinical_evidence", "evidence.preclinical", "evidence.animal"],
    },
    { title: "Secondary reports", keys: ["secondary_evidence", "evidence.secondary", "secondary_reports"] },
    { title: "Evidence", keys: ["evidence"] },
    { title: "Mechanism", keys: ["mechanism", "mechanism_of_action", "mechanisms"] },
    { title: "Chemical properties", keys: ["chemical_properties", "chemistry", "properties"] },
    { title: "Safety", keys: ["safety", "safety_information", "side_effects"] },
    { title: "Regulatory status", keys: ["regulatory", "regulatory_details"] },
    { title: "References", keys: ["references", "sources", "studies"] },
  ],
  trailing: [RECORD],
};

const RESEARCH: CardLayout = {
  titleKeys: ["peptide.name", "name", "title"],
  urlKeys: ["peptide.url", "url"],
  overview: ["peptide.id", "peptide.slug", "evidence_level", "evidence.level"],
  sections: [
    // The spec's order: what is being investigated, then the evidence for it.
    { title: "Mechanisms under investigation", keys: ["mechanisms", "mechanisms_under_investigation", "mechanism"] },
    { title: "Clinical evidence (humans)", keys: ["clinical_evidence", "human_evidence"] },
    { title: "Preclinical evidence (animal and laboratory)", keys: ["preclinical_evidence"] },
    { title: "Secondary reports", keys: ["secondary_reports"] },
    { title: "Safety", keys: ["safety", "safety_information"] },
    { title: "Limitations", keys: ["limitations", "known_limitations"] },
    { title: "Research gaps", keys: ["research_gaps", "gaps"] },
    { title: "References", keys: ["references", "source_references", "sources"] },
  ],
  trailing: [RECORD],
};

const REGULATORY: CardLayout = {
  titleKeys: ["peptide_name", "peptide.name", "name"],
  urlKeys: ["peptide_url", "peptide.url", "url"],
  overview: [
    "peptide_id",
    "regulatory_status",
    "fda_status",
    "fda.status",
    "wada_status",
    "wada.status",
    "availability",
    "development_stage",
  ],
  sections: [
    { title: "FDA", keys: ["fda"] },
    { title: "WADA", keys: ["wada"] },
  ],
  trailing: [RECORD],
};

const STUDY: CardLayout = {
  titleKeys: ["title", "name"],
  urlKeys: ["url"],
  overview: [
    "authors",
    "journal",
    "publication_year",
    "year",
    "study_type",
    "research_model",
    "evidence_classification",
    "evidence_classification_label",
  ],
  sections: [
    {
      title: "Finding",
      keys: ["finding_summary", "findings", "summary", "key_findings", "key_finding", "abstract"],
      paragraph: true,
    },
    { title: "Identifiers", keys: ["id", "pmid", "doi", "nct_id", "source_url"] },
    { title: "Cited by", keys: ["cited_by", "citing_profiles", "citing_peptides", "profiles", "peptides"] },
  ],
  trailing: [RECORD],
};

const VENDOR: CardLayout = {
  titleKeys: ["name", "slug"],
  urlKeys: ["profile_url", "url"],
  overview: ["id", "slug", "aliases", "location", "rating", "website_url", "product_categories"],
  sections: [
    { title: "About", keys: ["description"], paragraph: true },
    { title: "Catalog", keys: ["catalog"] },
    { title: "Shipping", keys: ["shipping", "shipping_summary"] },
    { title: "Ships to", keys: ["ships_to"] },
    { title: "Sources", keys: ["sources"] },
  ],
  trailing: [RECORD],
};

const SHIPPING: CardLayout = {
  titleKeys: ["name", "vendor_name", "vendor.name"],
  urlKeys: ["profile_url", "url", "vendor.url"],
  overview: ["id", "slug", "website_url", "ships_to"],
  sections: [
    { title: "Destinations", keys: ["destinations"] },
    { title: "Exclusions", keys: ["exclusions", "excluded_destinations", "restrictions"] },
    { title: "Methods", keys: ["methods", "shipping_methods", "carriers"] },
    { title: "Free shipping", keys: ["free_shipping"] },
    { title: "Returns", keys: ["returns", "return_policy"] },
    { title: "Sources", keys: ["sources"] },
  ],
  trailing: [RECORD],
};

const GENERIC: CardLayout = { titleKeys: ["name", "title", "label"] };

/** The card of each resource: a new resource says which (GENERIC: title, then every field). */
const LAYOUTS: Record<Resource, CardLayout> = {
  index: GENERIC,
  health: GENERIC,
  peptide: PEPTIDE,
  "peptide-profile": PEPTIDE,
  research: RESEARCH,
  regulatory: REGULATORY,
  category: GENERIC,
  "research-area": GENERIC,
  search: GENERIC,
  study: STUDY,
  "cited-study": STUDY,
  "study-detail": STUDY,
  vendor: VENDOR,
  "vendor-detail": VENDOR,
  "vendor-shipping": SHIPPING,
  "vendor-compare": GENERIC,
  offer: GENERIC,
  product: GENERIC,
  change: GENERIC,
  config: GENERIC,
  "auth-status": GENERIC,
  profile: GENERIC,
  generic: GENERIC,
};

export function layoutFor(resource: Resource): CardLayout {
  return LAYOUTS[resource];
}

/** Cards about research, under which the "not medical advice" notice is printed. */
export const RESEARCH_CARDS: ReadonlySet<Resource> = new Set<Resource>([
  "peptide-profile",
  "research",
  "regulatory",
  "study-detail",
]);
