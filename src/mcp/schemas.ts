/**
 * Input and output schemas of the tools. Inputs are built from the endpoint table: each
 * argument is the endpoint's own zod schema for that parameter (the one that checks the
 * command line's flags and the sandbox's queries), described with the text of the flag
 * that fills it. Outputs declare the envelope every result shares.
 */
import * as z from "zod/mini";
import { clone, globalRegistry, type $ZodType } from "zod/v4/core";
import { ENDPOINTS, type Endpoint } from "../api/endpoints.js";
import { LIMITS, PEPTIDE_FIELDS, STUDY_FIELDS, VENDOR_FIELDS } from "../api/enums.js";
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

/** The descriptions of the options that fill each parameter describe the arguments. */
function flagDocs(endpoint: ToolEntry["endpoint"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const o of ENDPOINTS[endpoint].options) {
    if (!o.param) continue;
    // A flag named in the text (`not before --year-from`) is the argument of the same parameter here.
    const text = o.description.replace(/--([a-z][a-z-]*)/g, (_, flag: string) => flag.replace(/-/g, "_"));
    out[o.param] = o.choices && !/one of/.test(text) ? `${text} (one of: ${o.choices.join(", ")})` : text;
  }
  return out;
}

function pathArgDoc(entry: ToolEntry): string {
  if (entry.path === "slug") return "peptide id, name, synonym or alias (aliases resolve to the canonical profile)";
  if (entry.endpoint === "study") return `study id; accepted: ${STUDY_ID_FORMS.join("; ")}`;
  return "vendor id or slug";
}

function fieldsDoc(endpoint: ToolEntry["endpoint"]): string | undefined {
  const list =
    endpoint === "peptides"
      ? PEPTIDE_FIELDS
      : endpoint === "studies"
        ? STUDY_FIELDS
        : endpoint === "vendors"
          ? VENDOR_FIELDS
          : undefined;
  return list && `fields to return, comma-separated, from: ${list.join(", ")} (id is always included; default all)`;
}

/** The zod object of a tool's arguments. */
export function inputSchema(entry: ToolEntry): z.ZodMiniObject {
  const endpoint = ENDPOINTS[entry.endpoint];
  const shape = shapeOf(endpoint);
  const docs = flagDocs(entry.endpoint);
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
        `${LIMITS.compareMin} to ${LIMITS.compareMax} vendor ids or slugs`,
      );
      continue;
    }
    const schema = shape[param];
    if (!schema) throw new Error(`${endpoint.path} has no parameter ${param}`);
    args[param] = described(schema, describeParam(entry, param, docs));
  }
  return z.strictObject(args);
}

function describeParam(entry: ToolEntry, param: string, docs: Record<string, string>): string {
  if (param === "limit") {
    const max = entry.endpoint === "search" ? LIMITS.searchLimitMax : LIMITS.pageMax;
    const def = entry.endpoint === "search" ? LIMITS.searchLimitDefault : (entry.defaultLimit ?? LIMITS.pageDefault);
    return entry.list
      ? `most items to return in this call, 1 to ${max} (default ${def})`
      : `most results, 1 to ${max} (default ${def})`;
  }
  if (param === "cursor") return "next_cursor of the previous call, to continue the list where it stopped";
  if (param === "fields") return fieldsDoc(entry.endpoint) ?? "fields to return, comma-separated";
  if (param === "q") return `the query, 1 to ${LIMITS.searchMaxLength} characters`;
  const doc = docs[param];
  if (!doc) throw new Error(`no description for ${param} of ${entry.name}`);
  return doc;
}

/** Known fields of a resource, declared so that clients see them; others pass through. */
function itemSchema(entry: ToolEntry): z.ZodMiniType {
  const known =
    entry.endpoint === "peptides"
      ? PEPTIDE_FIELDS
      : entry.endpoint === "studies"
        ? STUDY_FIELDS
        : entry.endpoint === "vendors"
          ? VENDOR_FIELDS
          : [];
  return z.looseObject(Object.fromEntries(known.map((f) => [f, z.optional(z.unknown())])));
}

/** What every result carries besides its data. */
const NOTICES = {
  research_notice: described(
    z.string(),
    "research and education only: not medical advice, not a recommendation to buy or use any substance",
  ),
  sandbox: described(
    z.boolean(),
    "true when the data is the sandbox's synthetic data (meta.sandbox), which must never pass for real research",
  ),
  sandbox_notice: described(z.optional(z.string()), "present when sandbox is true"),
  affiliate_disclosure: described(
    z.optional(z.string()),
    "the API's disclosure, when links in the result may be affiliate links",
  ),
};

export function outputSchema(entry: ToolEntry): z.ZodMiniObject {
  if (entry.list) {
    return z.object({
      items: z.array(itemSchema(entry)),
      count: described(z.int().check(z.gte(0)), "items in this result"),
      has_more: described(z.boolean(), "more items remain: call again with cursor = next_cursor"),
      next_cursor: z.nullable(z.string()),
      ...NOTICES,
    });
  }
  return z.object({
    data: described(z.unknown(), "the API's data, as received (control characters removed)"),
    ...NOTICES,
  });
}
