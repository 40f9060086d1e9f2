/** `pep peptides regulatory <slug>`: FDA and WADA status, availability, development stage. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { itemOf, requireArg } from "../shared/item.js";
import type { Run } from "../types.js";

export const run: Run = ({ args }, ctx) =>
  itemOf(ctx, ENDPOINTS.regulatoryStatus, "regulatory", { pathParams: { slug: requireArg(args[0], "slug") } });
