/**
 * Input and output schemas of the tools. Inputs are built from the endpoint table: each
 * string argument is the endpoint's own zod schema for that parameter (the one that checks
 * the command line's flags and the sandbox's queries); numbers are declared as the JSON
 * types they are, with their bounds, and taken only as such (a client's `"5"` for an
 * integer is refused, as its schema says). Each is described in the words of a tool's
 * caller: arguments and other tools, never flags or commands. Outputs declare the envelope
 * every result shares, kept small: the tool list is read by the model on every turn.
 */
import * as z from "zod/mini";
import { clone, globalRegistry, type $ZodType } from "zod/v4/core";
import { ENDPOINTS, type Endpoint } from "../api/endpoints.js";
import {
  EVIDENCE_CLASSIFICATIONS,
  LIMITS,
  PEPTIDE_FIELDS,
  PRODUCT_FORM_EXAMPLES,
  STUDY_FIELDS,
  VENDOR_FIELDS,
} from "../api/enums.js";
import type { ToolEntry } from "./catalog.js";
import { STUDY_ID_FORMS } from "../api/study-id.js";

type Shape = Record<string, $ZodType>;

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

/** The parameter schemas of an endpoint's query object. */
export function shapeOf(endpoint: Endpoint): Shape {
  const shape = (endpoint.query as unknown as { shape?: Shape }).shape;
  if (!shape) throw new Error(`the query schema of ${endpoint.path} is not an object`);
  return shape;
}

/**
 * A tool's root schema, without the `$schema` line the conversion adds to each (the SDK
 * converts with zod's toJSONSchema, which takes the root's metadata last): 32 copies of a
 * draft URL are about 400 tokens of the list the model reads on every turn, and MCP
 * already says which JSON Schema a tool's schemas are.
 */
function root<T extends z.ZodMiniObject>(schema: T): T {
  globalRegistry.add(schema, { $schema: undefined } as Record<string, unknown>);
  return schema;
}

/** A whole number from `min` to `max`, as a JSON integer only. */
function int(min: number, max: number): $ZodType {
  const message = `must be a whole number from ${min} to ${max}`;
  return z.int({ message }).check(z.gte(min, { message }), z.lte(max, { message }));
}

function number(min: number, max: number): $ZodType {
  const message = `must be a number from ${min} to ${max}`;
  return z.number({ message }).check(z.gte(min, { message }), z.lte(max, { message }));
}

/** Arguments that are numbers: declared with their bounds, not taken as strings. */
function numeric(entry: ToolEntry, param: string): $ZodType | undefined {
  if (param === "limit") return int(1, entry.endpoint === "search" ? LIMITS.searchLimitMax : LIMITS.pageMax);
  if (param === "year_from" || param === "year_to") return int(LIMITS.yearMin, LIMITS.yearMax);
  if (param === "min_rating") return number(LIMITS.ratingMin, LIMITS.ratingMax);
  return undefined;
}

const fieldList = (endpoint: ToolEntry["endpoint"]): readonly string[] | undefined =>
  endpoint === "peptides"
    ? PEPTIDE_FIELDS
    : endpoint === "studies"
      ? STUDY_FIELDS
      : endpoint === "vendors"
        ? VENDOR_FIELDS
        : undefined;

const PEPTIDE_REF = "peptide slug, name or alias (from list_peptides or search)";
const SHIPS_TO = "destination: country code (US) or subdivision (US-CA)";

/** What each argument means, in the words of a caller of the tools. Enums list their values in the schema. */
const DOCS: Record<string, string | ((entry: ToolEntry) => string)> = {
  q: "words to search for",
  types: "comma-separated: peptides, content (default both)",
  search: (e) =>
    e.endpoint === "researchAreas"
      ? "part of an area name"
      : e.endpoint === "studies"
        ? "words in the title"
        : e.endpoint === "vendors"
          ? "vendor name or alias"
          : "name, synonym or alias (fuzzy)",
  category: "research category",
  research_area:
    "research area: all or part of a name listed by list_research_areas (case-insensitive; e.g. 'sleep'); an ambiguous part is an error listing the matches",
  evidence_level: "strongest evidence level",
  regulatory_status: "regulatory status",
  sort: "order",
  peptide: "only those of this peptide (slug, name or alias)",
  evidence_classification: `comma-separated, from: ${EVIDENCE_CLASSIFICATIONS.join(", ")}`,
  year_from: "earliest publication year",
  year_to: "latest publication year",
  country: "where the vendor is based: two-letter country code (US)",
  ships_to: (e) => (e.list ? `${SHIPS_TO}; vendors of unknown coverage are left out` : `${SHIPS_TO}; adds ships_to`),
  product_category: "vendors with live listings of this type (not a product form)",
  min_rating: "minimum average rating, 0 to 5",
  form: `product form id, e.g. ${PRODUCT_FORM_EXAMPLES.join(", ")}`,
  currency: "three-letter currency code (USD); prices are never converted",
  cursor: "next_cursor of the previous call, to continue",
};

function pathArgDoc(entry: ToolEntry): string {
  if (entry.path === "slug") return PEPTIDE_REF;
  if (entry.endpoint === "study") return `study id: ${STUDY_ID_FORMS.join("; ")}`;
  return "vendor id or slug (from list_vendors)";
}

function describeParam(entry: ToolEntry, param: string): string {
  if (param === "limit") {
    const max = entry.endpoint === "search" ? LIMITS.searchLimitMax : LIMITS.pageMax;
    const def = entry.endpoint === "search" ? LIMITS.searchLimitDefault : (entry.defaultLimit ?? LIMITS.pageDefault);
    return `most items, 1 to ${max} (default ${def})`;
  }
  if (param === "fields") {
    const list = fieldList(entry.endpoint);
    return list ? `comma-separated fields to return, from: ${list.join(", ")} (id always; default all)` : "fields";
  }
  // Words written for a model where the flag's help would mislead it; else the flag's own.
  const doc = DOCS[param] ?? ENDPOINTS[entry.endpoint].options.find((o) => o.param === param)?.description;
  if (doc === undefined) throw new Error(`no description for ${param} of ${entry.name}`);
  return typeof doc === "function" ? doc(entry) : doc;
}

/** The zod object of a tool's arguments. */
export function inputSchema(entry: ToolEntry): z.ZodMiniObject {
  const endpoint = ENDPOINTS[entry.endpoint];
  const shape = shapeOf(endpoint);
  const args: Shape = {};
  if (entry.path) {
    args[entry.path] = described(
      z
        .string()
        .check(
          z.minLength(1, { message: "must not be empty" }),
          z.maxLength(LIMITS.searchMaxLength, { message: `must be at most ${LIMITS.searchMaxLength} characters` }),
        ),
      pathArgDoc(entry),
    );
  }
  for (const param of entry.params) {
    if (param === "ids") {
      // The endpoint takes `ids=a,b`; a tool argument is a list, joined and checked by the endpoint's schema.
      const count = `must name ${LIMITS.compareMin} to ${LIMITS.compareMax} vendors`;
      args.ids = described(
        z
          .array(z.string().check(z.minLength(1, { message: "must not be empty" })))
          .check(
            z.minLength(LIMITS.compareMin, { message: count }),
            z.maxLength(LIMITS.compareMax, { message: count }),
          ),
        `${LIMITS.compareMin} to ${LIMITS.compareMax} vendor ids or slugs (from list_vendors)`,
      );
      continue;
    }
    const schema = shape[param];
    if (!schema) throw new Error(`${endpoint.path} has no parameter ${param}`);
    const own = numeric(entry, param);
    args[param] = described(own ? z.optional(own) : schema, describeParam(entry, param));
  }
  return root(z.strictObject(args));
}

/**
 * What every result carries: the data, the research notice and the sandbox marker, the
 * rest (sandbox notice, affiliate disclosure, count) allowed but not declared field by
 * field. The tool list is read by the model on every turn, so each of its 16 output
 * schemas is kept to what a client must be able to rely on; the instructions say the rest.
 */
export function outputSchema(entry: ToolEntry): z.ZodMiniObject {
  const notices = { research_notice: z.string(), sandbox: z.boolean() };
  if (entry.list)
    return root(
      z.looseObject({
        items: z.array(z.unknown()),
        has_more: z.boolean(),
        next_cursor: z.nullable(z.string()),
        ...notices,
      }),
    );
  return root(z.looseObject({ data: z.unknown(), ...notices }));
}
