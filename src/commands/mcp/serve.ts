/**
 * `pep mcp`: loads the server (and with it the protocol library) only now, serves until
 * the client closes standard input or the run is interrupted, and leaves nothing for
 * the output layer: standard output belongs to the protocol.
 */
import { UsageError } from "../../errors.js";
import type { CommandModule } from "../types.js";

export const run: CommandModule["run"] = async (_input, ctx) => {
  if (ctx.globals.apiKeyFile?.trim() === "-") {
    throw new UsageError("--api-key-file - cannot be used with pep mcp: standard input carries the protocol", {
      hints: ["Give the key in a file (--api-key-file <path>), PEP_API_KEY or the profile (`pep auth login`)."],
    });
  }
  if (ctx.globals.file !== undefined) throw new UsageError("--file cannot be used with pep mcp: results go to the client over standard output");
  const { serve } = await import("../../mcp/server.js");
  await serve(ctx);
  return { kind: "none" };
};
