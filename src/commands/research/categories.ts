/** `pep categories`: every research category with the profiles in it. */
import { ENDPOINTS } from "../../api/endpoints.js";
import type { ListRun } from "../../core/command.js";
import { runList } from "../shared/list.js";

export const run: ListRun = ({ opts }, ctx) => runList(ctx, opts, { endpoint: ENDPOINTS.categories });
