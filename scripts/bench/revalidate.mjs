// 5. Revalidation: a repeated `peptides list` with the ETag cache (a 304 and the stored
// body) against `--no-cache` (a full 200 every time). The counting proxy in front of the
// sandbox measures the bytes pep received (status line, headers and body).
import { mkdtempSync } from "node:fs";
import path from "node:path";
import { timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const REVALIDATE_RUNS = 10;
export const LIST_ARGS = ["peptides", "list", "-o", "json"];

export async function runRevalidate(ctx, sandbox) {
  const env = { ...ctx.env, PEP_BASE_URL: sandbox.proxyUrl, PEP_CACHE_DIR: mkdtempSync(path.join(ctx.tmp, "cache-")) };
  const one = async (args, expect) => {
    await sandbox.reset();
    const r = timed(ctx.node, [ctx.pep, ...args], { env, cwd: ctx.root });
    const { requests, received } = await sandbox.stats();
    const statuses = requests.map((q) => q.status).join(",");
    if (statuses !== String(expect)) throw new Error(`${args.join(" ")}: statuses ${statuses}, expected ${expect}`);
    return { ms: r.ms, bytes: received, stdout: r.stdout };
  };
  // Fill the cache, then alternate cached and uncached runs.
  const primed = await one(LIST_ARGS, 200);
  const results = { cached: [], fresh: [] };
  ctx.log(`  cached vs --no-cache, ${REVALIDATE_RUNS} pairs`);
  for (let i = 0; i < REVALIDATE_RUNS; i++) {
    const a = await one(LIST_ARGS, 304);
    const b = await one([...LIST_ARGS, "--no-cache"], 200);
    if (a.stdout !== primed.stdout || b.stdout !== primed.stdout)
      throw new Error("a cached or uncached list printed something else than the first run");
    results.cached.push(a);
    results.fresh.push(b);
  }
  const bytesA = results.cached.map((r) => r.bytes);
  const bytesB = results.fresh.map((r) => r.bytes);
  const msA = results.cached.map((r) => r.ms);
  const msB = results.fresh.map((r) => r.ms);
  return {
    rows: [
      ratioRow({
        id: "5a",
        figure: "`peptides list` again: bytes received, ETag cache (304) vs `--no-cache` (200)",
        unit: "B",
        measured: bytesA,
        against: bytesB,
        target: "< 1x",
        meets: (r) => r < 1,
      }),
      ratioRow({
        id: "5b",
        figure: "`peptides list` again: time, ETag cache vs `--no-cache`",
        unit: "ms",
        measured: msA,
        against: msB,
        target: "— (reported)",
      }),
    ],
    bodyBytes: Buffer.byteLength(primed.stdout),
  };
}
