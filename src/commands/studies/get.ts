/** `pep studies get <id>...`: one study with each citing profile's summary; `--web` opens its page. */
import { ENDPOINTS } from "../../api/endpoints.js";
import { type BATCH_OPTIONS, perId } from "../shared/batch.js";
import { itemOf } from "../../api/item.js";
import type { Run } from "../../core/command.js";
import { toStudyId } from "../../api/study-id.js";
import { type WEB_OPTIONS, webAsked } from "../shared/web-options.js";

export const run: Run<readonly [...typeof BATCH_OPTIONS, ...typeof WEB_OPTIONS]> = async (input, ctx) => {
  if (webAsked(input.opts)) {
    const { oneIdForWeb, openRecordPage } = await import("../shared/web.js");
    return openRecordPage(ctx, "study", oneIdForWeb(input.args), { browser: input.opts.browser });
  }
  return perId(ctx, input, { name: "id", resource: "study-detail", check: (s) => toStudyId(s) }, async (id) =>
    itemOf(ctx, ENDPOINTS.study, "study-detail", { pathParams: { id: toStudyId(id) } }),
  );
};
