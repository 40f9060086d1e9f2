/**
 * The query schemas of the endpoints (docs/api.md#query-parameters), in zod: the CLI checks
 * flags with them before any request, the MCP tools check arguments with them, and the
 * sandbox checks incoming queries with the same ones. Which schema an endpoint has, and
 * the facts it is built from (its `limit` bound, its `fields`), are the endpoint's
 * descriptor's (`./endpoints.ts`).
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
  PEPTIDE_SORTS,
  PRODUCT_CATEGORIES,
  REGULATORY_STATUSES,
  SEARCH_TYPES,
  SHIPS_TO_PATTERN,
  STUDY_SORTS,
  VENDOR_SORTS,
} from "./enums.js";

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

/** What a schema is built from: the endpoint's own facts. */
export interface SchemaFacts {
  /** The most `limit` a request may ask for. */
  maxLimit: number;
  /** The values `fields` takes. */
  fields: readonly string[];
  /** A list: takes `limit` and `cursor`. */
  list: boolean;
  /** The parameters its options fill, with their allowed values when they have some. */
  params: readonly { param: string; choices?: readonly string[] | undefined }[];
}

/**
 * The schema an endpoint's options say: each parameter one of its choices, or text of
 * 1 to 200 characters; `fields` when it takes them; `limit` and `cursor` for a list. For
 * an endpoint whose parameters need no other check.
 */
function fromOptions(f: SchemaFacts) {
  const shape: Record<string, z.ZodMiniOptional<z.ZodMiniType>> = {};
  for (const { param, choices } of f.params)
    shape[param] = opt(choices ? oneOf(choices as [string, ...string[]]) : text(LIMITS.searchMaxLength));
  if (f.fields.length > 0) shape.fields = opt(csvOf(f.fields));
  if (f.list) Object.assign(shape, { limit: opt(limit(f.maxLimit)), cursor: opt(cursor()) });
  return z.strictObject(shape);
}

/** How to build each kind of query schema, from the facts of the endpoint that has it. */
const builders = {
  none: () => z.strictObject({}),
  options: fromOptions,
  peptides: (f: SchemaFacts) =>
    z.strictObject({
      search: opt(text(LIMITS.searchMaxLength)),
      category: opt(oneOf(CATEGORIES)),
      research_area: opt(text(LIMITS.researchAreaMaxLength)),
      evidence_level: opt(oneOf(EVIDENCE_LEVELS)),
      regulatory_status: opt(oneOf(REGULATORY_STATUSES)),
      sort: opt(oneOf(PEPTIDE_SORTS)),
      limit: opt(limit(f.maxLimit)),
      cursor: opt(cursor()),
      fields: opt(csvOf(f.fields)),
    }),
  researchAreas: (f: SchemaFacts) =>
    z.strictObject({
      search: opt(text(LIMITS.areaSearchMaxLength)),
      limit: opt(limit(f.maxLimit)),
      cursor: opt(cursor()),
    }),
  paged: (f: SchemaFacts) => z.strictObject({ limit: opt(limit(f.maxLimit)), cursor: opt(cursor()) }),
  search: (f: SchemaFacts) =>
    z.strictObject({
      q: text(LIMITS.searchMaxLength),
      types: opt(csvOf(SEARCH_TYPES)),
      limit: opt(limit(f.maxLimit)),
    }),
  studies: (f: SchemaFacts) =>
    z
      .strictObject({
        peptide: opt(text(LIMITS.searchMaxLength)),
        evidence_classification: opt(csvOf(EVIDENCE_CLASSIFICATIONS)),
        year_from: opt(intIn(LIMITS.yearMin, LIMITS.yearMax)),
        year_to: opt(intIn(LIMITS.yearMin, LIMITS.yearMax)),
        search: opt(text(LIMITS.searchMaxLength)),
        sort: opt(oneOf(STUDY_SORTS)),
        limit: opt(limit(f.maxLimit)),
        cursor: opt(cursor()),
        fields: opt(csvOf(f.fields)),
      })
      .check(
        z.refine((q) => q.year_from === undefined || q.year_to === undefined || q.year_from <= q.year_to, {
          message: "must not be later than year_to",
          path: ["year_from"],
        }),
      ),
  vendors: (f: SchemaFacts) =>
    z.strictObject({
      search: opt(text(LIMITS.searchMaxLength)),
      country: opt(country()),
      ships_to: opt(shipsTo()),
      product_category: opt(oneOf(PRODUCT_CATEGORIES)),
      min_rating: opt(numberIn(LIMITS.ratingMin, LIMITS.ratingMax)),
      peptide: opt(text(LIMITS.searchMaxLength)),
      sort: opt(oneOf(VENDOR_SORTS)),
      limit: opt(limit(f.maxLimit)),
      cursor: opt(cursor()),
      fields: opt(csvOf(f.fields)),
    }),
  vendorCompare: () => z.strictObject({ ids: idList(LIMITS.compareMin, LIMITS.compareMax), ships_to: opt(shipsTo()) }),
  vendorDetail: () => z.strictObject({ ships_to: opt(shipsTo()) }),
  /**
   * Products and prices: the spec shows only these parameters and says others exist.
   * Known ones are checked; unknown ones pass through (`--param key=value`).
   */
  prices: (f: SchemaFacts) =>
    z.looseObject({
      peptide: opt(text(LIMITS.searchMaxLength)),
      form: opt(text(80)),
      currency: opt(currency()),
      ships_to: opt(shipsTo()),
      limit: opt(limit(f.maxLimit)),
      cursor: opt(cursor()),
    }),
  products: (f: SchemaFacts) =>
    z.looseObject({
      peptide: opt(text(LIMITS.searchMaxLength)),
      form: opt(text(80)),
      currency: opt(currency()),
      limit: opt(limit(f.maxLimit)),
      cursor: opt(cursor()),
    }),
};

/** A query schema: parses (and coerces) a query's values. */
export type QuerySchema = z.ZodMiniType<Record<string, unknown>>;

/** The kinds of query schema, as a descriptor names them. */
export type SchemaKind = keyof typeof builders;

/** The query schema of one kind, built from an endpoint's facts. */
export function buildQuerySchema(kind: SchemaKind, facts: SchemaFacts): QuerySchema {
  return builders[kind](facts) as QuerySchema;
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
  endpoint: { query: QuerySchema },
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
