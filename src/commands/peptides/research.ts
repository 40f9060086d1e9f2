/** `pep peptides research <slug>`: the research summary, human and preclinical evidence apart. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { itemOf, requireArg } from "../shared/item.js";
import type { Run } from "../types.js";

export const run: Run = ({ args }, ctx) =>
  itemOf(ctx, ENDPOINTS.peptideResearch, "research", { pathParams: { slug: requireArg(args[0], "slug") } });
