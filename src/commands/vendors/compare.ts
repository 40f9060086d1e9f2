/** `pep vendors compare <id> <id> [<id> <id>]`: two to four vendors side by side (`ids=a,b`). */
import { ENDPOINTS } from "../../api/endpoints.js";
import { explained } from "../../api/auth-hints.js";
import { itemOf } from "../../api/item.js";
import { checkParams, queryFromOptions } from "../../api/query.js";
import type { Run } from "../../core/command.js";
import { SHIPS_TO_OPTIONS } from "../../api/params/vendor-options.js";
import { compareIds } from "../../api/params/vendor-values.js";

export const run: Run<typeof SHIPS_TO_OPTIONS> = async (input, ctx) => {
  const endpoint = ENDPOINTS.vendorCompare;
  const ids = compareIds(input.args);
  const { raw, flags } = queryFromOptions(input.opts, SHIPS_TO_OPTIONS);
  const query = checkParams(endpoint, { ids: ids.join(","), ...raw }, { ...flags, ids: "<ids>" });
  return explained(ctx, endpoint, () => itemOf(ctx, endpoint, "vendor-compare", { query }));
};
