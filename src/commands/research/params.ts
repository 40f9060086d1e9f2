/**
 * Flag values -> API query parameters, driven by each option definition's `param`, so
 * the flag a user typed and the parameter sent are written down once (in the
 * definition) and every message about a bad value names the flag.
 */
import type { Endpoint } from "../../api/endpoints.js";
import type { Context } from "../../context.js";
import type { Query } from "../../http/types.js";
import { checkParams, fieldsParam, listOf, pagingFrom, type Paging } from "../common.js";
import type { ListResult, OptionDef, Resource } from "../types.js";

/** `--evidence-level <level>` -> `evidenceLevel`, the key commander gives the value under. */
export function optionKey(flags: string): string {
  const long = /--([a-z0-9][a-z0-9-]*)/i.exec(flags);
  if (!long) throw new Error(`option "${flags}" has no long flag`);
  return long[1]!.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** `--evidence-level <level>` -> `--evidence-level` */
export function longFlag(flags: string): string {
  const long = /--[a-z0-9][a-z0-9-]*/i.exec(flags);
  if (!long) throw new Error(`option "${flags}" has no long flag`);
  return long[0];
}

export interface MappedQuery {
  /** Parameter -> value as typed (unchecked; `checkParams` is the judge). */
  raw: Record<string, unknown>;
  /** Parameter -> the flag that fills it, for messages. */
  flags: Record<string, string>;
}

/** The query parameters filled by the options that carry a `param`. */
export function queryFromOptions(opts: Record<string, unknown>, options: readonly OptionDef[]): MappedQuery {
  const raw: Record<string, unknown> = {};
  const flags: Record<string, string> = {};
  for (const o of options) {
    if (!o.param) continue;
    flags[o.param] = longFlag(o.flags);
    const value = opts[optionKey(o.flags)];
    if (value !== undefined) raw[o.param] = value;
  }
  return { raw, flags };
}

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
  const { raw, flags } = queryFromOptions(opts, options);
  const fields = withFields ? fieldsParam(ctx) : undefined;
  const checked = checkParams(
    endpoint,
    { ...raw, fields, limit: paging.pageSize, cursor: paging.cursor },
    { ...flags, fields: "--fields", limit: "--page-size", cursor: "--cursor" },
  );
  const { limit: _limit, cursor: _cursor, ...query } = checked;
  return { query, fields: fields?.split(",") };
}

/** A list command: paging, checked query, then the streamed list. */
export async function runList(
  ctx: Context,
  opts: Record<string, unknown>,
  spec: {
    endpoint: Endpoint;
    resource: Resource;
    options?: readonly OptionDef[];
    defaultLimit?: number;
    pathParams?: Record<string, string>;
    fields?: boolean;
  },
): Promise<ListResult> {
  const paging = pagingFrom(opts, spec.defaultLimit);
  const { query, fields } = listQuery(ctx, spec.endpoint, opts, spec.options ?? [], paging, spec.fields ?? false);
  return listOf(ctx, spec.endpoint, spec.resource, { query, paging, fields, pathParams: spec.pathParams });
}
