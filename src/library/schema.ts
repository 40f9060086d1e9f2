/**
 * The library's tables: one table per synced resource, with the typed columns of its own
 * list below (`evidence.level` becomes `evidence_level`), plus the item as the API sent
 * it, its place in the API's listing and when it was first and last seen.
 * docs/library.md documents every table and column.
 */
import { ENDPOINTS, type Endpoint } from "../api/endpoints.js";
import { type DetailKind, type DetailResource, LIBRARY_RESOURCES, type LibraryResource } from "../api/enums.js";
import type { Resource } from "../api/resources.js";

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
  /** The item kind the resource lists. */
  resource: Resource;
  /** Needs a key (vendors, products, prices): skipped with one line when the key cannot read it. */
  keyed: boolean;
  columns: readonly LibraryColumn[];
  /** Typed columns with an index: the filters the list commands offer. */
  indexed: readonly string[];
}

/**
 * The typed columns of each resource table, the library's own list: a CSV path of the
 * item (`evidence.level`, kept as `evidence_level`) and its kind when it is not text.
 * Not derived from the CSV columns or `--fields`, so a change of the CSV cannot reshape
 * the library (nor a column added here the CSV). A column added here needs a migration of
 * its own that adds it to existing libraries (migrations.ts `addColumns`; see
 * docs/adding-an-endpoint.md).
 */
const COLUMNS: Readonly<Record<LibraryResource, readonly string[]>> = {
  peptides: [
    "name",
    "also_known_as:json",
    "categories:json",
    "summary",
    "research_topics:json",
    "classification",
    "fda_status",
    "evidence.level",
    "evidence.label",
    "evidence.human_studies:integer",
    "evidence.preclinical_studies:integer",
    "evidence.secondary_reports:integer",
    "url",
    "regulatory_status",
    "content_reviewed_at",
    "api_url",
  ],
  studies: [
    "title",
    "publication_year:integer",
    "authors:json",
    "journal",
    "doi",
    "pmid",
    "nct_id",
    "study_type",
    "research_model",
    "evidence_classification",
    "evidence_classification_label",
    "source_url",
    "cited_by:json",
  ],
  vendors: [
    "slug",
    "name",
    "description",
    "logo_url",
    "country",
    "region",
    "website_url",
    "profile_url",
    "product_categories:json",
    "rating.average:real",
    "rating.count:integer",
    "rating.verified_count:integer",
    "catalog.product_count:integer",
    "catalog.peptide_count:integer",
    "catalog.last_checked_at",
    "shipping.coverage",
    "shipping.destinations:json",
    "shipping.exclusions:json",
    "shipping.free_shipping.available:boolean",
    "shipping.free_shipping.threshold",
    "shipping.returns_accepted:boolean",
    "api_url",
  ],
  products: [
    "peptide.id",
    "peptide.name",
    "form",
    "name",
    "product_category",
    "price_ranges:json",
    "vendor_count:integer",
  ],
  prices: [
    "peptide.id",
    "peptide.name",
    "vendor.id",
    "vendor.name",
    "vendor.slug",
    "product_name",
    "form",
    "price",
    "currency",
    "last_seen_at",
    "product_page_url",
    "in_stock:boolean",
  ],
  categories: ["name", "url", "peptide_count:integer", "peptides:json"],
  "research-areas": ["name", "description", "url", "peptide_count:integer", "study_count:integer", "peptides:json"],
};

/** `evidence.level` -> `evidence_level`. */
export const columnName = (path: string): string => path.replace(/\./g, "_");

/** A column of the list above: `path` or `path:kind`. */
export function libraryColumn(spec: string): LibraryColumn {
  const [path, kind = "text"] = spec.split(":") as [string, ColumnKind | undefined];
  return { name: columnName(path), path, kind };
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
    columns: COLUMNS[name].map(libraryColumn),
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
export const SCHEMA_VERSION = 4;
