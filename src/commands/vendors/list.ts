/**
 * `pep vendors list`: the vendor directory with every filter of `/vendors`
 * (docs/api.md#query-parameters), checked before any request. Vendors keep the API's order
 * (which never depends on commissions) unless `--sort` asks for another; nothing is
 * re-sorted here.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { runList } from "../shared/list.js";
import type { ListRun } from "../../core/command.js";
import type { VENDOR_LIST_OPTIONS } from "../../api/params/vendor-options.js";

export const run: ListRun<typeof VENDOR_LIST_OPTIONS> = ({ opts }, ctx) =>
  runList(ctx, opts, { endpoint: ENDPOINTS.vendors });
