/**
 * The library's tables, derived from the descriptors: one table per synced resource whose
 * typed columns are the resource's CSV columns (api/resources.ts; `evidence.level` becomes
 * `evidence_level`), plus the item as the API sent it, its place in the API's listing and
 * when it was first and last seen. docs/library.md documents every table and column.
 */
import { ENDPOINTS, type Endpoint } from "../api/endpoints.js";
import { type DetailKind, type DetailResource, LIBRARY_RESOURCES, type LibraryResource } from "../api/enums.js";
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

/** A resource's table: its name, endpoint, typed columns and indexes. */
export interface LibraryTable {
  /** The word of `pep sync <resource>` (`research-areas`). */
  name: LibraryResource;
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
  name: LibraryResource,
  endpoint: Endpoint,
  indexed: readonly string[],
  table = name.replace(/-/g, "_"),
): LibraryTable {
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
export const LIBRARY: Readonly<Record<LibraryResource, LibraryTable>> = {
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
 * The endpoint that answers each detail kind of a resource's item: the one whose
 * descriptor says the library keeps its answer as that kind (`offline` in
 * api/endpoints.ts). Which detail answers a sync keeps: sync/details.ts.
 */
const DETAIL_ENDPOINTS = new Map(
  Object.values(ENDPOINTS).flatMap((e: Endpoint) =>
    e.offline && "detail" in e.offline ? [[`${e.offline.of}/${e.offline.detail}`, e] as const] : [],
  ),
);

/** The endpoint that answers one detail kind of a resource's item. */
export function detailEndpoint(resource: DetailResource, kind: DetailKind): Endpoint {
  const endpoint = DETAIL_ENDPOINTS.get(`${resource}/${kind}`);
  if (!endpoint) throw new Error(`no endpoint's answer is kept as the ${kind} of ${resource}`);
  return endpoint;
}

export function isLibraryResource(name: string): name is LibraryResource {
  return (LIBRARY_RESOURCES as readonly string[]).includes(name);
}

/** The library's schema version: the number of the last migration (library/migrations.ts). */
export const SCHEMA_VERSION = 3;
