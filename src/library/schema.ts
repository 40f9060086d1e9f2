/**
 * The library's tables, derived from the descriptors: one table per synced resource whose
 * typed columns are the resource's CSV columns (api/resources.ts; `evidence.level` becomes
 * `evidence_level`), plus the item as the API sent it, its place in the API's listing and
 * when it was first and last seen. docs/library.md documents every table and column.
 */
import { ENDPOINTS, type Endpoint } from "../api/endpoints.js";
import { LIBRARY_RESOURCES } from "../api/enums.js";
import { RESOURCES, type Resource } from "../api/resources.js";

/** What a typed column holds; `json` is TEXT in SQLite and jsonb in PostgreSQL. */
export type ColumnKind = "text" | "integer" | "real" | "boolean" | "json";

export interface LibraryColumn {
  /** The column name: the CSV path with dots as underscores. */
  name: string;
  /** The CSV column it comes from (`evidence.level`). */
  path: string;
  kind: ColumnKind;
}

export interface LibraryResource {
  /** The word of `pep sync <resource>` (`research-areas`). */
  name: SyncResource;
  /** The table (`research_areas`). */
  table: string;
  endpoint: Endpoint;
  /** The item kind, whose CSV columns are the typed columns. */
  resource: Resource;
  /** Needs a key (vendors, products, prices): skipped with one line when the key cannot read it. */
  keyed: boolean;
  columns: readonly LibraryColumn[];
  /** Typed columns with an index: the filters the list commands offer. */
  indexed: readonly string[];
}

export const SYNC_RESOURCES = LIBRARY_RESOURCES;
export type SyncResource = (typeof SYNC_RESOURCES)[number];

/** Columns whose values are numbers, flags or lists; every other CSV column is text. */
const KINDS: Record<string, ColumnKind> = {
  "evidence.human_studies": "integer",
  "evidence.preclinical_studies": "integer",
  "evidence.secondary_reports": "integer",
  publication_year: "integer",
  peptide_count: "integer",
  study_count: "integer",
  vendor_count: "integer",
  "rating.count": "integer",
  "rating.verified_count": "integer",
  "catalog.product_count": "integer",
  "catalog.peptide_count": "integer",
  "rating.average": "real",
  "shipping.free_shipping.available": "boolean",
  "shipping.returns_accepted": "boolean",
  in_stock: "boolean",
  also_known_as: "json",
  categories: "json",
  research_topics: "json",
  authors: "json",
  cited_by: "json",
  product_categories: "json",
  "shipping.destinations": "json",
  "shipping.exclusions": "json",
  peptides: "json",
  price_ranges: "json",
};

/** `evidence.level` -> `evidence_level`. */
export const columnName = (path: string): string => path.replace(/\./g, "_");

function columnsOf(resource: Resource): LibraryColumn[] {
  const csv = RESOURCES[resource].csv;
  if (csv === null) throw new Error(`resource ${resource} has no CSV columns`);
  return csv.filter((p) => p !== "id").map((path) => ({ name: columnName(path), path, kind: KINDS[path] ?? "text" }));
}

function described(
  name: SyncResource,
  endpoint: Endpoint,
  indexed: readonly string[],
  table = name.replace(/-/g, "_"),
): LibraryResource {
  return {
    name,
    table,
    endpoint,
    resource: endpoint.resource,
    keyed: endpoint.keyRequired,
    columns: columnsOf(endpoint.resource),
    indexed,
  };
}

/** Every synced resource, in the order `pep sync` takes them. */
export const LIBRARY: Readonly<Record<SyncResource, LibraryResource>> = {
  peptides: described("peptides", ENDPOINTS.peptides, ["evidence_level", "regulatory_status", "name"]),
  studies: described("studies", ENDPOINTS.studies, [
    "evidence_classification",
    "publication_year",
    "doi",
    "pmid",
    "nct_id",
  ]),
  vendors: described("vendors", ENDPOINTS.vendors, ["slug", "country", "rating_average", "name"]),
  products: described("products", ENDPOINTS.products, ["peptide_id", "form"]),
  prices: described("prices", ENDPOINTS.prices, ["peptide_id", "vendor_id", "currency", "form"]),
  categories: described("categories", ENDPOINTS.categories, []),
  "research-areas": described("research-areas", ENDPOINTS.researchAreas, ["name"]),
};

/**
 * The detail answers kept per item: each is one request, conditional on a re-sync. A
 * study's own answer is kept for the studies the peptides cite, or for every study
 * with `pep sync --study-details` (sync/details.ts).
 */
export const DETAIL_KINDS = {
  peptides: ["profile", "research", "regulatory", "studies"],
  vendors: ["profile"],
  studies: ["profile"],
} as const;
export type DetailKind = "profile" | "research" | "regulatory" | "studies";
export type DetailResource = keyof typeof DETAIL_KINDS;

/** The endpoint that answers one detail kind of a resource's item. */
export function detailEndpoint(resource: DetailResource, kind: DetailKind): Endpoint {
  if (resource === "vendors") return ENDPOINTS.vendor;
  if (resource === "studies") return ENDPOINTS.study;
  switch (kind) {
    case "profile":
      return ENDPOINTS.peptide;
    case "research":
      return ENDPOINTS.peptideResearch;
    case "regulatory":
      return ENDPOINTS.regulatoryStatus;
    case "studies":
      return ENDPOINTS.peptideStudies;
  }
}

export function isSyncResource(name: string): name is SyncResource {
  return (SYNC_RESOURCES as readonly string[]).includes(name);
}

/** The library's schema version: the number of the last migration (library/migrations.ts). */
export const SCHEMA_VERSION = 3;
