/**
 * `pep api <path>`: any GET, printed as the raw JSON body (like `gh api`), or with
 * `--paginate` the `data` items of every page as NDJSON. The key goes only to the
 * configured base URL's origin (the HTTP client enforces it); a full URL elsewhere is
 * fetched without it, and said so.
 */
import { LIMITS } from "../../api/enums.js";
import { UsageError } from "../../core/errors.js";
import type { Client } from "../../http/client-types.js";
import { explained, explainAuthFailure } from "../../api/auth-hints.js";
import type { RawResult, Run } from "../../core/command.js";
import type { API_OPTIONS } from "./api-options.js";
import { asQuery, endpointOf, parseTarget, relativePath } from "./target.js";

/** `-F limit=…` and `-F cursor=…` steer the pagination instead of being overwritten by it. */
function pagingOf(query: Record<string, string | string[]>): {
  pageSize: number | undefined;
  cursor: string | undefined;
} {
  const one = (name: string): string | undefined => {
    const v = Object.hasOwn(query, name) ? query[name] : undefined;
    delete query[name];
    if (Array.isArray(v)) throw new UsageError(`${name} is given more than once; --paginate needs one value`);
    return v;
  };
  const limit = one("limit");
  const cursor = one("cursor");
  let pageSize: number | undefined;
  if (limit !== undefined) {
    pageSize = Number(limit);
    if (!/^\d+$/.test(limit) || pageSize < 1 || pageSize > LIMITS.pageMax) {
      throw new UsageError(
        `limit must be a whole number from 1 to ${LIMITS.pageMax} with --paginate (it is the page size; got "${limit}")`,
      );
    }
  }
  if (cursor !== undefined && cursor.trim() === "") throw new UsageError("cursor must not be empty");
  return { pageSize, cursor };
}

export const run: Run<typeof API_OPTIONS> = async (input, ctx) => {
  const target = parseTarget(input.args[0], input.opts.field);
  const paginate = input.opts.paginate === true;
  const paging = paginate ? pagingOf(target.query) : undefined;
  const query = asQuery(target.query);
  const cfg = await ctx.config();

  let client: Client;
  let path = target.path;
  let sameOrigin = true;
  const endpoint = target.absolute
    ? undefined
    : endpointOf(relativePath(target.path, cfg.baseUrl ?? "http://localhost/v1"));
  if (target.absolute) {
    const origin = new URL(target.path).origin;
    // A full URL works without a configured base; it is then fetched with no key at all.
    client = cfg.baseUrl ? await ctx.client() : await ctx.client(undefined, { baseUrl: origin, apiKey: undefined });
    sameOrigin = cfg.baseUrl !== undefined && new URL(client.baseUrl).origin === origin;
    if (!sameOrigin && cfg.apiKey)
      ctx.notice(`note: ${origin} is not the configured API (${client.baseUrl}); the key is not sent there`);
  } else {
    client = await ctx.client(endpoint);
    path = relativePath(target.path, client.baseUrl);
  }

  const explain = (err: unknown) => (sameOrigin ? explainAuthFailure(err, ctx, endpoint) : Promise.resolve(err));
  if (paginate) {
    const pages = client.paginate(path, {
      query,
      pageSize: paging!.pageSize,
      cursor: paging!.cursor,
      signal: ctx.io.signal,
    });
    async function* items(): AsyncGenerator<unknown, void, undefined> {
      try {
        yield* pages;
      } catch (err) {
        throw await explain(err);
      }
    }
    const result: RawResult = {
      kind: "raw",
      items: items(),
      meta: () => pages.state.meta,
      pageEnded: () => pages.state.pageLeft === 0,
    };
    return result;
  }
  const res = await (sameOrigin
    ? explained(ctx, endpoint, () => client.request(path, { query, signal: ctx.io.signal }))
    : client.request(path, { query, signal: ctx.io.signal }));
  return { kind: "raw", body: res.body, text: res.text, meta: () => res.meta };
};
