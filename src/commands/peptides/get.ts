/** `pep peptides get <slug>...`: the full research profile (aliases resolve to it); `--web` opens its page. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { itemOf } from "../../api/item.js";
import { requireArg } from "../../api/path-args.js";
import type { Run } from "../../core/command.js";
import { pageIfAsked, type WEB_OPTIONS } from "../shared/web-options.js";

export const run: Run<readonly [...typeof BATCH_OPTIONS, ...typeof WEB_OPTIONS]> = async (input, ctx) => {
  const page = await pageIfAsked(ctx, "peptide", input);
  if (page) return page;
  return perId(ctx, input, { name: "slug", resource: "peptide-profile", check: (s) => requireArg(s, "slug") }, (slug) =>
    itemOf(ctx, ENDPOINTS.peptide, "peptide-profile", { pathParams: { slug: requireArg(slug, "slug") } }),
  );
};
