/** `pep peptides get <slug>...`: the full research profile (aliases resolve to it); `--web` opens its page. */
import { ENDPOINTS } from "../../api/endpoints.js";
import type { BATCH_OPTIONS } from "../shared/batch.js";
import type { Run } from "../../core/command.js";
import { runGet } from "../shared/get.js";
import { pageIfAsked, type WEB_OPTIONS } from "../shared/web-options.js";

export const run: Run<readonly [...typeof BATCH_OPTIONS, ...typeof WEB_OPTIONS]> = async (input, ctx) =>
  (await pageIfAsked(ctx, "peptide", input)) ?? runGet(ctx, input, ENDPOINTS.peptide);
