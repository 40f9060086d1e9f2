/**
 * `pep sandbox`: starts the server, prints where it is and its keys, and serves until
 * Ctrl-C. A long-running server's banner is its output, so it goes to stdout.
 */
import { UsageError } from "../../core/errors.js";
import type { Run } from "../../core/command.js";
import type { SANDBOX_OPTIONS } from "./options.js";
import { parseSandboxFlags } from "./options.js";

export const run: Run<typeof SANDBOX_OPTIONS> = async (input, ctx) => {
  const flags = parseSandboxFlags(input.opts);
  const { startSandbox } = await import("../../sandbox/index.js");
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  try {
    sandbox = await startSandbox({
      port: flags.port,
      host: flags.host,
      seed: flags.seed,
      scale: flags.scale,
      rateLimit: flags.rateLimit,
      latencyMs: flags.latencyMs,
      bandwidthKBps: flags.bandwidthKBps,
      failRate: flags.failRate,
      dbDown: flags.dbDown,
    });
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE")
      throw new UsageError(`--port ${flags.port} is in use; choose another, or --port 0 for any free port`);
    if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND")
      throw new UsageError(`--host ${flags.host} is not an address of this machine`);
    throw e;
  }
  ctx.onCleanup(() => sandbox.close());
  const lines = [
    `pep sandbox: synthetic data, not real research (seed ${flags.seed}, scale ${flags.scale})`,
    `base URL: ${sandbox.baseUrl}`,
    `keys: ${sandbox.keys.full} (every scope), ${sandbox.keys.research} (research:read, studies:read), ${sandbox.keys.vendors} (vendors:read)`,
    `try:   PEP_BASE_URL=${sandbox.baseUrl} pep peptides list`,
    "Press Ctrl-C to stop.",
  ];
  ctx.io.stdout.write(`${lines.join("\n")}\n`);
  await new Promise<void>((resolve) => {
    if (ctx.io.signal.aborted) return resolve();
    ctx.io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  return { kind: "none" };
};
