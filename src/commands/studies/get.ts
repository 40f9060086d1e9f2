/** `pep studies get <id>`: one study with each citing profile's summary. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { itemOf } from "../shared/item.js";
import type { Run } from "../types.js";
import { toStudyId } from "./study-id.js";

export const run: Run = ({ args }, ctx) =>
  itemOf(ctx, ENDPOINTS.study, "study-detail", { pathParams: { id: toStudyId(args[0] ?? "") } });
