/** `pep studies get <id>...`: one study with each citing profile's summary. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { itemOf } from "../../api/item.js";
import type { Run } from "../../core/command.js";
import { toStudyId } from "../../api/study-id.js";

export const run: Run<typeof BATCH_OPTIONS> = (input, ctx) =>
  perId(ctx, input, { name: "id", resource: "study-detail", check: (s) => toStudyId(s) }, async (id) =>
    itemOf(ctx, ENDPOINTS.study, "study-detail", { pathParams: { id: toStudyId(id) } }),
  );
