/**
 * One tool call: arguments -> the endpoint's checked query (the same checks as the
 * command line's flags, messages naming the argument), one request or at most `limit`
 * items of a list through the run's client (retries, pacing, ETag cache, size limit),
 * and a cleaned result with its notices.
 */
import { ENDPOINTS, expandPath } from "../api/endpoints.js";
import { LIMITS } from "../api/enums.js";
import { RESOURCES } from "../api/resources.js";
import type { ToolEntry } from "./catalog.js";
import { requireArg } from "../api/item.js";
import { checkParams } from "../api/query.js";
import { toStudyId } from "../api/study-id.js";
import { keyEnding } from "../config/key-ending.js";
import type { Context } from "../core/context.js";
import type { Query } from "../http/types.js";
import { toolError, type ToolError } from "./failure.js";
import { cleanDeep, itemText, listText, noticesOf, redactor, type Notices, type Redact } from "./result.js";

export interface ToolSuccess {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  structuredContent: Record<string, unknown>;
}

/** Nouns for the text rendering of lists. */
/** Codes are upper case to the API (`us` and `US` name the same place), as on the command line. */
const UPPER = new Set(["country", "ships_to", "currency"]);

function queryOf(entry: ToolEntry, args: Record<string, unknown>): Query {
  const raw: Record<string, unknown> = {};
  for (const param of entry.params) {
    let v = args[param];
    if (v === undefined) continue;
    if (param === "ids" && Array.isArray(v)) v = v.map((s) => String(s).trim()).join(",");
    if (UPPER.has(param) && typeof v === "string") v = v.trim().toUpperCase();
    raw[param] = v;
  }
  // Messages name the tool's arguments, which are the API's parameter names.
  const names = Object.fromEntries(entry.params.map((p) => [p, p]));
  return checkParams(ENDPOINTS[entry.endpoint], raw, names);
}

function pathOf(entry: ToolEntry, args: Record<string, unknown>): string {
  const endpoint = ENDPOINTS[entry.endpoint];
  if (!entry.path) return expandPath(endpoint.path);
  const value = String(args[entry.path] ?? "");
  const id = entry.endpoint === "study" ? toStudyId(value, "id") : requireArg(value, entry.path);
  return expandPath(endpoint.path, { [entry.path]: id });
}

export async function callTool(
  entry: ToolEntry,
  args: Record<string, unknown>,
  ctx: Context,
  signal: AbortSignal,
): Promise<ToolSuccess | ToolError> {
  const endpoint = ENDPOINTS[entry.endpoint];
  let redact: Redact = (s) => s;
  try {
    // Loaded as the command line loads it (on first use), so it stays in its own chunk.
    const { disclosureText } = await import("../output/render.js");
    const cfg = await ctx.config();
    redact = redactor(cfg.apiKey, cfg.apiKey ? keyEnding(cfg.apiKey) : "");
    const path = pathOf(entry, args);
    const query = queryOf(entry, args);
    const client = await ctx.client(endpoint);
    if (entry.list) {
      const { limit: rawLimit, cursor, ...filters } = query;
      const limit = rawLimit === undefined ? (entry.defaultLimit ?? LIMITS.pageDefault) : Number(rawLimit);
      const pages = client.paginate(path, {
        query: filters,
        limit,
        pageSize: limit,
        cursor: cursor === undefined ? undefined : String(cursor),
        signal,
      });
      const items: unknown[] = [];
      for await (const item of pages) items.push(cleanDeep(item, redact));
      // A cursor is passed back as received, except that the key never leaves in one.
      const next = pages.state.nextCursor === undefined ? null : redact(pages.state.nextCursor);
      return listResult(entry, items, next, noticesOf(pages.state.meta, redact, disclosureText));
    }
    const res = await client.request(path, { query, signal });
    return itemResult(entry, cleanDeep(res.data, redact), noticesOf(res.meta, redact, disclosureText));
  } catch (err) {
    return toolError(err, ctx, endpoint, redact);
  }
}

function listResult(entry: ToolEntry, items: unknown[], next: string | null, notices: Notices): ToolSuccess {
  const structured = { items, count: items.length, has_more: next !== null, next_cursor: next, ...notices };
  return {
    content: [
      { type: "text", text: listText(RESOURCES[ENDPOINTS[entry.endpoint].resource].nouns[1], items, next, notices) },
    ],
    structuredContent: structured,
  };
}

function itemResult(entry: ToolEntry, data: unknown, notices: Notices): ToolSuccess {
  return {
    content: [{ type: "text", text: itemText(entry.title, data, notices) }],
    structuredContent: { data, ...notices },
  };
}
