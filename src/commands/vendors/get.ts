/** `pep vendors get <id>...`: one vendor's profile (id or slug), with `--ships-to` coverage; `--web` opens its page. */
import { ENDPOINTS } from "../../api/endpoints.js";
import type { BATCH_OPTIONS } from "../shared/batch.js";
import { commandQuery } from "../../api/query.js";
import type { Run } from "../../core/command.js";
import type { SHIPS_TO_OPTIONS } from "../../api/params/vendor-options.js";
import { runGet } from "../shared/get.js";
import { pageIfAsked, type WEB_OPTIONS } from "../shared/web-options.js";

export const run: Run<readonly [...typeof SHIPS_TO_OPTIONS, ...typeof BATCH_OPTIONS, ...typeof WEB_OPTIONS]> = async (
  input,
  ctx,
) => {
  const endpoint = ENDPOINTS.vendor;
  // --ships-to is checked before anything, --web included: its page takes it too.
  const query = commandQuery(endpoint, input.opts, endpoint.options);
  return (await pageIfAsked(ctx, "vendor", input, query)) ?? runGet(ctx, input, endpoint);
};
