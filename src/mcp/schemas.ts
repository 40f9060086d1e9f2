/**
 * Input and output schemas of the tools, built from the endpoint descriptors: each
 * argument is the endpoint's own parameter (`src/api/endpoints.ts`), declared as the JSON
 * type a model should send:
 * - a list parameter (sent comma-separated) is an array; a comma-separated string is
 *   still taken;
 * - a parameter with fixed values takes them in any case (they are sent as the API
 *   spells them, as on the command line);
 * - numbers are declared as JSON numbers with the bounds of the endpoint's schema, and
 *   taken as a string of digits too (`"2020"`), as an id is taken as a number (`90002593`);
 * - anything else is the endpoint's own schema.
 * Each is described in the words of a tool's caller: arguments and other tools, never
 * flags or commands. Every tool declares its result (`outputSchema`), as briefly as the
 * tool list the model reads on every turn allows.
 */
import * as z from "zod/mini";
import { clone, globalRegistry, type $ZodType } from "zod/v4/core";
import { ENDPOINTS, listParamOf, type Endpoint, type ListParam } from "../api/endpoints.js";
import { LIMITS, PRODUCT_FORM_EXAMPLES } from "../api/enums.js";
import type { ToolEntry } from "./catalog.js";

type Shape = Record<string, $ZodType>;

interface Def {
  type?: string;
  innerType?: $ZodType;
  out?: $ZodType;
  entries?: Record<string, string>;
  checks?: unknown[];
  format?: string;
}
const defOf = (s: $ZodType | undefined): Def => ((s as { _zod?: { def?: Def } })?._zod?.def ?? {}) as Def;

/**
 * `schema` described for the tool's clients. zod's mini API (pep's schemas use it, so
 * that the classic one stays out of every run's bundle) describes through the registry,
 * not a method. A copy is described, so two tools sharing a parameter of the endpoint
 * table keep their own words. The MCP SDK reads mini and classic schemas alike.
 */
function described<T extends $ZodType>(schema: T, description: string): T {
  const copy = clone(schema);
  globalRegistry.add(copy, { description });
  return copy;
}

/**
 * `schema` declared to clients as `json`, where what it takes is wider (a list also as a
 * comma-separated string) or its zod type says nothing (an item): the registry's metadata
 * is laid over the converted schema, and a key set to undefined leaves it.
 */
function declared<T extends $ZodType>(schema: T, json: Record<string, unknown>): T {
  globalRegistry.add(schema, json);
  return schema;
}

/** The parameter schemas of an endpoint's query object. */
export function shapeOf(endpoint: Endpoint): Shape {
  const shape = (endpoint.query as unknown as { shape?: Shape }).shape;
  if (!shape) throw new Error(`the query schema of ${endpoint.path} is not an object`);
  return shape;
}

/**
 * A tool's root schema, without the `$schema` line the conversion adds to each (the SDK
 * converts with zod's toJSONSchema, which takes the root's metadata last): a copy of a
 * draft URL per schema is tokens of the list the model reads on every turn, and MCP
 * already says which JSON Schema a tool's schemas are.
 */
function root<T extends z.ZodMiniObject>(schema: T): T {
  globalRegistry.add(schema, { $schema: undefined } as Record<string, unknown>);
  return schema;
}

/** The values of a parameter with fixed values (an enum of the endpoint's schema). */
export function choicesOf(schema: $ZodType | undefined): readonly string[] | undefined {
  const def = defOf(schema);
  if (def.type === "optional") return choicesOf(def.innerType);
  return def.type === "enum" && def.entries ? Object.values(def.entries) : undefined;
}

/** The bounds of a numeric parameter (the checks of the endpoint's schema), or undefined. */
function boundsOf(schema: $ZodType | undefined): { min: number; max: number; int: boolean } | undefined {
  const def = defOf(schema);
  if (def.type === "optional") return boundsOf(def.innerType);
  if (def.type === "pipe") return boundsOf(def.out);
  if (def.type !== "number") return undefined;
  const bag = {
    format: def.format,
    ...(schema as { _zod: { bag?: { minimum?: number; maximum?: number; format?: string } } })._zod.bag,
  };
  // A check added with `.check()` is in the definition, where the bag may not have it.
  for (const c of def.checks ?? []) {
    const d = (c as { _zod?: { def?: { check?: string; value?: number } } })._zod?.def;
    if (d?.check === "greater_than") bag.minimum ??= d.value;
    if (d?.check === "less_than") bag.maximum ??= d.value;
    if (d?.check === "number_format") bag.format ??= (d as { format?: string }).format;
  }
  if (bag.minimum === undefined || bag.maximum === undefined) return undefined;
  return { min: bag.minimum, max: bag.maximum, int: bag.format === "safeint" };
}

/** A string a model may send for a number: digits, a point and more digits. */
const NUMERIC = /^\s*\d+(\.\d+)?\s*$/;

/** A number from `min` to `max` (whole when `int`): a JSON number, or the same as a string ("2020"). */
function number(b: { min: number; max: number; int: boolean }): $ZodType {
  const message = `must be ${b.int ? "a whole number" : "a number"} from ${b.min} to ${b.max}`;
  const fits = (v: unknown) => {
    if (typeof v !== "number" && !(typeof v === "string" && NUMERIC.test(v))) return false;
    const n = Number(v);
    return Number.isFinite(n) && n >= b.min && n <= b.max && (!b.int || Number.isInteger(n));
  };
  return declared(z.unknown().check(z.refine(fits, { message })), {
    type: b.int ? "integer" : "number",
    minimum: b.min,
    maximum: b.max,
  });
}

/** Matches `values` without regard to case. */
const anyCase = (values: readonly string[], v: string) =>
  values.some((c) => c.toLowerCase() === v.trim().toLowerCase());

/** A value from `values`, in any case; sent as the API spells it (`tools.ts`). */
function choice(values: readonly string[]): $ZodType {
  const message = `must be one of: ${values.join(", ")}`;
  // Declared with the API's spellings, which a model should send; other cases are taken too.
  return declared(z.string({ message }).check(z.refine((v) => anyCase(values, v), { message })), {
    type: "string",
    enum: [...values],
  });
}

/** The members of a list argument: an array, or a comma-separated string. */
export const membersOf = (v: unknown): string[] =>
  (Array.isArray(v) ? v.map(String) : String(v).split(",")).map((s) => s.trim()).filter((s) => s !== "");

/** A list: an array of strings (each from `values` in any case, when given), or the same comma-separated. */
function list(info: ListParam): $ZodType {
  const { values, min = 1, max } = info;
  const message = values
    ? `must be a list of: ${values.join(", ")}`
    : `must name ${min}${max === undefined ? " or more" : ` to ${max}`} ${info.what ?? "values"}`;
  const schema = z.union([z.array(z.string()), z.string()]).check(
    z.refine(
      (v) => {
        const members = membersOf(v);
        return (
          members.length >= min &&
          (max === undefined || members.length <= max) &&
          (!values || members.every((m) => anyCase(values, m)))
        );
      },
      { message },
    ),
  );
  return declared(schema, {
    anyOf: undefined,
    type: "array",
    items: values ? { type: "string", enum: [...values] } : { type: "string" },
    ...(min > 1 ? { minItems: min } : {}),
    ...(max !== undefined ? { maxItems: max } : {}),
  });
}

/** The study id forms (`STUDY_ID_FORMS`), by example: a model copies a placeholder as it is. */
export const STUDY_ID_WORDS =
  "study id: pmid-12345678, doi-10.1000--182 (a DOI with each / as --), nct-NCT01234567, or a PMID, DOI, doi.org link or NCT number as found in papers";
const PEPTIDE_REF = "peptide slug, name or alias (from list_peptides or search)";
const SHIPS_TO = "destination: country code (US) or subdivision (US-CA), any case";

/**
 * Words for a model where the endpoint option's own (written for the command line) would
 * mislead it; every other argument is described by its option. The values of a choice or
 * a list are the schema's `enum`.
 */
const DOCS: Record<string, string | ((entry: ToolEntry) => string)> = {
  q: "words to search for",
  types: "what to search (default both)",
  search: (e) =>
    e.endpoint === "researchAreas"
      ? "part of an area name"
      : e.endpoint === "studies"
        ? "words in the title"
        : e.endpoint === "vendors"
          ? "vendor name or alias"
          : "name, synonym or alias (fuzzy)",
  research_area:
    "research area: all or part of a name listed by list_research_areas (case-insensitive; e.g. 'sleep'); an ambiguous part is an error listing the matches",
  peptide: "only those of this peptide (slug, name or alias)",
  sort: "order",
  evidence_classification: "only studies of these classifications",
  year_from: "earliest publication year",
  year_to: "latest publication year",
  country: "where the vendor is based: two-letter country code (US), any case",
  ships_to: (e) => (e.list ? `${SHIPS_TO}; vendors of unknown coverage are left out` : `${SHIPS_TO}; adds ships_to`),
  form: `product form id, e.g. ${PRODUCT_FORM_EXAMPLES.join(", ")}`,
  currency: "three-letter currency code (USD), any case; prices are never converted",
  cursor: "next_cursor of the previous call, to continue",
  fields: "fields to return (id always; default all)",
  ids: "vendor ids or slugs (from list_vendors)",
};

function pathArgDoc(entry: ToolEntry): string {
  if (entry.path === "slug") return PEPTIDE_REF;
  if (ENDPOINTS[entry.endpoint].pathId) return STUDY_ID_WORDS;
  return "vendor id or slug (from list_vendors)";
}

function describeParam(entry: ToolEntry, param: string): string {
  if (param === "limit") return `most items, 1 to ${entry.maxLimit} (default ${entry.defaultLimit})`;
  const doc = DOCS[param] ?? ENDPOINTS[entry.endpoint].options.find((o) => o.param === param)?.description;
  if (doc === undefined) throw new Error(`no description for ${param} of ${entry.name}`);
  return typeof doc === "function" ? doc(entry) : doc;
}

/** The schema of one argument, from the endpoint's schema of that parameter. */
function argSchema(entry: ToolEntry, param: string, schema: $ZodType): $ZodType {
  if (param === "limit") return z.optional(number({ min: 1, max: entry.maxLimit, int: true }));
  const required = defOf(schema).type !== "optional";
  const listed = listParamOf(schema);
  const values = choicesOf(schema);
  const bounds = boundsOf(schema);
  const own = listed ? list(listed) : values ? choice(values) : bounds ? number(bounds) : undefined;
  if (!own) return schema;
  return required ? own : z.optional(own);
}

/**
 * Schemas built once per tool and shared by every session's server (an HTTP server
 * holds one per session; building them anew is most of what a session costs).
 */
const built = new Map<string, { input: z.ZodMiniObject; output: z.ZodMiniObject }>();

/** A tool's schemas, built on first use. */
export function schemasOf(entry: ToolEntry): { input: z.ZodMiniObject; output: z.ZodMiniObject } {
  let schemas = built.get(entry.name);
  if (!schemas) {
    schemas = { input: inputSchema(entry), output: outputSchema(entry) };
    built.set(entry.name, schemas);
  }
  return schemas;
}

/**
 * What a tool is registered with: its words, its schemas and that it only reads. The
 * server registers each tool with it (`server.ts`), and the build renders the tool list
 * the quick start answers with from it (`tool-list.ts`), so the two cannot differ.
 */
export function toolConfigOf(entry: ToolEntry) {
  const endpoint = ENDPOINTS[entry.endpoint];
  const keyed = endpoint.keyRequired ? ` Needs a key with ${endpoint.scope}.` : "";
  const { input, output } = schemasOf(entry);
  return {
    title: entry.title,
    description: `${entry.summary}${keyed}`,
    inputSchema: input,
    outputSchema: output,
    annotations: { readOnlyHint: true },
  };
}

/** The zod object of a tool's arguments. */
export function inputSchema(entry: ToolEntry): z.ZodMiniObject {
  const endpoint = ENDPOINTS[entry.endpoint];
  const shape = shapeOf(endpoint);
  const args: Shape = {};
  if (entry.path) {
    // A string; a number is taken as its digits (a bare PMID, a vendor's numeric id).
    const text = z
      .string()
      .check(
        z.minLength(1, { message: "must not be empty" }),
        z.maxLength(LIMITS.searchMaxLength, { message: `must be at most ${LIMITS.searchMaxLength} characters` }),
      );
    const whole = z.int({ message: "must be a string (an id, name or slug) or a whole number" });
    args[entry.path] = declared(z.union([text, whole]), {
      anyOf: undefined,
      type: "string",
      minLength: 1,
      maxLength: LIMITS.searchMaxLength,
      description: pathArgDoc(entry),
    });
  }
  for (const param of entry.params) {
    const schema = shape[param];
    if (!schema) throw new Error(`${endpoint.path} has no parameter ${param}`);
    const arg = argSchema(entry, param, schema);
    // A schema declared by hand keeps its declaration: described in place, not copied.
    const description = describeParam(entry, param);
    if (arg === schema) args[param] = described(arg, description);
    else {
      globalRegistry.add(arg, { description });
      args[param] = arg;
    }
  }
  return root(z.strictObject(args));
}

/**
 * A tool's result: a list's items with the paging fields, or a single object's `data`,
 * and the sandbox marker. The API publishes the field names of a few
 * items but not their types (docs/api.md#resources), and a list that takes `fields`
 * names them in that argument's `enum` already, so an item is declared as an object and
 * no more: a field listed as `{}` says nothing a model can use and costs every turn's
 * tool list. `additionalProperties` is left out (JSON Schema allows other fields by
 * default; the API may add some).
 */
export function outputSchema(entry: ToolEntry): z.ZodMiniObject {
  // The notices (research-only, the sandbox's, the affiliate disclosure) are said in the
  // instructions; only the sandbox marker, which changes what the data may be used for, is declared.
  const notices = { sandbox: z.boolean() };
  const object = declared(z.record(z.string(), z.unknown()), {
    type: "object",
    propertyNames: undefined,
    additionalProperties: undefined,
  });
  const shape = entry.list
    ? { items: z.array(object), has_more: z.boolean(), next_cursor: z.nullable(z.string()), ...notices }
    : { data: object, ...notices };
  const schema = z.looseObject(shape);
  globalRegistry.add(schema, { $schema: undefined, additionalProperties: undefined } as Record<string, unknown>);
  return schema;
}
