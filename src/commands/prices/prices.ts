/**
 * `pep prices`: current offers, in the API's order (commissions never change it). Each
 * price is the API's decimal string with its own currency, passed on untouched: never
 * parsed, converted or summed across currencies. The affiliate disclosure the API sends
 * in `meta` is printed by the output layer with every format.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { runList } from "../shared/list.js";
import type { ListRun } from "../../core/command.js";
import type { PRICE_OPTIONS } from "../../api/params/prices.js";

export const run: ListRun<typeof PRICE_OPTIONS> = ({ opts }, ctx) => runList(ctx, opts, { endpoint: ENDPOINTS.prices });
