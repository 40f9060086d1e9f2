/** `pep peptides regulatory <slug>...`: FDA and WADA status, availability, development stage. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { itemOf } from "../../api/item.js";
import { requireArg } from "../../api/path-args.js";
import type { Run } from "../../core/command.js";

export const run: Run<typeof BATCH_OPTIONS> = (input, ctx) =>
  perId(ctx, input, { name: "slug", resource: "regulatory", check: (s) => requireArg(s, "slug") }, (slug) =>
    itemOf(ctx, ENDPOINTS.regulatoryStatus, "regulatory", { pathParams: { slug: requireArg(slug, "slug") } }),
  );
