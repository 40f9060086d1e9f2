/**
 * `pep vendors shipping <id>...`: destinations, exclusions, methods, free-shipping and
 * returns facts, each with its source. With `--ships-to` each result says whether the
 * vendor ships there; `unknown` stays unknown (never "ships").
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { explained } from "../../api/auth-hints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { itemOf } from "../../api/item.js";
import { requireArg } from "../../api/path-args.js";
import { commandQuery } from "../../api/query.js";
import type { Run } from "../../core/command.js";
import { SHIPS_TO_OPTIONS } from "../../api/params/vendors.js";

export const run: Run<readonly [...typeof SHIPS_TO_OPTIONS, ...typeof BATCH_OPTIONS]> = async (input, ctx) => {
  const endpoint = ENDPOINTS.vendorShipping;
  const query = commandQuery(endpoint, input.opts, SHIPS_TO_OPTIONS);
  return perId(ctx, input, { name: "id", resource: "vendor-shipping", check: (s) => requireArg(s, "id") }, (id) =>
    explained(ctx, endpoint, () =>
      itemOf(ctx, endpoint, "vendor-shipping", { query, pathParams: { id: requireArg(id, "id") } }),
    ),
  );
};
