/**
 * `pep products`: products (compound x form) with price ranges per currency. The path
 * `/products` is assumed (spec 4.6 does not show it); ranges are shown per currency as
 * received, never merged into one.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { LIMITS } from "../../api/enums.js";
import { explained, explainedList } from "../auth/explain.js";
import { listOf, pagingFrom } from "../common.js";
import type { CommandModule } from "../types.js";
import { columns, offerQuery } from "./query.js";

export const run: CommandModule["run"] = async (input, ctx) => {
  const endpoint = ENDPOINTS.products;
  const paging = pagingFrom(input.opts, LIMITS.pageDefault, LIMITS.pageMax);
  const query = offerQuery(endpoint, input.opts, false);
  const list = await explained(ctx, endpoint, () => listOf(ctx, endpoint, "product", { query, paging, fields: columns(ctx.globals.fields) }));
  return explainedList(list, ctx, endpoint);
};
