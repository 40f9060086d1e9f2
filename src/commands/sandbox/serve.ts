/**
 * `pep sandbox`: starts the server, prints where it is and its keys, and serves until
 * Ctrl-C. A long-running server's banner is its output, so it goes to stdout.
 */
import { UsageError } from "../../core/errors.js";
import type { Run } from "../../core/command.js";
import type { SANDBOX_OPTIONS } from "./sandbox-options.js";
import { parseSandboxFlags } from "./sandbox-options.js";

/** Whether `--host` keeps the sandbox on this machine: `localhost`, 127.0.0.0/8 or ::1. */
export function isLoopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  const v4 = /^(?:::ffff:)?(\d{1,3})\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.exec(h);
  if (v4) return v4[1] === "127";
  return h === "::1" || h === "0:0:0:0:0:0:0:1";
}

/** `host:port` as the banner names it: IPv6 in brackets; the wildcards said in words. */
function listeningOn(host: string, port: number): string {
  const h = host.replace(/^\[|\]$/g, "");
  const where = h.includes(":") ? `[${h}]:${port}` : `${h}:${port}`;
  if (h === "0.0.0.0") return `${where} (every IPv4 interface of this machine)`;
  if (h === "::") return `${where} (every interface of this machine)`;
  return isLoopbackHost(h) ? `${where} (this machine only)` : `${where} (reachable from other machines)`;
}

export const run: Run<typeof SANDBOX_OPTIONS> = async (input, ctx) => {
  const flags = parseSandboxFlags(input.opts);
  // Its keys are public, so a sandbox other machines can reach serves anyone who asks:
  // said before it listens, never silenced by -q (as its synthetic-data notice).
  if (!isLoopbackHost(flags.host)) {
    const h = flags.host.replace(/^\[|\]$/g, "");
    const reach = h === "0.0.0.0" || h === "::" ? "listens on every interface" : "listens beyond loopback";
    ctx.io.stderr.write(
      `warning: --host ${flags.host} ${reach}: other machines on the network can reach this sandbox, and its keys (sbx_full_key, sbx_research_key, sbx_vendors_key) are public; use --host 127.0.0.1 to keep it on this machine\n`,
    );
  }
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
    `listening on: ${listeningOn(flags.host, sandbox.port)}`,
    `base URL: ${sandbox.baseUrl}`,
    // One key a line, so that the lines keep within 80 columns.
    `keys: ${sandbox.keys.full} (every scope)`,
    `      ${sandbox.keys.research} (research:read, studies:read)`,
    `      ${sandbox.keys.vendors} (vendors:read)`,
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
