/**
 * `pep peptides studies <slug>...`: the sources a profile cites (the API returns at most
 * 12). With several slugs, their lists one after another, in the order of the slugs.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { requireArg } from "../../api/path-args.js";
import { runList } from "../shared/list.js";
import type { ListRun } from "../../core/command.js";

export const run: ListRun<typeof BATCH_OPTIONS> = (input, ctx) =>
  perId(ctx, input, { name: "slug", resource: "cited-study", check: (s) => requireArg(s, "slug") }, (slug) =>
    runList(ctx, input.opts, {
      endpoint: ENDPOINTS.peptideStudies,
      pathParams: { slug: requireArg(slug, "slug") },
    }),
  );
