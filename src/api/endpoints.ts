/**
 * The endpoint table: path, scope, whether a key is needed, and the zod schema of the
 * query parameters (docs/api.md#query-parameters). The CLI validates flags with these schemas before
 * any request; the sandbox validates incoming queries with the same ones.
 *
 * Query values arrive as strings (from flags or a URL), so numeric parameters coerce.
 */
// zod's mini API: the same checks and messages as the classic chained one, but only the
// functions used are bundled, and loading it sets up a fraction of the classes (about
// 8 ms less of every networked run on Node 24).
import * as z from "zod/mini";
import {
  CATEGORIES,
  COUNTRY_PATTERN,
  EVIDENCE_CLASSIFICATIONS,
  EVIDENCE_LEVELS,
  LIMITS,
  PEPTIDE_FIELDS,
  PEPTIDE_SORTS,
  PRODUCT_CATEGORIES,
  REGULATORY_STATUSES,
  SEARCH_TYPES,
  SHIPS_TO_PATTERN,
  STUDY_FIELDS,
  STUDY_SORTS,
  VENDOR_FIELDS,
  VENDOR_SORTS,
  type Scope,
} from "./enums.js";
import type { OptionDef } from "./options.js";
import { PEPTIDE_LIST_OPTIONS } from "./params/peptides.js";
import { PRICE_OPTIONS, PRODUCT_OPTIONS } from "./params/prices.js";
import { AREA_OPTIONS, SEARCH_OPTIONS } from "./params/research.js";
import { STUDY_FILTER_OPTIONS } from "./params/studies.js";
import { SHIPS_TO_OPTIONS, VENDOR_LIST_OPTIONS } from "./params/vendors.js";
import type { Resource } from "./resources.js";
import { toStudyId } from "./study-id.js";

/**
 * Parameters that take a list, sent comma-separated: the values each member may take
 * (none: any) and how many members. Read by callers that pass a list as an array (the MCP
 * tools), so that which parameters are lists is said once, here, with their schema.
 */
export interface ListParam {
  values?: readonly string[];
  min?: number;
  max?: number;
  /** What the members are, for a message ("vendor ids or slugs"). */
  what?: string;
}
const LIST_PARAMS = new WeakMap<object, ListParam>();
const listed = <T extends object>(schema: T, info: ListParam): T => {
  LIST_PARAMS.set(schema, info);
  return schema;
};

/** What a list parameter's schema (optional or not) takes, or undefined for a single value. */
export function listParamOf(schema: unknown): ListParam | undefined {
  const inner = (schema as { _zod?: { def?: { type?: string; innerType?: unknown } } })?._zod?.def;
  const own = schema && typeof schema === "object" ? LIST_PARAMS.get(schema) : undefined;
  return own ?? (inner?.type === "optional" ? listParamOf(inner.innerType) : undefined);
}

const text = (max: number) =>
  z
    .string()
    .check(
      z.minLength(1, { message: "must not be empty" }),
      z.maxLength(max, { message: `must be at most ${max} characters` }),
    );

/**
 * A whole number, or its decimal digits as a string. `Number()` alone would also take
 * "0x76C", "2e3", " 5" or "", which an API reading an integer need not understand, and
 * the CLI sends what the user typed.
 */
const intIn = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.pipe(
    z.transform((v: unknown) => (typeof v === "string" ? (/^-?\d+$/.test(v) ? Number(v) : Number.NaN) : v)),
    z.int({ message }).check(z.gte(min, { message }), z.lte(max, { message })),
  );
};

const numberIn = (min: number, max: number) => {
  const message = `must be a number from ${min} to ${max}`;
  return z.pipe(
    z.coerce.number({ message }).check(z.refine((n) => Number.isFinite(n), { message })),
    z.number().check(z.gte(min, { message }), z.lte(max, { message })),
  );
};

const oneOf = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { message: `must be one of: ${values.join(", ")}` });

/** A comma-separated list whose every member is in `values`. */
const csvOf = (values: readonly string[], what = "one or more of") =>
  listed(
    z.string().check(
      z.minLength(1, { message: `must be ${what}: ${values.join(", ")}` }),
      z.refine((s) => s.split(",").every((p) => values.includes(p.trim())), {
        message: `must be a comma-separated list of: ${values.join(", ")}`,
      }),
    ),
    { values },
  );

const limit = (max: number) => intIn(1, max);
const cursor = () =>
  z.string().check(z.minLength(1, { message: "must not be empty" }), z.maxLength(2048, { message: "is too long" }));
const shipsTo = () =>
  z.string().check(
    z.regex(SHIPS_TO_PATTERN, {
      message: "must be a two-letter country code, optionally with a subdivision (US, US-CA)",
    }),
  );
const country = () =>
  z
    .string()
    .check(z.regex(COUNTRY_PATTERN, { message: "must be a two-letter country code (ISO 3166-1 alpha-2), such as US" }));
const idList = (min: number, max: number) =>
  listed(
    z.string().check(
      z.refine(
        (s) => {
          const ids = s.split(",").map((p) => p.trim());
          return ids.length >= min && ids.length <= max && ids.every((p) => p !== "");
        },
        { message: `must name ${min} to ${max} vendor ids or slugs, comma-separated` },
      ),
    ),
    { min, max, what: "vendor ids or slugs" },
  );
const currency = () =>
  z.string().check(z.regex(/^[A-Za-z]{3}$/, { message: "must be a three-letter currency code, such as USD" }));
const opt = z.optional;

/** How to build each endpoint's query schema. */
const builders = {
  none: () => z.strictObject({}),
  peptides: () =>
    z.strictObject({
      search: opt(text(LIMITS.searchMaxLength)),
      category: opt(oneOf(CATEGORIES)),
      research_area: opt(text(LIMITS.researchAreaMaxLength)),
      evidence_level: opt(oneOf(EVIDENCE_LEVELS)),
      regulatory_status: opt(oneOf(REGULATORY_STATUSES)),
      sort: opt(oneOf(PEPTIDE_SORTS)),
      limit: opt(limit(LIMITS.pageMax)),
      cursor: opt(cursor()),
      fields: opt(csvOf(PEPTIDE_FIELDS)),
    }),
  researchAreas: () =>
    z.strictObject({
      search: opt(text(LIMITS.areaSearchMaxLength)),
      limit: opt(limit(LIMITS.pageMax)),
      cursor: opt(cursor()),
    }),
  paged: () => z.strictObject({ limit: opt(limit(LIMITS.pageMax)), cursor: opt(cursor()) }),
  search: () =>
    z.strictObject({
      q: text(LIMITS.searchMaxLength),
      types: opt(csvOf(SEARCH_TYPES)),
      limit: opt(limit(LIMITS.searchLimitMax)),
    }),
  studies: () =>
    z
      .strictObject({
        peptide: opt(text(LIMITS.searchMaxLength)),
        evidence_classification: opt(csvOf(EVIDENCE_CLASSIFICATIONS)),
        year_from: opt(intIn(LIMITS.yearMin, LIMITS.yearMax)),
        year_to: opt(intIn(LIMITS.yearMin, LIMITS.yearMax)),
        search: opt(text(LIMITS.searchMaxLength)),
        sort: opt(oneOf(STUDY_SORTS)),
        limit: opt(limit(LIMITS.pageMax)),
        cursor: opt(cursor()),
        fields: opt(csvOf(STUDY_FIELDS)),
      })
      .check(
        z.refine((q) => q.year_from === undefined || q.year_to === undefined || q.year_from <= q.year_to, {
          message: "must not be later than year_to",
          path: ["year_from"],
        }),
      ),
  vendors: () =>
    z.strictObject({
      search: opt(text(LIMITS.searchMaxLength)),
      country: opt(country()),
      ships_to: opt(shipsTo()),
      product_category: opt(oneOf(PRODUCT_CATEGORIES)),
      min_rating: opt(numberIn(LIMITS.ratingMin, LIMITS.ratingMax)),
      peptide: opt(text(LIMITS.searchMaxLength)),
      sort: opt(oneOf(VENDOR_SORTS)),
      limit: opt(limit(LIMITS.pageMax)),
      cursor: opt(cursor()),
      fields: opt(csvOf(VENDOR_FIELDS)),
    }),
  vendorCompare: () => z.strictObject({ ids: idList(LIMITS.compareMin, LIMITS.compareMax), ships_to: opt(shipsTo()) }),
  vendorDetail: () => z.strictObject({ ships_to: opt(shipsTo()) }),
  /**
   * Products and prices: the spec shows only these parameters and says others exist.
   * Known ones are checked; unknown ones pass through (`--param key=value`).
   */
  prices: () =>
    z.looseObject({
      peptide: opt(text(LIMITS.searchMaxLength)),
      form: opt(text(80)),
      currency: opt(currency()),
      ships_to: opt(shipsTo()),
      limit: opt(limit(LIMITS.pageMax)),
      cursor: opt(cursor()),
    }),
  products: () =>
    z.looseObject({
      peptide: opt(text(LIMITS.searchMaxLength)),
      form: opt(text(80)),
      currency: opt(currency()),
      limit: opt(limit(LIMITS.pageMax)),
      cursor: opt(cursor()),
    }),
};

type Builders = typeof builders;

/**
 * Query schemas, one per endpoint, each built on first use: a run calls one endpoint,
 * and building all of them cost several milliseconds of every run's start-up. Unknown
 * parameters are rejected (400 `unknown_parameter`).
 */
export const query = {} as { readonly [K in keyof Builders]: ReturnType<Builders[K]> };
for (const name of Object.keys(builders) as Array<keyof Builders>) {
  let built: ReturnType<Builders[typeof name]> | undefined;
  Object.defineProperty(query, name, { enumerable: true, get: () => (built ??= builders[name]()) });
}

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
  /** The response is a list with `pagination`. */
  list: boolean;
  /** What an item of the answer is: its CSV columns, table columns, card and count words. */
  resource: Resource;
  /**
   * The options that fill its query parameters (each names its `param`): the command
   * line's flags, and the descriptions of the MCP tools' arguments.
   */
  options: readonly OptionDef[];
  query: z.ZodMiniType<Record<string, unknown>>;
  /** `limit` when none is given (a list, and search). */
  defaultLimit: number;
  /** The largest `limit` the API takes. */
  maxLimit: number;
  /**
   * The path argument as the API takes it, from what people type (`12345678` is the study
   * `pmid-12345678`); absent: taken as given. `label` names the argument in a message.
   */
  pathId?: (value: string, label: string) => string;
}

interface Facts {
  path: string;
  scope: Scope;
  query: keyof Builders;
  resource: Resource;
  list?: boolean;
  options?: readonly OptionDef[];
  defaultLimit?: number;
  maxLimit?: number;
  pathId?: (value: string, label: string) => string;
}

const e = (name: string, facts: Facts): Endpoint => {
  const keyed = facts.scope === "vendors:read" || facts.scope === "products:read" || facts.scope === "pricing:read";
  return {
    name,
    path: facts.path,
    scope: facts.scope,
    keyRequired: keyed,
    metered: keyed,
    list: facts.list ?? false,
    resource: facts.resource,
    options: facts.options ?? [],
    defaultLimit: facts.defaultLimit ?? LIMITS.pageDefault,
    maxLimit: facts.maxLimit ?? LIMITS.pageMax,
    ...(facts.pathId ? { pathId: facts.pathId } : {}),
    get query() {
      return query[facts.query];
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
  }),
  peptide: e("peptide", {
    path: "/peptides/{slug}",
    scope: "research:read",
    query: "none",
    resource: "peptide-profile",
  }),
  peptideStudies: e("peptideStudies", {
    path: "/peptides/{slug}/studies",
    scope: "studies:read",
    query: "paged",
    resource: "cited-study",
    list: true,
    defaultLimit: LIMITS.peptideStudiesMax,
  }),
  peptideResearch: e("peptideResearch", {
    path: "/peptides/{slug}/research",
    scope: "research:read",
    query: "none",
    resource: "research",
  }),
  regulatoryStatus: e("regulatoryStatus", {
    path: "/regulatory-status/{slug}",
    scope: "research:read",
    query: "none",
    resource: "regulatory",
  }),
  categories: e("categories", {
    path: "/categories",
    scope: "research:read",
    query: "paged",
    resource: "category",
    list: true,
  }),
  researchAreas: e("researchAreas", {
    path: "/research-areas",
    scope: "research:read",
    query: "researchAreas",
    resource: "research-area",
    list: true,
    options: AREA_OPTIONS,
  }),
  search: e("search", {
    path: "/search",
    scope: "research:read",
    query: "search",
    resource: "search",
    options: SEARCH_OPTIONS,
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
  }),
  study: e("study", {
    path: "/studies/{id}",
    scope: "studies:read",
    query: "none",
    resource: "study-detail",
    pathId: toStudyId,
  }),
  vendors: e("vendors", {
    path: "/vendors",
    scope: "vendors:read",
    query: "vendors",
    resource: "vendor",
    list: true,
    options: VENDOR_LIST_OPTIONS,
  }),
  vendorCompare: e("vendorCompare", {
    path: "/vendors/compare",
    scope: "vendors:read",
    query: "vendorCompare",
    resource: "vendor-compare",
    options: SHIPS_TO_OPTIONS,
  }),
  vendor: e("vendor", {
    path: "/vendors/{id}",
    scope: "vendors:read",
    query: "vendorDetail",
    resource: "vendor-detail",
    options: SHIPS_TO_OPTIONS,
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
  }),
  products: e("products", {
    path: "/products",
    scope: "products:read",
    query: "products",
    resource: "product",
    list: true,
    options: PRODUCT_OPTIONS,
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

export interface ParamProblem {
  /** The API parameter name (`evidence_level`), or "" for the whole query. */
  param: string;
  /** What it accepts, as a sentence fragment ("must be one of: a, b"). */
  message: string;
  /** A machine code for the sandbox's error envelope. */
  code: "invalid_parameter" | "unknown_parameter" | "missing_parameter";
}

/**
 * Validates a query against an endpoint's schema. Returns the parsed (coerced) query or
 * the problems found, each naming the parameter.
 */
export function checkQuery(
  endpoint: Endpoint,
  raw: Record<string, unknown>,
): { ok: true; value: Record<string, unknown> } | { ok: false; problems: ParamProblem[] } {
  const result = endpoint.query.safeParse(raw);
  if (result.success) return { ok: true, value: result.data };
  const problems: ParamProblem[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys)
        problems.push({ param: key, message: "is not a parameter of this endpoint", code: "unknown_parameter" });
      continue;
    }
    const param = String(issue.path[0] ?? "");
    const missing = issue.code === "invalid_type" && raw[param] === undefined;
    problems.push({
      param,
      message: missing ? "is required" : issue.message,
      code: missing ? "missing_parameter" : "invalid_parameter",
    });
  }
  return { ok: false, problems };
}
