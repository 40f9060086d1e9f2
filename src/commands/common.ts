/**
 * What the API commands share: flag values -> query parameters checked against the
 * endpoint's schema (a bad value names the flag, exit 2, nothing sent), the list
 * options of contract section 3, and the two shapes of result (a streamed list, one item).
 */
import { checkQuery, expandPath, type Endpoint } from "../api/endpoints.js";
import { LIMITS } from "../api/enums.js";
import type { Context } from "../context.js";
import { UsageError } from "../errors.js";
import type { Query } from "../http/types.js";
import type { ItemResult, ListResult, Resource } from "./types.js";

/** `evidence_level` -> `--evidence-level`, unless a command says otherwise. */
export function flagFor(param: string, flags: Record<string, string> = {}): string {
  return flags[param] ?? `--${param.replace(/_/g, "-")}`;
}

/**
 * Checks a query against the endpoint's schema and returns it as strings for the URL.
 * `flags` maps a parameter to the flag (or argument) the user typed, for messages.
 */
export function checkParams(endpoint: Endpoint, raw: Record<string, unknown>, flags: Record<string, string> = {}): Query {
  // Null-prototype maps: a parameter named `__proto__` or `constructor` is kept as given.
  const query: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) query[k] = v;
  const checked = checkQuery(endpoint, query);
  if (!checked.ok) {
    const [first, ...rest] = checked.problems;
    const line = (p: typeof first) => `${flagFor(p!.param, flags)} ${p!.message}`;
    throw new UsageError(line(first), { hints: rest.map((p) => `also: ${line(p)}`) });
  }
  // Send what the user typed (strings), not the coerced values: `4.50` stays `4.50`.
  const out: Query = Object.create(null) as Query;
  for (const [k, v] of Object.entries(query)) out[k] = v as Query[string];
  return out;
}

export interface Paging {
  /** Most items in all; undefined with --all. */
  limit: number | undefined;
  pageSize: number;
  cursor: string | undefined;
}

function positiveInt(value: unknown, flag: string, max?: number): number {
  const s = String(value).trim();
  const n = Number(s);
  if (!/^\d+$/.test(s) || !Number.isSafeInteger(n) || n < 1 || (max !== undefined && n > max)) {
    throw new UsageError(`${flag} must be a whole number ${max !== undefined ? `from 1 to ${max}` : "of 1 or more"} (got "${String(value)}")`);
  }
  return n;
}

/** `--limit --all --page-size --cursor` (contract section 3). */
export function pagingFrom(opts: Record<string, unknown>, defaultLimit: number = LIMITS.pageDefault, maxPage: number = LIMITS.pageMax): Paging {
  const all = opts.all === true;
  if (all && opts.limit !== undefined) throw new UsageError("--all and --limit cannot be used together: --all prints every item");
  const limit = all ? undefined : opts.limit !== undefined ? positiveInt(opts.limit, "--limit") : defaultLimit;
  const pageSize =
    opts.pageSize !== undefined ? positiveInt(opts.pageSize, "--page-size", maxPage) : limit === undefined ? maxPage : Math.min(limit, maxPage);
  let cursor: string | undefined;
  if (opts.cursor !== undefined) {
    cursor = String(opts.cursor);
    if (cursor.trim() === "") throw new UsageError("--cursor must not be empty");
  }
  return { limit, pageSize, cursor };
}

/** Checks a positional argument that names a resource (slug, id). */
export function requireArg(value: string | undefined, name: string, max = LIMITS.searchMaxLength): string {
  const v = (value ?? "").trim();
  if (v === "") throw new UsageError(`<${name}> must not be empty`);
  if (v.length > max) throw new UsageError(`<${name}> must be at most ${max} characters`);
  // A path segment of "." or ".." would be resolved away by the URL: `peptides get ..` would fetch the index.
  if (v === "." || v === "..") throw new UsageError(`<${name}> must be an id, name or slug, not "${v}"`);
  return v;
}

/** A streamed list over every page the paging asks for. */
export async function listOf(
  ctx: Context,
  endpoint: Endpoint,
  resource: Resource,
  options: { query?: Query; pathParams?: Record<string, string>; paging: Paging; fields?: string[] | undefined },
): Promise<ListResult> {
  const client = await ctx.client(endpoint);
  const pages = client.paginate(expandPath(endpoint.path, options.pathParams), {
    query: options.query ?? {},
    limit: options.paging.limit,
    pageSize: options.paging.pageSize,
    cursor: options.paging.cursor,
    signal: ctx.io.signal,
  });
  return {
    kind: "list",
    resource,
    items: pages,
    meta: () => pages.state.meta,
    nextCursor: () => pages.state.nextCursor,
    progress: () => ({ pages: pages.state.pages, items: pages.state.items }),
    fields: options.fields,
  };
}

/** One object. */
export async function itemOf(
  ctx: Context,
  endpoint: Endpoint,
  resource: Resource,
  options: { query?: Query; pathParams?: Record<string, string> } = {},
): Promise<ItemResult> {
  const client = await ctx.client(endpoint);
  const res = await client.request(expandPath(endpoint.path, options.pathParams), { query: options.query ?? {}, signal: ctx.io.signal });
  return { kind: "item", resource, data: res.data, meta: res.meta };
}

/** `--fields` for endpoints that take a `fields` parameter: sent to the API and used as columns. */
export function fieldsParam(ctx: Context): string | undefined {
  const f = ctx.globals.fields;
  if (f === undefined) return undefined;
  const list = f.split(",").map((s) => s.trim()).filter(Boolean);
  if (list.length === 0) throw new UsageError("--fields must name at least one field, comma-separated");
  return list.join(",");
}
