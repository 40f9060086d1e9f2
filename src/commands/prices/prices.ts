/**
 * `pep prices`: current offers, in the API's order (commissions never change it). Each
 * price is the API's decimal string with its own currency, passed on untouched: never
 * parsed, converted or summed across currencies. The affiliate disclosure the API sends
 * in `meta` is printed by the output layer with every format.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { LIMITS } from "../../api/enums.js";
import { explained, explainedList } from "../auth/explain.js";
import { listOf, pagingFrom } from "../common.js";
import type { CommandModule } from "../types.js";
import { columns, offerQuery } from "./query.js";

export const run: CommandModule["run"] = async (input, ctx) => {
  const endpoint = ENDPOINTS.prices;
  const paging = pagingFrom(input.opts, LIMITS.pageDefault, LIMITS.pageMax);
  const query = offerQuery(endpoint, input.opts, true);
  const list = await explained(ctx, endpoint, () => listOf(ctx, endpoint, "offer", { query, paging, fields: columns(ctx.globals.fields) }));
  return explainedList(list, ctx, endpoint);
};
