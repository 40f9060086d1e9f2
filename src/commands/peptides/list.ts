/** `pep peptides list`: GET /peptides with its filters and `--fields`. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { runList } from "../shared/list.js";
import type { ListRun } from "../../core/command.js";
import type { PEPTIDE_LIST_OPTIONS } from "../../api/params/peptide-options.js";

export const run: ListRun<typeof PEPTIDE_LIST_OPTIONS> = ({ opts }, ctx) =>
  runList(ctx, opts, { endpoint: ENDPOINTS.peptides });
