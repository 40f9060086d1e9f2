/** `pep vendors compare <id> <id> [<id> <id>]`: two to four vendors side by side (`ids=a,b`). */
import { ENDPOINTS } from "../../api/endpoints.js";
import { explained } from "../auth/explain.js";
import { checkParams, itemOf } from "../common.js";
import type { CommandModule } from "../types.js";
import { compareIds, upperCode } from "./params.js";

export const run: CommandModule["run"] = async (input, ctx) => {
  const endpoint = ENDPOINTS.vendorCompare;
  const ids = compareIds(input.args);
  const query = checkParams(endpoint, { ids: ids.join(","), ships_to: upperCode(input.opts.shipsTo) }, { ids: "<ids>" });
  return explained(ctx, endpoint, () => itemOf(ctx, endpoint, "vendor-compare", { query }));
};
