/** `pep peptides get <slug>...`: the full research profile (aliases resolve to it). */
import { ENDPOINTS } from "../../api/endpoints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { itemOf, requireArg } from "../../api/item.js";
import type { Run } from "../../core/command.js";

export const run: Run<typeof BATCH_OPTIONS> = (input, ctx) =>
  perId(ctx, input, { name: "slug", resource: "peptide-profile", check: (s) => requireArg(s, "slug") }, (slug) =>
    itemOf(ctx, ENDPOINTS.peptide, "peptide-profile", { pathParams: { slug: requireArg(slug, "slug") } }),
  );
