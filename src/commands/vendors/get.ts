/** `pep vendors get <id>`: one vendor's profile (id or slug), with `--ships-to` coverage. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { explained } from "../auth/explain.js";
import { checkParams, itemOf, requireArg } from "../common.js";
import type { CommandModule } from "../types.js";
import { upperCode } from "./params.js";

export const run: CommandModule["run"] = async (input, ctx) => {
  const endpoint = ENDPOINTS.vendor;
  const id = requireArg(input.args[0], "id");
  const query = checkParams(endpoint, { ships_to: upperCode(input.opts.shipsTo) });
  return explained(ctx, endpoint, () => itemOf(ctx, endpoint, "vendor-detail", { query, pathParams: { id } }));
};
