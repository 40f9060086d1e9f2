/** `pep peptides research <slug>...`: the research summary, human and preclinical evidence apart. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { itemOf } from "../../api/item.js";
import { requireArg } from "../../api/path-args.js";
import type { Run } from "../../core/command.js";

export const run: Run<typeof BATCH_OPTIONS> = (input, ctx) =>
  perId(ctx, input, { name: "slug", resource: "research", check: (s) => requireArg(s, "slug") }, (slug) =>
    itemOf(ctx, ENDPOINTS.peptideResearch, "research", { pathParams: { slug: requireArg(slug, "slug") } }),
  );
