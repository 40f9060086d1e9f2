/**
 * Order and section titles of the cards of known resources. Field names the spec leaves
 * open are listed as candidates (the first ones the API is likely to use, then common
 * alternatives); keys a layout does not name still appear, after the named ones.
 */
import type { Resource } from "../commands/types.js";
import type { CardLayout } from "./card.js";

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
    "evidence.level",
    "regulatory_status",
    "fda_status",
    "summary",
    "research_topics",
  ],
  sections: [
    { title: "Mechanism", keys: ["mechanism", "mechanism_of_action", "mechanisms"] },
    { title: "Chemical properties", keys: ["chemical_properties", "chemistry", "properties"] },
    {
      title: "Evidence in humans",
      keys: [
        "evidence.human",
        "evidence.humans",
        "evidence.human_evidence",
        "evidence.clinical",
        "human_evidence",
        "clinical_evidence",
      ],
    },
    {
      title: "Preclinical evidence",
      keys: ["evidence.preclinical", "evidence.animal", "evidence.preclinical_evidence", "preclinical_evidence"],
    },
    { title: "Evidence", keys: ["evidence"] },
    { title: "Safety", keys: ["safety", "safety_information", "side_effects"] },
    { title: "Regulatory status", keys: ["regulatory", "regulatory_details"] },
    { title: "References", keys: ["references", "sources", "studies"] },
  ],
};

const RESEARCH: CardLayout = {
  titleKeys: ["peptide.name", "name", "title"],
  urlKeys: ["peptide.url", "url"],
  sections: [
    { title: "Mechanisms under investigation", keys: ["mechanisms", "mechanisms_under_investigation", "mechanism"] },
    { title: "Clinical evidence (humans)", keys: ["clinical_evidence", "human_evidence"] },
    { title: "Preclinical evidence", keys: ["preclinical_evidence"] },
    { title: "Secondary reports", keys: ["secondary_reports"] },
    { title: "Safety", keys: ["safety", "safety_information"] },
    { title: "Limitations", keys: ["limitations", "known_limitations"] },
    { title: "Research gaps", keys: ["research_gaps", "gaps"] },
    { title: "References", keys: ["references", "source_references", "sources"] },
  ],
};

const REGULATORY: CardLayout = {
  titleKeys: ["peptide.name", "name"],
  urlKeys: ["peptide.url", "url"],
  overview: [
    "fda_status",
    "fda.status",
    "wada_status",
    "wada.status",
    "availability",
    "development_stage",
    "regulatory_status",
    "reviewed_at",
    "date_reviewed",
    "content_reviewed_at",
  ],
  sections: [
    { title: "FDA", keys: ["fda"] },
    { title: "WADA", keys: ["wada"] },
  ],
};

const STUDY: CardLayout = {
  titleKeys: ["title", "name"],
  urlKeys: ["url", "source_url"],
  overview: ["authors", "journal", "publication_year", "year", "study_type", "research_model"],
  sections: [
    { title: "Identifiers", keys: ["id", "pmid", "doi", "nct_id", "source_url"] },
    { title: "Classification", keys: ["evidence_classification", "evidence_classification_label"] },
    { title: "Finding", keys: ["finding_summary", "findings", "summary", "key_findings", "key_finding", "abstract"] },
    { title: "Cited by", keys: ["cited_by", "citing_profiles", "profiles", "peptides"] },
  ],
};

const VENDOR: CardLayout = {
  titleKeys: ["name", "slug"],
  urlKeys: ["url", "profile_url"],
  overview: ["id", "slug", "description", "website_url", "profile_url", "product_categories"],
  sections: [
    { title: "Location", keys: ["location", "country", "region", "city", "address"] },
    { title: "Rating", keys: ["rating", "reviews", "review_summary"] },
    { title: "Catalog", keys: ["catalog"] },
    { title: "Shipping", keys: ["shipping", "shipping_summary"] },
    { title: "Ships to", keys: ["ships_to"] },
    { title: "Sources", keys: ["sources"] },
  ],
};

const SHIPPING: CardLayout = {
  titleKeys: ["vendor.name", "vendor_name", "name"],
  urlKeys: ["vendor.url", "url"],
  sections: [
    { title: "Ships to", keys: ["ships_to"] },
    { title: "Destinations", keys: ["destinations"] },
    { title: "Exclusions", keys: ["exclusions", "excluded_destinations", "restrictions"] },
    { title: "Methods", keys: ["methods", "shipping_methods", "carriers"] },
    { title: "Free shipping", keys: ["free_shipping"] },
    { title: "Returns", keys: ["returns", "return_policy"] },
  ],
};

const GENERIC: CardLayout = { titleKeys: ["name", "title", "label"] };

const LAYOUTS: Partial<Record<Resource, CardLayout>> = {
  peptide: PEPTIDE,
  "peptide-profile": PEPTIDE,
  research: RESEARCH,
  regulatory: REGULATORY,
  study: STUDY,
  "study-detail": STUDY,
  vendor: VENDOR,
  "vendor-detail": VENDOR,
  "vendor-shipping": SHIPPING,
};

export function layoutFor(resource: Resource): CardLayout {
  return LAYOUTS[resource] ?? GENERIC;
}

/** Cards about research, under which the "not medical advice" notice is printed. */
export const RESEARCH_CARDS: ReadonlySet<Resource> = new Set<Resource>([
  "peptide-profile",
  "research",
  "regulatory",
  "study-detail",
]);
