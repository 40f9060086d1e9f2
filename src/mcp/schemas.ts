/**
 * Input and output schemas of the tools. Inputs are built from the endpoint table: each
 * argument is the endpoint's own zod schema for that parameter (the one that checks the
 * command line's flags and the sandbox's queries), described with the text of the flag
 * that fills it. Outputs declare the envelope every result shares.
 */
import * as z from "zod";
import { ENDPOINTS, type Endpoint } from "../api/endpoints.js";
import { LIMITS, PEPTIDE_FIELDS, STUDY_FIELDS, VENDOR_FIELDS } from "../api/enums.js";
import type { ToolEntry } from "../commands/mcp/catalog.js";
import { COMMANDS } from "../commands/registry.js";
import { STUDY_ID_FORMS } from "../commands/studies/study-id.js";

type Shape = Record<string, z.ZodType>;

/** The parameter schemas of an endpoint's query object. */
export function shapeOf(endpoint: Endpoint): Shape {
  const shape = (endpoint.query as unknown as { shape?: Shape }).shape;
  if (!shape) throw new Error(`the query schema of ${endpoint.path} is not an object`);
  return shape;
}

/** Command whose flags fill each endpoint's parameters: their descriptions describe the arguments. */
const COMMAND_OF: Partial<Record<ToolEntry["endpoint"], string>> = {
  search: "search",
  peptides: "peptides list",
  researchAreas: "research-areas",
  studies: "studies list",
  vendors: "vendors list",
  vendor: "vendors get",
  vendorShipping: "vendors shipping",
  vendorCompare: "vendors compare",
  products: "products",
  prices: "prices",
};

function flagDocs(endpoint: ToolEntry["endpoint"]): Record<string, string> {
  const path = COMMAND_OF[endpoint];
  const def = path ? COMMANDS.find((d) => d.path.join(" ") === path) : undefined;
  const out: Record<string, string> = {};
  for (const o of def?.options ?? []) {
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
export function inputSchema(entry: ToolEntry): z.ZodObject {
  const endpoint = ENDPOINTS[entry.endpoint];
  const shape = shapeOf(endpoint);
  const docs = flagDocs(entry.endpoint);
  const args: Shape = {};
  if (entry.path) {
    args[entry.path] = z
      .string()
      .min(1, { message: "must not be empty" })
      .max(LIMITS.searchMaxLength, { message: `must be at most ${LIMITS.searchMaxLength} characters` })
      .describe(pathArgDoc(entry));
  }
  for (const param of entry.params) {
    if (param === "ids") {
      // The endpoint takes `ids=a,b`; a tool argument is a list, joined and checked by the endpoint's schema.
      args.ids = z
        .array(z.string().min(1, { message: "must not be empty" }))
        .min(LIMITS.compareMin, { message: `must name ${LIMITS.compareMin} to ${LIMITS.compareMax} vendors` })
        .max(LIMITS.compareMax, { message: `must name ${LIMITS.compareMin} to ${LIMITS.compareMax} vendors` })
        .describe(`${LIMITS.compareMin} to ${LIMITS.compareMax} vendor ids or slugs`);
      continue;
    }
    const schema = shape[param];
    if (!schema) throw new Error(`${endpoint.path} has no parameter ${param}`);
    args[param] = schema.describe(describeParam(entry, param, docs));
  }
  return z.object(args).strict();
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
function itemSchema(entry: ToolEntry): z.ZodType {
  const known =
    entry.endpoint === "peptides"
      ? PEPTIDE_FIELDS
      : entry.endpoint === "studies"
        ? STUDY_FIELDS
        : entry.endpoint === "vendors"
          ? VENDOR_FIELDS
          : [];
  return z.looseObject(Object.fromEntries(known.map((f) => [f, z.unknown().optional()])));
}

/** What every result carries besides its data. */
const NOTICES = {
  research_notice: z
    .string()
    .describe("research and education only: not medical advice, not a recommendation to buy or use any substance"),
  sandbox: z
    .boolean()
    .describe(
      "true when the data is the sandbox's synthetic data (meta.sandbox), which must never pass for real research",
    ),
  sandbox_notice: z.string().optional().describe("present when sandbox is true"),
  affiliate_disclosure: z
    .string()
    .optional()
    .describe("the API's disclosure, when links in the result may be affiliate links"),
};

export function outputSchema(entry: ToolEntry): z.ZodObject {
  if (entry.list) {
    return z.object({
      items: z.array(itemSchema(entry)),
      count: z.number().int().min(0).describe("items in this result"),
      has_more: z.boolean().describe("more items remain: call again with cursor = next_cursor"),
      next_cursor: z.string().nullable(),
      ...NOTICES,
    });
  }
  return z.object({
    data: z.unknown().describe("the API's data, as received (control characters removed)"),
    ...NOTICES,
  });
}
