/** `pep peptides studies <slug>`: the sources a profile cites (the API returns at most 12). */
import { ENDPOINTS } from "../../api/endpoints.js";
import { LIMITS } from "../../api/enums.js";
import { requireArg } from "../shared/item.js";
import { runList } from "../shared/list.js";
import type { ListRun } from "../types.js";

export const run: ListRun = ({ args, opts }, ctx) => {
  const slug = requireArg(args[0], "slug");
  return runList(ctx, opts, {
    endpoint: ENDPOINTS.peptideStudies,
    resource: "study",
    defaultLimit: LIMITS.peptideStudiesMax,
    pathParams: { slug },
  });
};
