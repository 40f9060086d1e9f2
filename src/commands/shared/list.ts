/**
 * A list command in one call: `runList(ctx, opts, spec)` checks the paging flags
 * (docs/cli.md#lists-and-pagination), builds the query from the definition's options, and returns the
 * streamed list. Every list command (peptides, studies, research, vendors, prices,
 * products) goes through it.
 */
import { expandPath, type Endpoint } from "../../api/endpoints.js";
import type { Context } from "../../core/command-context.js";
import { UsageError } from "../../core/errors.js";
import type { Query } from "../../http/client-types.js";
import type { ListResult, OptionDef } from "../../core/command.js";
import { explained, explainedList } from "../../api/auth-hints.js";
import { checkParams, fieldColumns, fieldsParam, queryFromOptions } from "../../api/query.js";

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
    throw new UsageError(
      `${flag} must be a whole number ${max !== undefined ? `from 1 to ${max}` : "of 1 or more"} (got "${String(value)}")`,
    );
  }
  return n;
}

/**
 * `--limit --all --page-size --cursor` (docs/cli.md#lists-and-pagination), with the
 * endpoint's default `limit` and page-size bound (its descriptor's).
 */
export function pagingFrom(
  opts: Record<string, unknown>,
  endpoint: Pick<Endpoint, "defaultLimit" | "maxLimit">,
): Paging {
  const defaultLimit = endpoint.defaultLimit;
  const maxPage = endpoint.maxLimit;
  const all = opts.all === true;
  if (all && opts.limit !== undefined)
    throw new UsageError("--all and --limit cannot be used together: --all prints every item");
  const limit = all ? undefined : opts.limit !== undefined ? positiveInt(opts.limit, "--limit") : defaultLimit;
  const pageSize =
    opts.pageSize !== undefined
      ? positiveInt(opts.pageSize, "--page-size", maxPage)
      : limit === undefined
        ? maxPage
        : Math.min(limit, maxPage);
  let cursor: string | undefined;
  if (opts.cursor !== undefined) {
    cursor = String(opts.cursor);
    if (cursor.trim() === "") throw new UsageError("--cursor must not be empty");
  }
  return { limit, pageSize, cursor };
}

/** Parameters the list flags fill: a `--param` pair naming one is refused, naming the flag. */
const LIST_PARAMS: Record<string, string> = { limit: "--limit (or --page-size)", cursor: "--cursor" };

/**
 * The checked query of a list command: its option values, `--fields` when the endpoint
 * takes it, and the paging values, all judged by the endpoint's schema before any
 * request. `limit` and `cursor` are checked here but left out of the result: the
 * paginator sends them page by page.
 */
export function listQuery(
  ctx: Context,
  endpoint: Endpoint,
  opts: Record<string, unknown>,
  options: readonly OptionDef[],
  paging: Paging,
  withFields: boolean,
): { query: Query; fields: string[] | undefined } {
  const { raw, flags } = queryFromOptions(opts, options, LIST_PARAMS);
  const fields = withFields ? fieldsParam(ctx) : undefined;
  // Nothing typed but the page size, which pagingFrom has held to the same bounds as every
  // list endpoint's schema (test/commands/list-query.test.ts): the schema would judge
  // only pep's own numbers, and building it costs a bare list run about 4 ms.
  if (Object.keys(raw).length === 0 && fields === undefined && paging.cursor === undefined)
    return { query: {}, fields: fieldColumns(ctx) };
  const checked = checkParams(
    endpoint,
    { ...raw, fields, limit: paging.pageSize, cursor: paging.cursor },
    { ...flags, fields: "--fields", limit: "--page-size", cursor: "--cursor" },
  );
  // Said once every value has passed the checks, just before the first request.
  const { limit: _limit, cursor: _cursor, ...query } = checked;
  return { query, fields: fieldColumns(ctx) };
}

/** A streamed list over every page the paging asks for. */
export async function listOf(
  ctx: Context,
  endpoint: Endpoint,
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
    resource: endpoint.resource,
    items: pages,
    meta: () => pages.state.meta,
    nextCursor: () => pages.state.nextCursor,
    pageAt: () => ({ cursor: pages.state.currentCursor, before: pages.state.pageStart }),
    progress: () => ({ pages: pages.state.pages, items: pages.state.items }),
    pageEnded: () => pages.state.pageLeft === 0,
    pageCursor: () => pages.state.currentCursor,
    fields: options.fields,
    filters: Object.keys(options.query ?? {}).filter((k) => k !== "fields" && k !== "sort"),
  };
}

export interface ListSpec {
  /**
   * The endpoint's descriptor: its resource, the options whose `param` fills the query,
   * its default `limit` and page-size bound, and whether it takes `fields` (then
   * `--fields` is sent as well as used as columns).
   */
  endpoint: Endpoint;
  pathParams?: Record<string, string>;
}

/**
 * A list command: paging, checked query, then the streamed list. A keyed endpoint's
 * 401/403, met at the first page or later, is explained (which key, which scope).
 */
export async function runList(ctx: Context, opts: Record<string, unknown>, spec: ListSpec): Promise<ListResult> {
  const { endpoint } = spec;
  const paging = pagingFrom(opts, endpoint);
  const withFields = endpoint.fields !== undefined;
  const { query, fields } = listQuery(ctx, endpoint, opts, endpoint.options, paging, withFields);
  const list = () => listOf(ctx, endpoint, { query, paging, fields, pathParams: spec.pathParams });
  if (!endpoint.keyRequired) return list();
  return explainedList(await explained(ctx, endpoint, list), ctx, endpoint);
}
