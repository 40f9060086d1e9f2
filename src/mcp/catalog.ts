/**
 * The tools `pep mcp` serves, as plain data: name, what it does, the endpoint it calls
 * and which of that endpoint's parameters it takes. The argument schemas are built from
 * the endpoint table (`src/api/endpoints.ts`) when the server starts (`src/mcp/tools.ts`);
 * this list is kept free of zod so that help and man pages can name the tools without
 * loading any schema.
 */
import type { EndpointName } from "../api/endpoints.js";
import { LIMITS } from "../api/enums.js";

/** Groups of tools `pep mcp --tools` chooses from. */
export const TOOL_GROUPS = ["research", "studies", "vendors", "prices"] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

export interface ToolEntry {
  /** Tool name, as clients call it. */
  name: string;
  /** The group `--tools` names it by. */
  group: ToolGroup;
  title: string;
  /** One or two sentences for the client's tool list. */
  summary: string;
  /** Key of `ENDPOINTS`. */
  endpoint: EndpointName;
  /** The scope the key needs (checked against the endpoint table by a test). */
  scope: string;
  /** A list: takes `limit` and `cursor`, returns `next_cursor`. */
  list: boolean;
  /** Path parameter taken as an argument of the same name. */
  path?: "slug" | "id";
  /** Query parameters of the endpoint taken as arguments, by their API names (`limit` and `cursor` of lists included). */
  params: readonly string[];
  /** Default `limit` of a list. */
  defaultLimit?: number;
}

const SLUG = "slug";

/**
 * The tool of each endpoint, or null where an endpoint has none (the index and health
 * answer questions about the service, not research). A total record: a new endpoint
 * must say which, and the compiler names this place. Tools are listed in this order.
 */
const TOOL_OF: Readonly<Record<EndpointName, ToolEntry | null>> = {
  search: {
    name: "search",
    group: "research",
    title: "Search profiles and educational content",
    summary:
      "One query across peptide research profiles and educational content (FAQs, articles, courses). Dosing and commerce content is never part of the results.",
    endpoint: "search",
    scope: "research:read",
    list: false,
    params: ["q", "types", "limit"],
  },
  peptides: {
    name: "list_peptides",
    group: "research",
    title: "List peptide research profiles",
    summary:
      "Peptide research profiles, filtered by category, research area, evidence level or regulatory status, or matched by name, synonym or alias.",
    endpoint: "peptides",
    scope: "research:read",
    list: true,
    params: [
      "search",
      "category",
      "research_area",
      "evidence_level",
      "regulatory_status",
      "sort",
      "fields",
      "limit",
      "cursor",
    ],
    defaultLimit: LIMITS.pageDefault,
  },
  peptide: {
    name: "get_peptide",
    group: "research",
    title: "Get a peptide research profile",
    summary:
      "A peptide's full research profile: names, classification, mechanism, human and preclinical evidence (kept apart), safety, regulatory status and references. Never dose figures.",
    endpoint: "peptide",
    scope: "research:read",
    list: false,
    path: SLUG,
    params: [],
  },
  peptideStudies: {
    name: "peptide_studies",
    group: "studies",
    title: "Studies a profile cites",
    summary: `The studies and sources a peptide's profile cites (at most ${LIMITS.peptideStudiesMax}), each with its evidence classification, identifiers and finding summary.`,
    endpoint: "peptideStudies",
    scope: "studies:read",
    list: true,
    path: SLUG,
    params: ["limit", "cursor"],
    defaultLimit: LIMITS.peptideStudiesMax,
  },
  peptideResearch: {
    name: "peptide_research",
    group: "research",
    title: "A profile's research summary",
    summary:
      "Mechanisms under investigation, clinical (human) and preclinical evidence, secondary reports, safety, known limitations, research gaps and sources of one peptide.",
    endpoint: "peptideResearch",
    scope: "research:read",
    list: false,
    path: SLUG,
    params: [],
  },
  regulatoryStatus: {
    name: "regulatory_status",
    group: "research",
    title: "A peptide's regulatory status",
    summary:
      "FDA and WADA status, availability and development stage as recorded in the profile, with the date it was reviewed.",
    endpoint: "regulatoryStatus",
    scope: "research:read",
    list: false,
    path: SLUG,
    params: [],
  },
  categories: {
    name: "list_categories",
    group: "research",
    title: "Research categories",
    summary: "The research categories, each with every profile in it.",
    endpoint: "categories",
    scope: "research:read",
    list: true,
    params: ["limit", "cursor"],
    defaultLimit: LIMITS.pageDefault,
  },
  researchAreas: {
    name: "list_research_areas",
    group: "research",
    title: "Research areas",
    summary: "Studied topics with the peptides studied for each, most-studied first.",
    endpoint: "researchAreas",
    scope: "research:read",
    list: true,
    params: ["search", "limit", "cursor"],
    defaultLimit: LIMITS.pageDefault,
  },
  studies: {
    name: "list_studies",
    group: "studies",
    title: "List studies",
    summary:
      "The studies index (de-duplicated across profiles), filtered by citing peptide, evidence classification, publication years or title words.",
    endpoint: "studies",
    scope: "studies:read",
    list: true,
    params: [
      "peptide",
      "evidence_classification",
      "year_from",
      "year_to",
      "search",
      "sort",
      "fields",
      "limit",
      "cursor",
    ],
    defaultLimit: LIMITS.pageDefault,
  },
  study: {
    name: "get_study",
    group: "studies",
    title: "Get a study",
    summary:
      "One study with each citing profile's summary. The id may be pmid-<n>, doi-<doi with / as -->, nct-<id>, or as found in papers: a PMID, a DOI or doi.org link, an NCT number or a PubMed or registry link.",
    endpoint: "study",
    scope: "studies:read",
    list: false,
    path: "id",
    params: [],
  },
  vendors: {
    name: "list_vendors",
    group: "vendors",
    title: "List vendors",
    summary:
      "The vendor directory: location, ratings, catalog size and shipping facts. Order never depends on commissions.",
    endpoint: "vendors",
    scope: "vendors:read",
    list: true,
    params: [
      "search",
      "country",
      "ships_to",
      "product_category",
      "min_rating",
      "peptide",
      "sort",
      "fields",
      "limit",
      "cursor",
    ],
    defaultLimit: LIMITS.pageDefault,
  },
  vendor: {
    name: "get_vendor",
    group: "vendors",
    title: "Get a vendor",
    summary: "One vendor: description, location, catalog, shipping and review summary, and the source of each fact.",
    endpoint: "vendor",
    scope: "vendors:read",
    list: false,
    path: "id",
    params: ["ships_to"],
  },
  vendorShipping: {
    name: "vendor_shipping",
    group: "vendors",
    title: "A vendor's shipping facts",
    summary:
      "Destinations, exclusions, methods, free-shipping and returns facts of one vendor, each with its source; 'unknown' never means it ships.",
    endpoint: "vendorShipping",
    scope: "vendors:read",
    list: false,
    path: "id",
    params: ["ships_to"],
  },
  vendorCompare: {
    name: "compare_vendors",
    group: "vendors",
    title: "Compare vendors",
    summary: `${LIMITS.compareMin} to ${LIMITS.compareMax} vendors side by side: ratings, catalog size and shipping facts.`,
    endpoint: "vendorCompare",
    scope: "vendors:read",
    list: false,
    params: ["ids", "ships_to"],
  },
  products: {
    name: "list_products",
    group: "prices",
    title: "List products",
    summary:
      "Products (compound and form) with their price ranges per currency, as listed; never converted between currencies.",
    endpoint: "products",
    scope: "products:read",
    list: true,
    params: ["peptide", "form", "currency", "limit", "cursor"],
    defaultLimit: LIMITS.pageDefault,
  },
  prices: {
    name: "list_prices",
    group: "prices",
    title: "List current offers",
    summary:
      "Current vendor offers with their listed price, currency, when last seen and the product page (possibly an affiliate link). Prices are never converted; commissions never change the order.",
    endpoint: "prices",
    scope: "pricing:read",
    list: true,
    params: ["peptide", "form", "currency", "ships_to", "limit", "cursor"],
    defaultLimit: LIMITS.pageDefault,
  },
  index: null,
  health: null,
};

export const TOOLS: readonly ToolEntry[] = Object.values(TOOL_OF).filter((t): t is ToolEntry => t !== null);

/** The arguments of a tool, in order: path argument first, then the query parameters. */
export function toolArgs(t: ToolEntry): string[] {
  return [...(t.path ? [t.path] : []), ...t.params];
}
