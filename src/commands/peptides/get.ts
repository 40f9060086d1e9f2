/** `pep peptides get <slug>`: the full research profile (aliases resolve to it). */
import { ENDPOINTS } from "../../api/endpoints.js";
import { itemOf, requireArg } from "../shared/item.js";
import type { Run } from "../types.js";

export const run: Run = ({ args }, ctx) =>
  itemOf(ctx, ENDPOINTS.peptide, "peptide-profile", { pathParams: { slug: requireArg(args[0], "slug") } });
