/** `pep research-areas`: studied topics, most-studied first, with their peptides. */
import { ENDPOINTS } from "../../api/endpoints.js";
import type { ListRun } from "../../core/command.js";
import type { AREA_OPTIONS } from "../../api/params/research.js";
import { runList } from "../shared/list.js";

export const run: ListRun<typeof AREA_OPTIONS> = ({ opts }, ctx) =>
  runList(ctx, opts, { endpoint: ENDPOINTS.researchAreas });
