/** `pep vendors get <id>...`: one vendor's profile (id or slug), with `--ships-to` coverage; `--web` opens its page. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { explained } from "../../api/auth-hints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { itemOf } from "../../api/item.js";
import { requireArg } from "../../api/path-args.js";
import { commandQuery } from "../../api/query.js";
import type { Run } from "../../core/command.js";
import { SHIPS_TO_OPTIONS } from "../../api/params/vendors.js";
import { pageIfAsked, type WEB_OPTIONS } from "../shared/web-options.js";

export const run: Run<readonly [...typeof SHIPS_TO_OPTIONS, ...typeof BATCH_OPTIONS, ...typeof WEB_OPTIONS]> = async (
  input,
  ctx,
) => {
  const endpoint = ENDPOINTS.vendor;
  const query = commandQuery(endpoint, input.opts, SHIPS_TO_OPTIONS);
  const page = await pageIfAsked(ctx, "vendor", input, query);
  if (page) return page;
  return perId(ctx, input, { name: "id", resource: "vendor-detail", check: (s) => requireArg(s, "id") }, (id) =>
    explained(ctx, endpoint, () =>
      itemOf(ctx, endpoint, "vendor-detail", { query, pathParams: { id: requireArg(id, "id") } }),
    ),
  );
};
