/**
 * One tool call: arguments -> the endpoint's checked query (the same checks as the
 * command line's flags, messages naming the argument), one request or at most `limit`
 * items of a list through the run's client (retries, pacing, ETag cache, size limit),
 * and a cleaned result with its notices. Waits are watched (`calls.ts`): the client hears
 * of them, and one past the bound ends the call with when to call again.
 */
import { ENDPOINTS, expandPath } from "../api/endpoints.js";
import { LIMITS } from "../api/enums.js";
import { nearestPeptides, nearestVendors } from "../api/nearest-names.js";
import { RESOURCES } from "../api/resources.js";
import type { ToolEntry } from "./catalog.js";
import { requireArg } from "../api/item.js";
import { checkParams } from "../api/query.js";
import { toStudyId } from "../api/study-id.js";
import { keyEnding } from "../config/key-ending.js";
import type { Context } from "../core/command-context.js";
import { ApiError, UsageError } from "../core/errors.js";
import type { Client, Query } from "../http/types.js";
import { watching, type CallWatch, type LogLevel } from "./calls.js";
import { peptideUri, studyUri } from "./extras.js";
import { toolError, toolErrorText, type ToolError } from "./failure.js";
import { cleanDeep, itemText, listText, noticesOf, redactor, type Notices, type Redact } from "./result.js";
import type { Setup } from "./setup.js";

export interface ToolSuccess {
  [key: string]: unknown;
  content: Array<
    | { type: "text"; text: string }
    | { type: "resource_link"; uri: string; name: string; title?: string; mimeType: string }
  >;
  structuredContent: Record<string, unknown>;
}

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

/** What a call needs from the server around it. */
export interface CallEnv {
  ctx: Context;
  setup: Setup;
  /** The call's own abort (a wait past the bound) with the client's cancellation. */
  signal: AbortSignal;
  watch: CallWatch;
  now: () => number;
}

export async function callTool(
  entry: ToolEntry,
  args: Record<string, unknown>,
  env: CallEnv,
): Promise<ToolSuccess | ToolError> {
  const { ctx, setup, signal, watch } = env;
  const endpoint = ENDPOINTS[entry.endpoint];
  let redact: Redact = (s) => s;
  if (setup.problems.length > 0)
    return toolErrorText(
      ["error: pep mcp is not configured, so no tool can answer", ...setup.problems.map((p) => `hint: ${p}`)],
      redact,
    );
  let client: Client | undefined;
  const cfg = setup.config;
  try {
    // Loaded as the command line loads it (on first use), so it stays in its own chunk.
    const { disclosureText } = await import("../output/render.js");
    redact = redactor(cfg?.apiKey, cfg?.apiKey ? keyEnding(cfg.apiKey) : "");
    const path = pathOf(entry, args);
    const query = queryOf(entry, args);
    client = await ctx.client(endpoint);
    return await watching(watch, async () => {
      if (typeof query.research_area === "string")
        query.research_area = await researchArea(client!, query.research_area, signal);
      if (entry.list) {
        const { limit: rawLimit, cursor, ...filters } = query;
        const limit = rawLimit === undefined ? (entry.defaultLimit ?? LIMITS.pageDefault) : Number(rawLimit);
        const pages = client!.paginate(path, {
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
      const res = await client!.request(path, { query, signal });
      return itemResult(entry, cleanDeep(res.data, redact), noticesOf(res.meta, redact, disclosureText));
    });
  } catch (err) {
    const extra =
      err instanceof ApiError && err.status === 404 && !watch.deferred
        ? await watching(watch, () => notFoundHints(entry, args, client, signal))
        : [];
    return toolError(err, { endpoint, config: cfg, deferred: watch.deferred, extra, now: env.now() }, redact);
  }
}

/**
 * `research_area` as the API takes it (an area's exact name), from all or part of one:
 * the areas whose name contains it, case-insensitive. One match, or one named exactly,
 * is taken; none or several is an error that says what to call.
 */
async function researchArea(client: Client, given: string, signal: AbortSignal): Promise<string> {
  const res = await client.request<Array<{ name?: unknown }>>("/research-areas", {
    query: { search: given.slice(0, LIMITS.areaSearchMaxLength), limit: LIMITS.pageMax },
    signal,
  });
  const want = given.trim().toLowerCase();
  const names = (Array.isArray(res.data) ? res.data : [])
    .map((a) => a?.name)
    .filter((n): n is string => typeof n === "string")
    .filter((n) => n.toLowerCase().includes(want));
  const exact = names.find((n) => n.toLowerCase() === want);
  if (exact) return exact;
  if (names.length === 1) return names[0]!;
  if (names.length === 0)
    throw new UsageError(`research_area "${given}" matches no research area`, {
      hints: [
        "call list_research_areas (its search argument takes part of a name) for the names, then pass one (or a part of it that only it contains) as research_area",
      ],
    });
  const shown = names.slice(0, 10).map((n) => JSON.stringify(n));
  throw new UsageError(`research_area "${given}" matches ${names.length} research areas: ${shown.join(", ")}`, {
    hints: ["pass one of them as research_area"],
  });
}

/** Closest names to a near-miss slug, by the API's own search; what to call for ids of other kinds. */
async function notFoundHints(
  entry: ToolEntry,
  args: Record<string, unknown>,
  client: Client | undefined,
  signal: AbortSignal,
): Promise<string[]> {
  if (entry.endpoint === "study")
    return ["find study ids with list_studies (search: words of the title; peptide: a citing peptide)"];
  if (entry.path === "id") return vendorHints(entry, args.id, client, signal);
  const given = entry.path === "slug" ? args.slug : args.peptide;
  if (typeof given !== "string" || !client) return [];
  try {
    const hits = await nearestPeptides(client, given, signal);
    if (hits.length === 0)
      return [
        `no peptide is named like "${given}"; find slugs with search (q: a name) or list_peptides (search: a name)`,
      ];
    const list = hits.map((p) => `${p.id}${p.name !== undefined ? ` (${p.name})` : ""}`);
    return [`closest peptides: ${list.join(", ")}; call ${entry.name} again with one of these slugs`];
  } catch {
    return ["find slugs with search (q: a name) or list_peptides (search: a name)"];
  }
}

type Link = { type: "resource_link"; uri: string; name: string; title?: string; mimeType: string };

/** A link to the resource of each peptide or study of a list, for clients that read resources. */
function linksOf(kind: "peptide" | "study" | undefined, items: readonly unknown[]): Link[] {
  if (!kind) return [];
  const out: Link[] = [];
  for (const item of items) {
    if (!item || typeof item !== "object") continue;
    const { id, name, title } = item as { id?: unknown; name?: unknown; title?: unknown };
    if (typeof id !== "string" || id === "") continue;
    const label = kind === "peptide" ? name : title;
    out.push({
      type: "resource_link",
      uri: kind === "peptide" ? peptideUri(id) : studyUri(id),
      name: id,
      ...(typeof label === "string" ? { title: label } : {}),
      mimeType: "application/json",
    });
  }
  return out;
}

const LINKED: Partial<Record<ToolEntry["endpoint"], "peptide" | "study">> = {
  peptides: "peptide",
  studies: "study",
  peptideStudies: "study",
};

/** Vendors named like a near-miss id or slug, by the directory's own name search (one request, counted by the plan). */
async function vendorHints(
  entry: ToolEntry,
  given: unknown,
  client: Client | undefined,
  signal: AbortSignal,
): Promise<string[]> {
  const fallback = ["find vendor ids and slugs with list_vendors (search: the vendor's name)"];
  if (typeof given !== "string" || !client) return fallback;
  try {
    const hits = await nearestVendors(client, given, signal);
    if (hits.length === 0) return fallback;
    const list = hits.map((v) => `${v.id}${v.name !== undefined ? ` (${v.name})` : ""}`);
    return [`closest vendors: ${list.join(", ")}; call ${entry.name} again with one of these`];
  } catch {
    return fallback;
  }
}

function listResult(entry: ToolEntry, items: unknown[], next: string | null, notices: Notices): ToolSuccess {
  const structured = { items, count: items.length, has_more: next !== null, next_cursor: next, ...notices };
  return {
    content: [
      {
        type: "text",
        text: listText({
          tool: entry.name,
          noun: RESOURCES[ENDPOINTS[entry.endpoint].resource].nouns[1],
          items,
          nextCursor: next,
          notices,
          structured,
        }),
      },
      ...linksOf(LINKED[entry.endpoint], items),
    ],
    structuredContent: structured,
  };
}

function itemResult(entry: ToolEntry, data: unknown, notices: Notices): ToolSuccess {
  const structured = { data, ...notices };
  // Search: a link to each peptide profile it found.
  const found =
    entry.endpoint === "search" && data && typeof data === "object"
      ? (data as { peptides?: unknown }).peptides
      : undefined;
  return {
    content: [
      { type: "text", text: itemText(entry.title, structured) },
      ...linksOf("peptide", Array.isArray(found) ? found : []),
    ],
    structuredContent: structured,
  };
}

/** Progress and log messages of one call, sent as its client asked. */
export function callWatch(
  progressToken: string | number | undefined,
  send: (n: { method: string; params: Record<string, unknown> }) => Promise<void>,
  log: (level: LogLevel, message: string) => void,
): CallWatch {
  let progress = 0;
  return {
    abort: new AbortController(),
    waitedMs: 0,
    tell(message, level) {
      if (progressToken !== undefined && level !== "debug")
        void send({
          method: "notifications/progress",
          params: { progressToken, progress: ++progress, message },
        }).catch(() => {});
      log(level, message);
    },
  };
}
