/**
 * The endpoint table: one descriptor per endpoint, octokit-style, holding every fact the
 * program knows about it (docs/api.md): path, scope, whether a key is needed, list or
 * get, the resource it answers with, the options that fill its query parameters, its
 * default and largest `limit`, its `fields`, how `--offline` answers it from the library,
 * and which query schema checks it
 * (`./query-schemas.ts`). Everything else is derived here, once: the path parameter, the
 * query parameters in order, the ones upper-cased. Help, the list runner, the MCP tools,
 * completion, man pages, the CSV section and the sandbox read these fields; none keeps a
 * copy (test/commands/descriptors.test.ts, test/docs/descriptor-drift.test.ts).
 */
import { DETAIL_KINDS, LIMITS, PEPTIDE_FIELDS, STUDY_FIELDS, VENDOR_FIELDS, type Scope } from "./enums.js";
import { equals, type OfflineAnswer } from "./offline-answers.js";
import type { OptionDef } from "./options.js";
import { upperCode } from "./params/codes.js";
import { requireArg } from "./path-args.js";
import { PEPTIDE_LIST_OPTIONS } from "./params/peptide-options.js";
import { PRICE_OPTIONS, PRODUCT_OPTIONS } from "./params/price-options.js";
import { AREA_OPTIONS, SEARCH_OPTIONS } from "./params/research-options.js";
import { STUDY_FILTER_OPTIONS } from "./params/study-options.js";
import { SHIPS_TO_OPTIONS, VENDOR_LIST_OPTIONS } from "./params/vendor-options.js";
import { buildQuerySchema, type QuerySchema, type SchemaKind } from "./query-schemas.js";
export { type ListParam, listParamOf } from "./query-schemas.js";
import type { Resource } from "./resources.js";
import { toStudyId } from "./study-id.js";

export interface Endpoint {
  /** Stable name used by commands, MCP tools and the sandbox router. */
  name: string;
  /** Path template relative to the base URL; `{slug}` and `{id}` are path parameters. */
  path: string;
  scope: Scope;
  /** A key is required (keyed endpoints refuse anonymous calls with 401). */
  keyRequired: boolean;
  /** Counted against the plan per key (docs/api.md#rate-limits). */
  metered: boolean;
  /** The response is a list with `pagination` (takes `limit` and `cursor`); else a get. */
  list: boolean;
  /** What an item of the answer is: its CSV columns, table columns, card and count words. */
  resource: Resource;
  /**
   * The options that fill its query parameters (each names its `param`): the command
   * line's flags, and the descriptions of the MCP tools' arguments.
   */
  options: readonly OptionDef[];
  /** The path parameter (`slug`, `id`), read from `path`; undefined when it has none. */
  pathParam: string | undefined;
  /**
   * Every query parameter, by its API name, in order: those given as arguments (`q`,
   * `ids`), the options' own, `fields`, then `limit` and `cursor`. The query schema has
   * exactly these keys (test/commands/descriptors.test.ts).
   */
  params: readonly string[];
  /** Parameters whose values are codes sent upper-cased (`us` -> `US`): the options' `upperCode` ones. */
  upperParams: readonly string[];
  /**
   * `limit` when none is given (a list, and search): the list runner's, help's and the
   * MCP tools' default.
   */
  defaultLimit: number;
  /** The largest `limit` one request may ask for (the page size bound). */
  maxLimit: number;
  /** The values `fields` takes, when the endpoint takes `fields`. */
  fields: readonly string[] | undefined;
  /**
   * The path argument as the API takes it, from what people type (`12345678` is the study
   * `pmid-12345678`); absent: checked as a slug or id (`requireArg`). `label` names the
   * argument in a message (`<id>` on the command line, `id` for a tool).
   */
  pathId?: (value: string, label: string) => string;
  /** How `--offline` answers it from the library (./offline-answers.ts); undefined: refused offline. */
  offline: OfflineAnswer | undefined;
  /** The query schema (zod), built on first use. */
  query: QuerySchema;
}

interface Facts {
  path: string;
  scope: Scope;
  /** Which query schema checks it (`./query-schemas.ts`). */
  query: SchemaKind;
  resource: Resource;
  list?: boolean;
  options?: readonly OptionDef[];
  /** Query parameters given as arguments rather than flags (`q` of search, `ids` of compare). */
  argParams?: readonly string[];
  /** Default `limit` (lists: LIMITS.pageDefault). */
  defaultLimit?: number;
  /** Largest `limit` (lists: LIMITS.pageMax). */
  maxLimit?: number;
  fields?: readonly string[];
  pathId?: (value: string, label: string) => string;
  offline?: OfflineAnswer;
}

/** An offline answer that cannot be: a list kept whole for a get, a parameter the endpoint does not take. */
function checkOffline(
  name: string,
  answer: OfflineAnswer,
  e: { list: boolean; pathParam?: string; params: readonly string[] },
) {
  const wrong = (why: string) => new Error(`${name}: its offline answer ${why}`);
  if ("list" in answer) {
    if (!e.list || e.pathParam !== undefined) throw wrong("is a kept list, for an endpoint that is no list of its own");
    for (const p of Object.keys(answer.params ?? {}))
      if (!e.params.includes(p)) throw wrong(`answers ${p}, a parameter the endpoint does not take`);
  } else {
    if (e.pathParam === undefined) throw wrong("is a kept detail, for an endpoint without a path parameter");
    if (!(DETAIL_KINDS[answer.of] as readonly string[]).includes(answer.detail))
      throw wrong(
        `names ${answer.of}' ${answer.detail}, a detail the library does not keep (api/enums.ts DETAIL_KINDS)`,
      );
  }
}

const e = (name: string, facts: Facts): Endpoint => {
  const keyed = facts.scope === "vendors:read" || facts.scope === "products:read" || facts.scope === "pricing:read";
  const list = facts.list ?? false;
  const options = facts.options ?? [];
  // Only a list and search take `limit`; the others keep the page bounds, never sent.
  const takesLimit = list || facts.maxLimit !== undefined;
  const pathParam = /\{(\w+)\}/.exec(facts.path)?.[1];
  const own = options.flatMap((o) => (o.param !== undefined && o.param !== "limit" ? [o.param] : []));
  const params = [
    ...(facts.argParams ?? []),
    ...own,
    ...(facts.fields ? ["fields"] : []),
    ...(takesLimit ? ["limit"] : []),
    ...(list ? ["cursor"] : []),
  ];
  if (facts.offline) checkOffline(name, facts.offline, { list, pathParam, params });
  let schema: QuerySchema | undefined;
  return {
    name,
    path: facts.path,
    scope: facts.scope,
    keyRequired: keyed,
    metered: keyed,
    list,
    resource: facts.resource,
    options,
    pathParam,
    params,
    upperParams: options.flatMap((o) => (o.param !== undefined && o.transform === upperCode ? [o.param] : [])),
    defaultLimit: facts.defaultLimit ?? LIMITS.pageDefault,
    maxLimit: facts.maxLimit ?? LIMITS.pageMax,
    fields: facts.fields,
    ...(facts.pathId ? { pathId: facts.pathId } : {}),
    offline: facts.offline,
    // Built on first use: a run calls one endpoint, and building every schema cost
    // several milliseconds of each run's start-up.
    get query() {
      schema ??= buildQuerySchema(facts.query, {
        maxLimit: facts.maxLimit ?? LIMITS.pageMax,
        fields: facts.fields ?? [],
        list,
        params: options.flatMap((o) =>
          o.param !== undefined && own.includes(o.param) ? [{ param: o.param, choices: o.choices }] : [],
        ),
      });
      return schema;
    },
  };
};

/**
 * One descriptor per endpoint. Adding one here makes the compiler name the other places
 * a new endpoint must fill (its sandbox handler, its MCP tool or none, its resource's
 * columns): see docs/adding-an-endpoint.md.
 */
export const ENDPOINTS = {
  index: e("index", { path: "/", scope: "research:read", query: "none", resource: "index" }),
  health: e("health", { path: "/health", scope: "research:read", query: "none", resource: "health" }),
  peptides: e("peptides", {
    path: "/peptides",
    scope: "research:read",
    query: "peptides",
    resource: "peptide",
    list: true,
    options: PEPTIDE_LIST_OPTIONS,
    fields: PEPTIDE_FIELDS,
    offline: {
      list: "peptides",
      params: {
        category: { kind: "holds", path: ["categories"] },
        evidence_level: equals("evidence", "level"),
        regulatory_status: equals("regulatory_status"),
        sort: { kind: "default-sort", value: "name" },
      },
    },
  }),
  peptide: e("peptide", {
    path: "/peptides/{slug}",
    scope: "research:read",
    query: "none",
    resource: "peptide-profile",
    offline: { detail: "profile", of: "peptides" },
  }),
  peptideStudies: e("peptideStudies", {
    path: "/peptides/{slug}/studies",
    scope: "studies:read",
    query: "paged",
    resource: "cited-study",
    list: true,
    // The API returns at most this many, so the default takes them all.
    defaultLimit: LIMITS.peptideStudiesMax,
    offline: { detail: "studies", of: "peptides" },
  }),
  peptideResearch: e("peptideResearch", {
    path: "/peptides/{slug}/research",
    scope: "research:read",
    query: "none",
    resource: "research",
    offline: { detail: "research", of: "peptides" },
  }),
  regulatoryStatus: e("regulatoryStatus", {
    path: "/regulatory-status/{slug}",
    scope: "research:read",
    query: "none",
    resource: "regulatory",
    offline: { detail: "regulatory", of: "peptides" },
  }),
  categories: e("categories", {
    path: "/categories",
    scope: "research:read",
    query: "paged",
    resource: "category",
    list: true,
    offline: { list: "categories" },
  }),
  researchAreas: e("researchAreas", {
    path: "/research-areas",
    scope: "research:read",
    query: "researchAreas",
    resource: "research-area",
    list: true,
    options: AREA_OPTIONS,
    offline: { list: "research-areas" },
  }),
  search: e("search", {
    path: "/search",
    scope: "research:read",
    query: "search",
    resource: "search",
    options: SEARCH_OPTIONS,
    argParams: ["q"],
    defaultLimit: LIMITS.searchLimitDefault,
    maxLimit: LIMITS.searchLimitMax,
  }),
  studies: e("studies", {
    path: "/studies",
    scope: "studies:read",
    query: "studies",
    resource: "study",
    list: true,
    options: STUDY_FILTER_OPTIONS,
    fields: STUDY_FIELDS,
    offline: {
      list: "studies",
      params: {
        peptide: { kind: "peptide" },
        evidence_classification: { kind: "one-of", path: ["evidence_classification"] },
        year_from: { kind: "at-least", path: ["publication_year"] },
        year_to: { kind: "at-most", path: ["publication_year"] },
        sort: { kind: "default-sort", value: "newest" },
      },
    },
  }),
  study: e("study", {
    path: "/studies/{id}",
    scope: "studies:read",
    query: "none",
    resource: "study-detail",
    pathId: toStudyId,
    offline: { detail: "profile", of: "studies" },
  }),
  vendors: e("vendors", {
    path: "/vendors",
    scope: "vendors:read",
    query: "vendors",
    resource: "vendor",
    list: true,
    options: VENDOR_LIST_OPTIONS,
    fields: VENDOR_FIELDS,
    offline: {
      list: "vendors",
      params: {
        country: equals("country"),
        min_rating: { kind: "at-least", path: ["rating", "average"] },
        sort: { kind: "default-sort", value: "best_match" },
      },
    },
  }),
  vendorCompare: e("vendorCompare", {
    path: "/vendors/compare",
    scope: "vendors:read",
    query: "vendorCompare",
    resource: "vendor-compare",
    options: SHIPS_TO_OPTIONS,
    argParams: ["ids"],
  }),
  vendor: e("vendor", {
    path: "/vendors/{id}",
    scope: "vendors:read",
    query: "vendorDetail",
    resource: "vendor-detail",
    options: SHIPS_TO_OPTIONS,
    offline: { detail: "profile", of: "vendors" },
  }),
  vendorShipping: e("vendorShipping", {
    path: "/vendors/{id}/shipping",
    scope: "vendors:read",
    query: "vendorDetail",
    resource: "vendor-shipping",
    options: SHIPS_TO_OPTIONS,
  }),
  prices: e("prices", {
    path: "/prices",
    scope: "pricing:read",
    query: "prices",
    resource: "offer",
    list: true,
    options: PRICE_OPTIONS,
    offline: {
      list: "prices",
      params: { peptide: { kind: "peptide", path: ["peptide", "id"] }, currency: equals("currency") },
    },
  }),
  products: e("products", {
    path: "/products",
    scope: "products:read",
    query: "products",
    resource: "product",
    list: true,
    options: PRODUCT_OPTIONS,
    offline: { list: "products", params: { peptide: { kind: "peptide", path: ["peptide", "id"] } } },
  }),
} as const satisfies Record<string, Endpoint>;

export type EndpointName = keyof typeof ENDPOINTS;

/** `/peptides/{slug}` + `{ slug: "x y" }` -> `/peptides/x%20y`. */
export function expandPath(template: string, params: Record<string, string> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = params[name];
    if (v === undefined) throw new Error(`missing path parameter ${name}`);
    // encodeURIComponent keeps dots, and the URL resolves a "." or ".." segment away (%2e too).
    if (v === "." || v === "..") throw new Error(`path parameter ${name} must not be "${v}"`);
    return encodeURIComponent(v);
  });
}

/**
 * A parameter's value as the API takes it: a code upper-cased (`us` -> `US`, as the
 * command line's flags do), anything else as given. For callers that take parameters by
 * their API names (the MCP tools).
 */
export function paramValue(endpoint: Endpoint, param: string, value: unknown): unknown {
  return endpoint.upperParams.includes(param) && typeof value === "string" ? upperCode(value) : value;
}

/** A typed path argument checked and turned into the id the API takes; throws a UsageError naming `<name>`. */
export function pathValue(endpoint: Endpoint, value: string): string {
  const name = endpoint.pathParam ?? "id";
  return endpoint.pathId ? endpoint.pathId(value, `<${name}>`) : requireArg(value, name);
}
