/**
 * The tools `pep mcp` serves: the words a model reads (name, title, summary, group) for
 * each endpoint, and nothing else. Every fact about the call (scope, list or get, path
 * argument, query parameters, their upper-casing and choices, default and largest limit,
 * study-id handling) is read from the endpoint's descriptor (`src/api/endpoints.ts` and
 * the options of `src/api/params/`), so a change there changes the tool. The argument
 * schemas are built from the same descriptors when the server starts (`schemas.ts`); this
 * module loads no schema until a tool's parameters are asked for, so that help and man
 * pages can name the tools cheaply.
 */
import { ENDPOINTS, type Endpoint, type EndpointName } from "../api/endpoints.js";
import { LIMITS } from "../api/enums.js";

/** Groups of tools `pep mcp --tools` chooses from. */
export const TOOL_GROUPS = ["research", "studies", "vendors", "prices", "library"] as const;
export type ToolGroup = (typeof TOOL_GROUPS)[number];

/** What a tool says of itself; the rest is its endpoint's. */
interface ToolWords {
  /** Tool name, as clients call it. */
  name: string;
  /** The group `--tools` names it by. */
  group: ToolGroup;
  title: string;
  /** One or two sentences for the client's tool list. */
  summary: string;
}

export interface ToolEntry extends ToolWords {
  /** Key of `ENDPOINTS`. */
  endpoint: EndpointName;
  /** The scope the key needs: the endpoint's. */
  scope: string;
  /** A list: takes `limit` and `cursor`, returns `next_cursor` (the endpoint's `list`). */
  list: boolean;
  /** The path parameter (`{slug}`, `{id}` of the endpoint's path), taken as an argument of that name. */
  path?: string;
  /** Query parameters taken as arguments: the keys of the endpoint's query schema, in its order. */
  readonly params: readonly string[];
  /** `limit` when none is given, and the largest taken: the endpoint's. */
  defaultLimit: number;
  maxLimit: number;
}

/** The parameter names of an endpoint's query schema (built on first use). */
export function paramsOf(endpoint: Endpoint): string[] {
  const shape = (endpoint.query as unknown as { shape?: Record<string, unknown> }).shape;
  if (!shape) throw new Error(`the query schema of ${endpoint.path} is not an object`);
  return Object.keys(shape);
}

function entryOf(name: EndpointName, words: ToolWords): ToolEntry {
  const endpoint = ENDPOINTS[name];
  const path = /\{(\w+)\}/.exec(endpoint.path)?.[1];
  let params: string[] | undefined;
  return {
    ...words,
    endpoint: name,
    scope: endpoint.scope,
    list: endpoint.list,
    ...(path ? { path } : {}),
    get params() {
      params ??= paramsOf(endpoint);
      return params;
    },
    defaultLimit: endpoint.defaultLimit,
    maxLimit: endpoint.maxLimit,
  };
}

const TOOL_OF: Readonly<Record<EndpointName, ToolWords | null>> = {
  search: {
    name: "search",
    group: "research",
    title: "Search profiles and educational content",
    summary:
      "One query across peptide research profiles and educational content (FAQs, articles, courses). Dosing and commerce content is never part of the results.",
  },
  peptides: {
    name: "list_peptides",
    group: "research",
    title: "List peptide research profiles",
    summary:
      "Peptide research profiles, filtered by category, research area, evidence level or regulatory status, or matched by name, synonym or alias.",
  },
  peptide: {
    name: "get_peptide",
    group: "research",
    title: "Get a peptide research profile",
    summary:
      "A peptide's full research profile: names, classification, mechanism, human and preclinical evidence (kept apart), safety, regulatory status and references. Never dose figures.",
  },
  peptideStudies: {
    name: "peptide_studies",
    group: "studies",
    title: "Studies a profile cites",
    summary: `The studies and sources a peptide's profile cites (at most ${LIMITS.peptideStudiesMax}), each with its evidence classification, identifiers and finding summary.`,
  },
  peptideResearch: {
    name: "peptide_research",
    group: "research",
    title: "A profile's research summary",
    summary:
      "Mechanisms under investigation, clinical (human) and preclinical evidence, secondary reports, safety, known limitations, research gaps and sources of one peptide.",
  },
  regulatoryStatus: {
    name: "regulatory_status",
    group: "research",
    title: "A peptide's regulatory status",
    summary:
      "FDA and WADA status, availability and development stage as recorded in the profile, with the date it was reviewed.",
  },
  categories: {
    name: "list_categories",
    group: "research",
    title: "Research categories",
    summary: "The research categories, each with every profile in it.",
  },
  researchAreas: {
    name: "list_research_areas",
    group: "research",
    title: "Research areas",
    summary: "Studied topics with the peptides studied for each, most-studied first.",
  },
  studies: {
    name: "list_studies",
    group: "studies",
    title: "List studies",
    summary:
      "The studies index (de-duplicated across profiles), filtered by citing peptide, evidence classification, publication years or title words.",
  },
  study: {
    name: "get_study",
    group: "studies",
    title: "Get a study",
    summary:
      "One study with each citing profile's summary. The id may be pmid-12345678, doi-10.1000--182 (a DOI with each / as --), nct-NCT01234567, or as found in papers: a PMID, a DOI or doi.org link, an NCT number or a PubMed or registry link.",
  },
  vendors: {
    name: "list_vendors",
    group: "vendors",
    title: "List vendors",
    summary:
      "The vendor directory: location, ratings, catalog size and shipping facts. Order never depends on commissions.",
  },
  vendor: {
    name: "get_vendor",
    group: "vendors",
    title: "Get a vendor",
    summary: "One vendor: description, location, catalog, shipping and review summary, and the source of each fact.",
  },
  vendorShipping: {
    name: "vendor_shipping",
    group: "vendors",
    title: "A vendor's shipping facts",
    summary:
      "Destinations, exclusions, methods, free-shipping and returns facts of one vendor, each with its source; 'unknown' never means it ships.",
  },
  vendorCompare: {
    name: "compare_vendors",
    group: "vendors",
    title: "Compare vendors",
    summary: `${LIMITS.compareMin} to ${LIMITS.compareMax} vendors side by side: ratings, catalog size and shipping facts.`,
  },
  products: {
    name: "list_products",
    group: "prices",
    title: "List products",
    summary:
      "Products (compound and form) with their price ranges per currency, as listed; never converted between currencies.",
  },
  prices: {
    name: "list_prices",
    group: "prices",
    title: "List current offers",
    summary:
      "Current vendor offers with their listed price, currency, when last seen and the product page (possibly an affiliate link). Prices are never converted; commissions never change the order.",
  },
  index: null,
  health: null,
};

export const TOOLS: readonly ToolEntry[] = (Object.entries(TOOL_OF) as Array<[EndpointName, ToolWords | null]>)
  .filter((e): e is [EndpointName, ToolWords] => e[1] !== null)
  .map(([name, words]) => entryOf(name, words));

/** The arguments of a tool, in order: path argument first, then the query parameters. */
export function toolArgs(t: ToolEntry): string[] {
  return [...(t.path ? [t.path] : []), ...t.params];
}

/**
 * The tools over the local library itself (the `library` group), no endpoint's: served
 * offline, or when `--tools` names the group. Their schemas and calls are in
 * `library-tools.ts`, loaded only when they are served.
 */
export interface LibraryToolEntry {
  name: string;
  group: "library";
  title: string;
  summary: string;
  /** The arguments, in order (for docs/mcp.md's table). */
  args: readonly string[];
  defaultLimit: number;
  maxLimit: number;
}

export const LIBRARY_TOOLS: readonly LibraryToolEntry[] = [
  {
    name: "library_sql",
    group: "library",
    title: "Query the local library (SQL)",
    summary:
      "One read-only SQL statement (SELECT, WITH, VALUES, EXPLAIN) over the library pep sync keeps; the database refuses writes. Read the resource pep://library/tables for the tables, columns and types.",
    args: ["query", "limit"],
    defaultLimit: 100,
    maxLimit: 1000,
  },
  {
    name: "library_changes",
    group: "library",
    title: "What the syncs changed",
    summary:
      "The change log of the library's syncs (added, changed, removed records, field by field), oldest first: since a date, time or duration, of one sync (sync_id), or since \"last_asked\", this session's bookmark (the default); after_seq continues a result that has more.",
    args: ["since", "sync_id", "after_seq", "resource", "limit"],
    defaultLimit: 100,
    maxLimit: 1000,
  },
];
