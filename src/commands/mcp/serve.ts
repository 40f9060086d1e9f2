/**
 * `pep mcp`: loads the server (and with it the protocol library) only now, serves until
 * the client closes standard input or the run is interrupted, and leaves nothing for
 * the output layer: standard output belongs to the protocol.
 */
import type { CommandModule } from "../../core/command.js";

export const run: CommandModule["run"] = async (input, ctx) => {
  const { serve, maxWaitOf, groupsOf } = await import("../../mcp/server.js");
  const opts = input.opts as Record<string, unknown>;
  await serve(ctx, {
    maxWaitMs: maxWaitOf(opts.maxWait, ctx.io.env),
    groups: groupsOf(opts.tools, ctx.io.env),
  });
  return { kind: "none" };
};
