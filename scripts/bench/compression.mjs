// 6. Compression: bytes pep receives for the 10,000-study export with and without
// compression (counted on the wire by the bench proxy, headers included; target <= 0.25x),
// and the export's time on a link throttled by the sandbox (--bandwidth) with and without.
// Self-contained: its own sandboxes, its own rows.
import path from "node:path";
import { readFileSync } from "node:fs";
import { startBenchSandbox } from "./sandbox.mjs";
import { EXPORT_ARGS, EXPORT_LIMIT } from "./export.mjs";
import { lineCount, timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const COMPRESSION_RUNS = 3;
/** The throttled link: kilobytes per second of every body, and the sandbox's latency. */
export const THROTTLE = { bandwidthKBps: 250, latencyMs: 20 };

async function measure(ctx, sandbox, label) {
  const env = { ...ctx.env, PEP_BASE_URL: sandbox.proxyUrl, PEP_NO_CACHE: "1" };
  const out = (name) => path.join(ctx.tmp, `compress-${name}.ndjson`);
  const bytes = { on: [], off: [] };
  const variants = ["on", "off"].map((name) => async () => {
    await sandbox.reset();
    const args = name === "on" ? EXPORT_ARGS : [...EXPORT_ARGS, "--no-compress"];
    const r = timed(ctx.node, [ctx.pep, ...args], { env, cwd: ctx.root, outFile: out(name) });
    const lines = lineCount(readFileSync(out(name), "utf8"));
    if (lines !== EXPORT_LIMIT)
      throw new Error(`${label} ${name}: the export wrote ${lines} lines, not ${EXPORT_LIMIT}`);
    bytes[name].push((await sandbox.stats()).received);
    return r;
  });
  const times = { on: [], off: [] };
  for (let i = 0; i < COMPRESSION_RUNS; i++) {
    for (const [j, name] of ["on", "off"].entries()) times[name].push((await variants[j]()).ms);
  }
  return { bytes, times };
}

export async function runCompression(ctx) {
  const rows = [];
  const plain = await startBenchSandbox({ sandboxModule: ctx.sandboxModule, scale: 40 });
  try {
    ctx.log(`  bytes received, ${COMPRESSION_RUNS} rounds`);
    const { bytes } = await measure(ctx, plain, "loopback");
    rows.push(
      ratioRow({
        id: "6a",
        figure: `bytes received, export ${EXPORT_LIMIT.toLocaleString("en-US")} studies: compressed vs --no-compress`,
        unit: "B",
        measured: bytes.on,
        against: bytes.off,
        target: "<= 0.25x",
        meets: (r) => r <= 0.25,
      }),
    );
  } finally {
    await plain.close();
  }
  const slow = await startBenchSandbox({ sandboxModule: ctx.sandboxModule, scale: 40, ...THROTTLE });
  try {
    ctx.log(`  throttled link (${THROTTLE.bandwidthKBps} kB/s, ${THROTTLE.latencyMs} ms), ${COMPRESSION_RUNS} rounds`);
    const { times } = await measure(ctx, slow, "throttled");
    rows.push(
      ratioRow({
        id: "6b",
        figure: `export ${EXPORT_LIMIT.toLocaleString("en-US")} studies on a ${THROTTLE.bandwidthKBps} kB/s link: compressed vs --no-compress`,
        unit: "ms",
        measured: times.on,
        against: times.off,
        target: "< 1x",
        meets: (r) => r < 1,
      }),
    );
  } finally {
    await slow.close();
  }
  return {
    rows,
    notes: [
      `Compression (6): bytes counted by the bench proxy between pep and the sandbox, headers included; the throttled sandbox sends every body at ${THROTTLE.bandwidthKBps} kB/s after ${THROTTLE.latencyMs} ms.`,
    ],
  };
}
