/**
 * `pep products`: products (compound x form) with price ranges per currency. The path
 * `/products` is assumed (the service does not publish it:
 * docs/api.md#gaps-and-assumptions); ranges are shown per currency as received, never
 * merged into one.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { runList } from "../shared/list.js";
import type { ListRun } from "../../core/command.js";
import type { PRODUCT_OPTIONS } from "../../api/params/prices.js";

export const run: ListRun<typeof PRODUCT_OPTIONS> = ({ opts }, ctx) =>
  runList(ctx, opts, { endpoint: ENDPOINTS.products });
