/**
 * Completions (`completion/complete`) of the resources' variables and the prompts'
 * arguments: peptide slugs, study ids and research areas from the API, categories,
 * destinations and product forms from pep's lists. Each answer is sorted by relevance
 * (the value itself, then values starting with what was typed, then those with a word
 * starting with it, then those containing it, then the API's own fuzzy matches in its
 * order) and says the truth about the rest: `total` when every match is known, and
 * `hasMore` when more exist than were sent (at most 100, the protocol's bound).
 */
import { CompleteRequestSchema, ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ENDPOINTS } from "../api/endpoints.js";
import { CATEGORIES, LIMITS, PRODUCT_FORM_EXAMPLES } from "../api/enums.js";
import { keyEnding } from "../core/key-display.js";
import type { Context } from "../core/command-context.js";
import type { Query } from "../http/client-types.js";
import { cleanDeep, redactor } from "./result.js";
import type { Setup } from "./setup.js";

/** Most values an answer carries (the protocol's bound). */
const MAX_VALUES = 100;

/** Matches of what was typed: all of them known (`complete`), or the first of more. */
export interface Matches {
  values: string[];
  complete: boolean;
}

/** How well `v` matches `typed`: 0 itself (or nothing typed), 1 prefix, 2 a word's prefix, 3 inside, 4 not. */
function rankOf(v: string, typed: string): number {
  const t = typed.trim().toLowerCase();
  const l = v.toLowerCase();
  if (t === "" || l === t) return 0;
  if (l.startsWith(t)) return 1;
  if (l.split(/[^a-z0-9]+/).some((w) => w.startsWith(t))) return 2;
  return l.includes(t) ? 3 : 4;
}

/** `values` by relevance to `typed`; the order among equals is kept (the API's ranking). */
export function byRelevance(values: readonly string[], typed: string): string[] {
  return [...new Set(values)]
    .map((v, i) => ({ v, i, r: rankOf(v, typed) }))
    .sort((a, b) => a.r - b.r || a.i - b.i)
    .map((x) => x.v);
}

/** Matches among a fixed list: values or one of their words starting with what was typed, all known. */
function fromList(values: readonly string[], typed: string): Matches {
  return {
    values: byRelevance(
      values.filter((v) => rankOf(v, typed) <= 2),
      typed,
    ),
    complete: true,
  };
}

export interface Completers {
  slug(typed: string): Promise<Matches>;
  studyId(typed: string): Promise<Matches>;
  researchArea(typed: string): Promise<Matches>;
}

/** One page (the most the API gives) of a list through the run's client; none when it fails. */
async function page(
  ctx: Context,
  setup: Setup,
  path: string,
  query: Query,
): Promise<{ data: unknown[]; more: boolean }> {
  if (setup.problems.length > 0) return { data: [], more: false };
  try {
    const endpoint = Object.values(ENDPOINTS).find((e) => e.path === path) ?? ENDPOINTS.peptides;
    const client = await ctx.client(endpoint);
    const res = await client.request(path, {
      query: { ...query, limit: LIMITS.pageMax },
      signal: AbortSignal.timeout(10_000),
    });
    const key = setup.config?.apiKey;
    const data = cleanDeep(res.data, redactor(key, key ? keyEnding(key) : ""));
    return { data: Array.isArray(data) ? data : [], more: Boolean(res.pagination?.next_cursor) };
  } catch {
    return { data: [], more: false };
  }
}

const field = (data: unknown[], name: "id" | "name"): string[] =>
  data
    .map((x) => (x && typeof x === "object" ? (x as Record<string, unknown>)[name] : undefined))
    .filter((x): x is string => typeof x === "string");

export function completers(ctx: Context, setup: Setup): Completers {
  return {
    async slug(typed) {
      const query: Query = { fields: "id,name" };
      if (typed.trim()) query.search = typed.trim().slice(0, LIMITS.searchMaxLength);
      const { data, more } = await page(ctx, setup, ENDPOINTS.peptides.path, query);
      return { values: byRelevance(field(data, "id"), typed), complete: !more };
    },
    async studyId(typed) {
      const words = typed.trim();
      // A typed id form (pmid-9…) is matched against ids; anything else as words of the title.
      const byId = words === "" || /^(pmid|doi|nct)-/i.test(words);
      const query: Query = { fields: "id,title" };
      if (!byId) query.search = words.slice(0, LIMITS.searchMaxLength);
      const { data, more } = await page(ctx, setup, ENDPOINTS.studies.path, query);
      const ids = field(data, "id");
      if (!byId) return { values: ids, complete: !more };
      const found = fromList(ids, words);
      // Ids of the first page only: when more studies exist, more ids may match.
      return { values: found.values, complete: !more };
    },
    async researchArea(typed) {
      const query: Query = {};
      if (typed.trim()) query.search = typed.trim().slice(0, LIMITS.areaSearchMaxLength);
      const { data, more } = await page(ctx, setup, ENDPOINTS.researchAreas.path, query);
      return { values: byRelevance(field(data, "name"), typed), complete: !more };
    },
  };
}

/** Destinations offered for a prompt's `destination`: the most asked-for countries and states. */
export const DESTINATIONS = ["US", "GB", "CA", "AU", "DE", "FR", "NL", "US-CA", "US-NY", "US-TX"];

type Complete = (typed: string) => Promise<Matches>;

/** What completes each resource variable and prompt argument. */
function table(c: Completers): Record<string, Record<string, Complete>> {
  const list = (values: readonly string[]) => async (typed: string) => fromList(values, typed);
  return {
    "pep://peptides/{slug}": { slug: c.slug },
    "pep://peptides/{slug}/research": { slug: c.slug },
    "pep://studies/{id}": { id: c.studyId },
    summarise_evidence: { peptide: c.slug },
    explore_research_area: { area: c.researchArea, category: list(CATEGORIES) },
    compare_vendors_for_peptide: {
      peptide: c.slug,
      destination: list(DESTINATIONS),
      form: list(PRODUCT_FORM_EXAMPLES),
    },
  };
}

/**
 * Answers `completion/complete` in place of the SDK's (which counts only the values a
 * completer returns): true totals, `hasMore`, relevance order; an unknown prompt,
 * template or argument is an invalid-params error saying which.
 */
export function registerCompletions(server: McpServer, c: Completers, prompts: ReadonlySet<string>): void {
  const by = table(c);
  server.server.setRequestHandler(CompleteRequestSchema, async (req) => {
    const { ref, argument } = req.params;
    const key = ref.type === "ref/prompt" ? ref.name : ref.uri;
    const known = ref.type === "ref/prompt" ? prompts.has(key) && by[key] : by[key];
    if (!known)
      throw new McpError(
        ErrorCode.InvalidParams,
        ref.type === "ref/prompt"
          ? `no prompt named ${JSON.stringify(key)}`
          : `no resource template ${JSON.stringify(key)}`,
      );
    const complete = known[argument.name];
    if (!complete)
      throw new McpError(
        ErrorCode.InvalidParams,
        `${JSON.stringify(key)} has no argument ${JSON.stringify(argument.name)} (it has: ${Object.keys(known).join(", ")})`,
      );
    const found = await complete(argument.value);
    const values = found.values.slice(0, MAX_VALUES);
    const hasMore = !found.complete || found.values.length > values.length;
    return {
      completion: { values, ...(found.complete ? { total: found.values.length } : {}), hasMore },
    };
  });
}
