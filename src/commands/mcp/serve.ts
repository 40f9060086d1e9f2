/**
 * `pep mcp`: loads the server (and with it the protocol library) only now, serves until
 * the client closes standard input or the run is interrupted, and leaves nothing for
 * the output layer: standard output belongs to the protocol. With --http it serves
 * Streamable HTTP instead, until interrupted.
 */
import type { CommandModule } from "../../core/command.js";
import { InterruptedError, UsageError } from "../../core/errors.js";

export const run: CommandModule["run"] = async (input, ctx) => {
  const { maxWaitOf, groupsOf } = await import("../../mcp/listing.js");
  const opts = input.opts as Record<string, unknown>;
  const maxWait = maxWaitOf(opts.maxWait, ctx.io.env);
  const groups = groupsOf(opts.tools, ctx.io.env);
  // Settings it could not take as given are said, not refused: the server starts (listing.ts).
  const notes = [groups.note, maxWait.note].filter((n): n is string => n !== undefined);
  const options = { maxWaitMs: maxWait.value, groups: groups.value, notes };
  if (opts.http === true) {
    const { serveHttp, httpOptionsOf } = await import("../../mcp/http.js");
    await serveHttp(ctx, options, await httpOptionsOf(opts, ctx));
  } else {
    const httpOnly = (["port", "host", "socket", "sessionIdle", "maxSessions"] as const).filter(
      (k) => opts[k] !== undefined,
    );
    if (httpOnly.length > 0)
      throw new UsageError(
        "--port, --host, --socket, --session-idle and --max-sessions are for pep mcp --http; over stdio there is nothing to listen on",
      );
    // Typed at a terminal, it would seem to hang: say what it waits for (stderr only).
    if (ctx.io.stdinIsTTY)
      ctx.notice(
        'pep mcp: waiting for an MCP client on standard input; a client starts it itself, set up with command "pep" and args ["mcp"] (docs/mcp.md). Ctrl-C stops it.',
      );
    // Initialize is answered before the protocol library is loaded (mcp/early.ts): by
    // bin/pep.js's quick start, before the program was (cli/mcp-early.ts), or here.
    const { answerEarly, takeHanded } = await import("../../mcp/early.js");
    const handed = takeHanded();
    const early = handed
      ? { setup: await (await import("../../mcp/setup.js")).inspectSetup(ctx, notes), ...handed }
      : await untilInterrupted(ctx.io.signal, answerEarly(ctx, options.groups, notes)).catch((err: unknown) => {
          // Stop reading, or the terminal's standard input would keep the process alive.
          ctx.io.stdin.pause();
          throw err;
        });
    const { serve } = await import("../../mcp/server.js");
    await serve(ctx, options, early);
  }
  return { kind: "none" };
};

/**
 * `work`, unless the run is interrupted first: waiting for a client's first line (a
 * terminal on standard input may never send one), the first Ctrl-C ends the run.
 */
function untilInterrupted<T>(signal: AbortSignal, work: Promise<T>): Promise<T> {
  if (signal.aborted) return Promise.reject(new InterruptedError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new InterruptedError());
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
