/** `pep studies get <id>...`: one study with each citing profile's summary; `--web` opens its page. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { itemOf } from "../../api/item.js";
import type { Run } from "../../core/command.js";
import { toStudyId } from "../../api/study-id.js";
import { pageIfAsked, type WEB_OPTIONS } from "../shared/web-options.js";

export const run: Run<readonly [...typeof BATCH_OPTIONS, ...typeof WEB_OPTIONS]> = async (input, ctx) => {
  const page = await pageIfAsked(ctx, "study", input);
  if (page) return page;
  return perId(ctx, input, { name: "id", resource: "study-detail", check: (s) => toStudyId(s) }, async (id) =>
    itemOf(ctx, ENDPOINTS.study, "study-detail", { pathParams: { id: toStudyId(id) } }),
  );
};
