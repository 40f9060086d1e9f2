/**
 * Representative items, shaped as the API describes them (spec 2.2): peptide summaries
 * with `evidence.level`, `not_documented` and `null` values; studies with odd characters
 * and non-ASCII authors; offers whose money strings must survive byte for byte; vendors.
 */

export const MONEY = ["0.10", "1000000.00000001", "1249.00"] as const;

export const peptides = [
  {
    id: "bpc-157",
    name: "BPC-157",
    also_known_as: ["Body Protection Compound 157", "PL 14736"],
    categories: ["muscle-recovery"],
    summary: "A synthetic peptide studied mostly in animal models of tissue repair.",
    research_topics: ["tendon healing", "gut"],
    classification: "not_documented",
    fda_status: "not approved",
    evidence: { level: "preclinical" },
    url: "https://example.test/peptides/bpc-157",
    regulatory_status: "experimental",
    content_reviewed_at: "2025-05-01T00:00:00Z",
    api_url: "https://api.example.test/v1/peptides/bpc-157",
  },
  {
    id: "semaglutide",
    name: "Semaglutide",
    also_known_as: [],
    categories: ["glp1-metabolic", "fat-loss"],
    summary: '=HYPERLINK("http://evil.test","click")',
    research_topics: [],
    classification: null,
    fda_status: "approved",
    evidence: { level: "fda-approved" },
    url: "https://example.test/peptides/semaglutide",
    regulatory_status: "approved",
    content_reviewed_at: null,
    api_url: "https://api.example.test/v1/peptides/semaglutide",
  },
];

export const studies = [
  {
    id: "pmid-90000001",
    title: "Effects of BPC-157 on tendon healing: 50% faster & {braced} #1 in rats_model ~ ^ $ \\ test",
    publication_year: 2021,
    authors: ["Müller, Jürgen", "Ødegård K", "Sánchez-López, María José", "van der Berg, Anna"],
    journal: "Journal of Peptide Research & Practice",
    doi: "10.5555/jpr.2021.001",
    pmid: "90000001",
    nct_id: null,
    study_type: "animal",
    research_model: "rat",
    evidence_classification: "animal_or_lab",
    evidence_classification_label: "Animal or lab",
    source_url: "https://pubmed.example.test/90000001",
    cited_by: [{ id: "bpc-157", name: "BPC-157" }],
  },
  {
    id: "nct-NCT99000001",
    title: "The GLP-1 agonist trial in adults",
    publication_year: 2023,
    authors: [
      { family: "Żółć", given: "Łucja" },
      { family: "Nguyễn", given: "Văn An" },
    ],
    journal: "Clinical Trials Reports",
    doi: "10.5555/ctr.2023.77",
    pmid: null,
    nct_id: "NCT99000001",
    study_type: "randomized controlled trial",
    research_model: "human",
    evidence_classification: "human_controlled_trial",
    evidence_classification_label: "Controlled human trial",
    source_url: "https://trials.example.test/NCT99000001",
    cited_by: [{ id: "semaglutide", name: "Semaglutide" }],
  },
  {
    // Same first author, year and first title word as the first: keys must differ.
    id: "doi-10.5555--dup",
    title: "Effects of BPC-157 on gut lining",
    publication_year: 2021,
    authors: "Müller J, Smith AB",
    journal: "Journal of Peptide Research & Practice",
    doi: "https://doi.org/10.5555/dup",
    pmid: "90000002",
    nct_id: null,
    study_type: "animal",
    research_model: "mouse",
    evidence_classification: "animal_or_lab",
    evidence_classification_label: "Animal or lab",
    source_url: "https://pubmed.example.test/90000002",
    cited_by: [],
  },
];

export const offers = MONEY.map((price, i) => ({
  vendor: {
    id: `v${i}`,
    name: ["Alpha Labs", "Beta Peptides", "Gamma Supply"][i],
    url: `https://example.test/vendors/v${i}`,
  },
  product_name: "BPC-157",
  form: ["capsules", "peptides", "sprays"][i],
  price,
  currency: ["USD", "EUR", "USD"][i],
  last_seen_at: `2025-06-0${i + 1}T12:00:00Z`,
  product_page_url: `https://shop${i}.example.test/bpc-157?ref=aff&utm=${i}`,
}));

export const vendors = [
  {
    id: "v1",
    slug: "alpha-labs",
    name: "Alpha Labs",
    description: "Research chemicals supplier.",
    country: "US",
    region: "CA",
    website_url: "https://alpha.example.test",
    profile_url: "https://example.test/vendors/alpha-labs",
    product_categories: ["peptides", "capsules"],
    rating: { average: 4.6, count: 120, verified_count: 40 },
    catalog: { product_count: 85 },
    shipping: { domestic: { value: "yes", source: "vendor FAQ" } },
    api_url: "https://api.example.test/v1/vendors/v1",
  },
  {
    id: "v2",
    slug: "beta",
    name: "Beta Peptides",
    description: null,
    country: "DE",
    region: null,
    website_url: "https://beta.example.test",
    profile_url: "https://example.test/vendors/beta",
    product_categories: ["peptides"],
    rating: { average: null, count: 0, verified_count: 0 },
    catalog: { product_count: null },
    shipping: { domestic: { value: "unknown", source: null } },
    api_url: "https://api.example.test/v1/vendors/v2",
  },
];

export const disclosure = "Some links are affiliate links; commissions never affect listings.";

export const peptideProfile = {
  id: "bpc-157",
  name: "BPC-157",
  also_known_as: ["Body Protection Compound 157"],
  classification: "synthetic peptide",
  categories: ["muscle-recovery"],
  summary:
    "A synthetic fragment of a gastric protein, studied mostly in animal models of tendon, ligament and gut repair. Human data are scarce.",
  mechanism: { summary: "Proposed angiogenic and nitric-oxide effects.", pathways: ["VEGFR2", "NO system"] },
  chemical_properties: { molecular_formula: "C62H98N16O22", molecular_weight: "1419.5", sequence: "GEPPPGKPADDAGLV" },
  evidence: {
    level: "preclinical",
    human: { summary: "not_documented", trials: [] },
    preclinical: {
      summary: "Consistent healing effects in rodent tendon and gut injury models.",
      models: ["rat", "mouse"],
    },
  },
  safety: { known_risks: "not_documented", notes: null },
  regulatory_status: "experimental",
  fda_status: "not approved",
  references: [
    { title: "Effects of BPC-157 on tendon healing", url: "https://pubmed.example.test/90000001", year: 2021 },
    { title: "Gut lining study", url: "https://pubmed.example.test/90000002", year: 2019 },
  ],
  url: "https://example.test/peptides/bpc-157",
};

export const researchSummary = {
  peptide: { id: "bpc-157", name: "BPC-157", url: "https://example.test/peptides/bpc-157" },
  mechanisms: ["Angiogenesis", "Nitric oxide signalling"],
  clinical_evidence: {
    summary: "Very limited human data.",
    human_trials: [
      { title: "Pilot trial of BPC-157 in knee pain", nct_id: "NCT99000002", participants: 12, status: "completed" },
    ],
  },
  preclinical_evidence: { summary: "Many rodent studies.", study_count: 34 },
  secondary_reports: [{ title: "Review of gastric peptides", type: "review" }],
  safety: { summary: "not_documented" },
  limitations: ["Few human studies", "Small samples"],
  research_gaps: ["Long-term safety in humans"],
  references: [{ title: "Effects of BPC-157 on tendon healing", url: "https://pubmed.example.test/90000001" }],
};

export const regulatory = {
  peptide: { name: "Semaglutide", url: "https://example.test/peptides/semaglutide" },
  fda_status: "approved",
  wada_status: "not prohibited",
  availability: "prescription",
  development_stage: "marketed",
  reviewed_at: "2025-04-01",
};

export const vendorDetail = {
  id: "v1",
  slug: "alpha-labs",
  name: "Alpha Labs",
  description: "Research chemicals supplier.",
  url: "https://example.test/vendors/alpha-labs",
  website_url: "https://alpha.example.test",
  location: { country: "US", region: "CA", source: "company registry" },
  rating: { average: 4.6, count: 120, verified_count: 40 },
  catalog: { product_count: 85, source: "vendor site" },
  shipping: {
    destinations: { value: ["US", "CA"], source: "shipping page", as_of: "2025-05-01" },
    free_shipping: { value: "over 200.00 USD", source: "shipping page" },
    returns: { value: null, source: null },
  },
  ships_to: { country: "US-CA", value: "yes", source: "shipping page" },
};
