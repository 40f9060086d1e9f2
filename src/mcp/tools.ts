/**
 * One tool call: arguments -> the endpoint's checked query (the same checks as the
 * command line's flags, messages naming the argument), one request or at most `limit`
 * items of a list through the run's client (retries, pacing, ETag cache, size limit),
 * and a cleaned result with its notices. Waits are watched (`calls.ts`): the client hears
 * of them, and one past the bound ends the call with when to call again.
 */
import { ENDPOINTS, expandPath, listParamOf, type Endpoint } from "../api/endpoints.js";
import { LIMITS } from "../api/enums.js";
import { upperCode } from "../api/params/codes.js";
import { nearestPeptides, nearestVendors, researchAreasNamed } from "../api/nearest-names.js";
import { RESOURCES } from "../api/resources.js";
import type { ToolEntry } from "./catalog.js";
import { checkParams } from "../api/query.js";
import { keyEnding } from "../core/key-display.js";
import type { Context } from "../core/command-context.js";
import { ApiError, UsageError } from "../core/errors.js";
import type { Client, Query } from "../http/client-types.js";
import { heartbeat, watching, type CallWatch, type LogLevel, type SpentScopes } from "./calls.js";
import { peptideUri, studyUri } from "./extras.js";
import { isoSecond, toolError, toolErrorText, type ToolError } from "./failure.js";
import { Busy, type CallQueue } from "./queue.js";
import { placeOf, textCursor, type TextPlace } from "./text-cursor.js";
import { cleanDeep, itemText, listText, noticesOf, redactor, type Notices, type Redact } from "./result.js";
import { choicesOf, membersOf, shapeOf, STUDY_ID_WORDS } from "./schemas.js";
import type { Setup } from "./setup.js";

export interface ToolSuccess {
  [key: string]: unknown;
  content: Array<
    | { type: "text"; text: string }
    | { type: "resource_link"; uri: string; name: string; title?: string; mimeType: string }
  >;
  structuredContent: Record<string, unknown>;
}

/**
 * A value as the API spells it: a member of fixed values in its own case (`Cognitive` is
 * `cognitive`), a code through its option's upper-casing (`us` is `US`), as the command
 * line does; a list's members alike, joined with commas.
 */
function apiValue(endpoint: Endpoint, param: string, v: unknown): unknown {
  const schema = shapeOf(endpoint)[param];
  const values = listParamOf(schema)?.values ?? choicesOf(schema);
  const spelled = (s: string) => values?.find((c) => c.toLowerCase() === s.trim().toLowerCase()) ?? s.trim();
  if (listParamOf(schema)) return membersOf(v).map(spelled).join(",");
  if (typeof v !== "string") return v;
  if (values) return spelled(v);
  // A number sent as a string ("2020"), as the schema takes it.
  if (/^\s*\d+(\.\d+)?\s*$/.test(v)) return v.trim();
  const option = endpoint.options.find((o) => o.param === param);
  return option?.transform === upperCode ? upperCode(v) : v;
}

function queryOf(entry: ToolEntry, args: Record<string, unknown>): Query {
  const endpoint = ENDPOINTS[entry.endpoint];
  const raw: Record<string, unknown> = {};
  for (const param of entry.params) if (args[param] !== undefined) raw[param] = apiValue(endpoint, param, args[param]);
  // Messages name the tool's arguments, which are the API's parameter names.
  const names = Object.fromEntries(entry.params.map((p) => [p, p]));
  return checkParams(endpoint, raw, names);
}

function pathOf(entry: ToolEntry, args: Record<string, unknown>): string {
  const endpoint = ENDPOINTS[entry.endpoint];
  if (!entry.path) return expandPath(endpoint.path);
  const value = String(args[entry.path] ?? "").trim();
  // The schema bounds its length; a segment of "." or ".." would be resolved away by the URL.
  if (value === "" || value === "." || value === "..")
    throw new UsageError(`${entry.path} must be an id, name or slug (got "${value}")`);
  let id = value;
  try {
    if (endpoint.pathId) id = endpoint.pathId(value, entry.path);
  } catch (err) {
    // The command line's hint lists the forms with placeholders; a model gets examples.
    if (err instanceof UsageError) throw new UsageError(err.message, { hints: [`accepted: ${STUDY_ID_WORDS}`] });
    throw err;
  }
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
  /** Told when the API refuses the key a scope (403): the tools needing it are hidden. */
  refused?: (scope: string) => void;
  /** The server's record of spent rate-limit scopes (every session's). */
  spent?: SpentScopes;
  /** The server's queue of calls, and this session's name in it. */
  queue?: () => Promise<CallQueue>;
  session?: string;
}

/**
 * The call's turn (`queue.ts`), and its bound: past the deadline a running call is
 * aborted and answers that it took too long. Resolves to the function that ends both.
 */
async function turn(env: CallEnv): Promise<() => void> {
  const { watch, signal, now } = env;
  const deadline = watch.deadline;
  if (deadline === undefined || !env.queue) return () => {};
  const release = await (await env.queue()).acquire(env.session ?? "", deadline, (m) => watch.tell(m, "info"), signal);
  const timer = setTimeout(
    () => {
      watch.deferred ??= { reason: "the API did not answer in time", waitMs: 0, at: now() };
      watch.abort.abort(new Error("past the bound"));
    },
    Math.max(0, deadline - now()),
  );
  timer.unref();
  return () => {
    clearTimeout(timer);
    release();
  };
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
  let done = () => {};
  const cfg = setup.config;
  try {
    // Loaded as the command line loads it (on first use), so it stays in its own chunk.
    const { disclosureText } = await import("../output/render.js");
    redact = redactor(cfg?.apiKey, cfg?.apiKey ? keyEnding(cfg.apiKey) : "");
    const path = pathOf(entry, args);
    // A cursor a list's text gave starts inside a page (`text-cursor.ts`).
    const start = entry.list ? placeOf(args.cursor) : { cursor: undefined, skip: 0 };
    const query = queryOf(entry, entry.list ? { ...args, cursor: start.cursor } : args);
    client = await ctx.client(endpoint);
    const ended = await turn(env);
    const quiet = heartbeat(watch);
    done = () => {
      quiet();
      ended();
    };
    return await watching(watch, async () => {
      if (typeof query.research_area === "string")
        query.research_area = await researchArea(client!, query.research_area, signal);
      if (entry.list) {
        const { limit: rawLimit, cursor, ...filters } = query;
        const limit = rawLimit === undefined ? entry.defaultLimit : Number(rawLimit);
        const wanted = start.skip + limit;
        const pages = client!.paginate(path, {
          query: filters,
          limit: wanted,
          pageSize: Math.min(wanted, LIMITS.pageMax),
          cursor: cursor === undefined ? undefined : String(cursor),
          signal,
        });
        const items: unknown[] = [];
        // Where each item is, for the text's cursor: its page's cursor and its place in the page.
        const places: TextPlace[] = [];
        let n = 0;
        for await (const item of pages) {
          if (n++ < start.skip) continue;
          items.push(cleanDeep(item, redact));
          places.push({ cursor: pages.state.currentCursor, skip: pages.state.items - 1 - pages.state.pageStart });
        }
        // A cursor is passed back as received, except that the key never leaves in one.
        const next = pages.state.nextCursor === undefined ? null : redact(pages.state.nextCursor);
        const notices = noticesOf(pages.state.meta, redact, disclosureText, pages.state.synced);
        return listResult(entry, items, next, notices, (i) => redact(textCursor(places[i]!)));
      }
      const res = await client!.request(path, { query, signal });
      return itemResult(entry, cleanDeep(res.data, redact), noticesOf(res.meta, redact, disclosureText, res.synced));
    });
  } catch (err) {
    if (err instanceof Busy) return busyError(err, env, redact);
    if (err instanceof ApiError && err.status === 403 && endpoint.keyRequired && cfg?.apiKey)
      env.refused?.(endpoint.scope);
    const extra =
      err instanceof ApiError && err.status === 404 && !watch.deferred
        ? await watching(watch, () => notFoundHints(entry, args, client, signal))
        : [];
    return toolError(
      err,
      { endpoint, config: cfg, deferred: watch.deferred, extra, now: env.now(), spent: env.spent },
      redact,
    );
  } finally {
    done();
  }
}

/**
 * An answer of the local library (offline) says when the walk that answered it ended,
 * in the structured result (`synced`) and first in the text, as the command line's notice does.
 */
function fromLibrary(result: ToolSuccess, synced: string | undefined): ToolSuccess {
  if (synced === undefined) return result;
  const [first, ...rest] = result.content;
  if (first?.type !== "text") return result;
  const text = `From the local library, synced ${synced} (not the API).\n${first.text}`;
  return { ...result, content: [{ type: "text", text }, ...rest] };
}

/** A call that could not start and finish in time: when to call again. */
function busyError(err: Busy, env: CallEnv, redact: Redact): ToolError {
  const boundS = env.watch.deadline === undefined ? 0 : Math.round((env.watch.deadline - env.now()) / 1000);
  const inS = Math.max(1, Math.ceil((err.retryAt - env.now()) / 1000));
  return toolErrorText(
    [
      `error: this server is busy: ${err.running === 1 ? "1 call holds" : `${err.running} calls hold`} the API's connections${err.ahead > 0 ? ` and ${err.ahead} more wait before this one` : ""}, so this call could not start and finish within this server's bound for one call${boundS > 0 ? ` (${boundS} s left)` : ""}`,
      `hint: call again in about ${inS} s (after ${isoSecond(err.retryAt)}); fewer calls at once are answered sooner`,
    ],
    redact,
  );
}

/**
 * `research_area` as the API takes it (an area's exact name), from all or part of one:
 * the areas whose name contains it, case-insensitive. One match, or one named exactly,
 * is taken; none or several is an error that says what to call.
 */
async function researchArea(client: Client, given: string, signal: AbortSignal): Promise<string> {
  const { match, names } = await researchAreasNamed(client, given, signal);
  if (match !== undefined) return match;
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
  if (ENDPOINTS[entry.endpoint].pathId)
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

function listResult(
  entry: ToolEntry,
  items: unknown[],
  next: string | null,
  notices: Notices,
  resumeAt: (index: number) => string,
): ToolSuccess {
  const structured = { items, count: items.length, has_more: next !== null, next_cursor: next, ...notices };
  return fromLibrary(
    {
      content: [
        {
          type: "text",
          text: listText({
            tool: entry.name,
            nouns: RESOURCES[ENDPOINTS[entry.endpoint].resource].nouns,
            items,
            nextCursor: next,
            resumeAt,
            notices,
            structured,
          }),
        },
        ...linksOf(LINKED[entry.endpoint], items),
      ],
      structuredContent: structured,
    },
    notices.synced,
  );
}

function itemResult(entry: ToolEntry, data: unknown, notices: Notices): ToolSuccess {
  const structured = { data, ...notices };
  // Search: a link to each peptide profile it found.
  const found =
    entry.endpoint === "search" && data && typeof data === "object"
      ? (data as { peptides?: unknown }).peptides
      : undefined;
  return fromLibrary(
    {
      content: [
        { type: "text", text: itemText(entry.title, structured) },
        ...linksOf("peptide", Array.isArray(found) ? found : []),
      ],
      structuredContent: structured,
    },
    notices.synced,
  );
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
    progress: progressToken !== undefined,
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
