/** `pep studies get <id>...`: one study with each citing profile's summary; `--web` opens its page. */
import { ENDPOINTS } from "../../api/endpoints.js";
import type { BATCH_OPTIONS } from "../shared/batch.js";
import type { Run } from "../../core/command.js";
import { runGet } from "../shared/get.js";
import { pageIfAsked, type WEB_OPTIONS } from "../shared/web-options.js";

/** A study id in any form people paste is turned into the API's by the descriptor (`pathId`). */
export const run: Run<readonly [...typeof BATCH_OPTIONS, ...typeof WEB_OPTIONS]> = async (input, ctx) =>
  (await pageIfAsked(ctx, "study", input)) ?? runGet(ctx, input, ENDPOINTS.study);
