/**
 * `pep vendors list`: the vendor directory with every filter of spec 4.5, checked before
 * any request. Vendors keep the API's order (which never depends on commissions) unless
 * `--sort` asks for another; nothing is re-sorted here.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { LIMITS } from "../../api/enums.js";
import { explained, explainedList } from "../auth/explain.js";
import { checkParams, fieldsParam, listOf, pagingFrom } from "../common.js";
import type { CommandModule } from "../types.js";
import { minRating, upperCode } from "./params.js";

export const run: CommandModule["run"] = async (input, ctx) => {
  const o = input.opts;
  const endpoint = ENDPOINTS.vendors;
  const paging = pagingFrom(o, LIMITS.pageDefault, LIMITS.pageMax);
  const fields = fieldsParam(ctx);
  const query = checkParams(endpoint, {
    search: o.search,
    country: upperCode(o.country),
    ships_to: upperCode(o.shipsTo),
    product_category: o.productCategory,
    min_rating: minRating(o.minRating),
    peptide: o.peptide,
    sort: o.sort,
    fields,
  });
  const list = await explained(ctx, endpoint, () => listOf(ctx, endpoint, "vendor", { query, paging, fields: fields?.split(",") }));
  return explainedList(list, ctx, endpoint);
};
