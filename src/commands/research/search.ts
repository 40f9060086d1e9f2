/**
 * `pep search <query...>`: one request across profiles and educational content. Not a
 * paginated list: the API answers with one result object, at most 25 hits.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { itemOf } from "../../api/item.js";
import { commandQuery } from "../../api/query.js";
import type { Run } from "../../core/command.js";
import { SEARCH_OPTIONS } from "../../api/params/research-options.js";

/** The words of the query joined with spaces, so `pep search growth factor` needs no quotes. */
export function searchText(args: readonly string[]): string {
  return args.join(" ").trim();
}

export const run: Run<typeof SEARCH_OPTIONS> = ({ args, opts }, ctx) => {
  const endpoint = ENDPOINTS.search;
  // The descriptor's default is sent when --limit is not given, so help and the answer agree.
  const query = commandQuery(
    endpoint,
    { ...opts, limit: opts.limit ?? String(endpoint.defaultLimit) },
    SEARCH_OPTIONS,
    {
      raw: { q: searchText(args) },
      flags: { q: "<query>" },
    },
  );
  return itemOf(ctx, endpoint, "search", { query });
};
