/**
 * `pep mcp`: loads the server (and with it the protocol library) only now, serves until
 * the client closes standard input or the run is interrupted, and leaves nothing for
 * the output layer: standard output belongs to the protocol.
 */
import type { CommandModule } from "../../core/command.js";

export const run: CommandModule["run"] = async (_input, ctx) => {
  const { serve } = await import("../../mcp/server.js");
  await serve(ctx);
  return { kind: "none" };
};
