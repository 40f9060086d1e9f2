/**
 * `pep vendors shipping <id>`: destinations, exclusions, methods, free-shipping and
 * returns facts, each with its source. With `--ships-to` each result says whether the
 * vendor ships there; `unknown` stays unknown (never "ships").
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { explained } from "../auth/explain.js";
import { checkParams, itemOf, requireArg } from "../common.js";
import type { CommandModule } from "../types.js";
import { upperCode } from "./params.js";

export const run: CommandModule["run"] = async (input, ctx) => {
  const endpoint = ENDPOINTS.vendorShipping;
  const id = requireArg(input.args[0], "id");
  const query = checkParams(endpoint, { ships_to: upperCode(input.opts.shipsTo) });
  return explained(ctx, endpoint, () => itemOf(ctx, endpoint, "vendor-shipping", { query, pathParams: { id } }));
};
