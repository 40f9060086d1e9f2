/** `pep studies list`: GET /studies with its filters and `--fields`. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { runList } from "../shared/list.js";
import type { ListRun } from "../../core/command.js";
import type { STUDY_FILTER_OPTIONS } from "../../api/params/study-options.js";

export const run: ListRun<typeof STUDY_FILTER_OPTIONS> = ({ opts }, ctx) =>
  runList(ctx, opts, { endpoint: ENDPOINTS.studies });
