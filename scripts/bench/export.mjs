// 2. Export throughput: 10,000 studies (100 pages of 100) by pep, by the floor (a minimal
// undici script) and by a bash loop of curl and jq, interleaved; every output is checked
// to hold 10,000 lines.
import { readFileSync } from "node:fs";
import path from "node:path";
import { interleave, lineCount, timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const EXPORT_RUNS = 5;
export const EXPORT_LIMIT = 10_000;
export const EXPORT_ARGS = ["studies", "export", "-o", "ndjson", "--page-size", "100", "--limit", String(EXPORT_LIMIT)];

export function runExport(ctx, sandbox) {
  const env = { ...ctx.env, PEP_BASE_URL: sandbox.baseUrl };
  const out = (name) => path.join(ctx.tmp, `export-${name}.ndjson`);
  const variants = [
    { name: "pep", run: () => timed(ctx.node, [ctx.pep, ...EXPORT_ARGS], { env, cwd: ctx.root, outFile: out("pep") }) },
    {
      name: "floor",
      run: () =>
        timed(ctx.node, [path.join(ctx.benchDir, "floor-export.mjs"), sandbox.baseUrl, String(EXPORT_LIMIT), "100"], {
          env,
          cwd: ctx.root,
          outFile: out("floor"),
        }),
    },
  ];
  const skipped = [];
  if (ctx.tools.curl && ctx.tools.jq) {
    variants.push({
      name: "curl",
      run: () =>
        timed("bash", [path.join(ctx.benchDir, "curl-jq.sh"), sandbox.baseUrl, String(EXPORT_LIMIT), "100"], {
          env,
          cwd: ctx.root,
          outFile: out("curl"),
        }),
    });
  } else {
    skipped.push(
      `curl+jq row skipped: ${[!ctx.tools.curl && "curl", !ctx.tools.jq && "jq"].filter(Boolean).join(" and ")} not found on PATH`,
    );
  }
  ctx.log(`  ${variants.map((v) => v.name).join(", ")}: ${EXPORT_RUNS} rounds`);
  const times = interleave(
    variants.map((v) => () => {
      const r = v.run();
      const lines = lineCount(readFileSync(out(v.name), "utf8"));
      if (lines !== EXPORT_LIMIT) throw new Error(`${v.name} export wrote ${lines} lines, not ${EXPORT_LIMIT}`);
      return r;
    }),
    EXPORT_RUNS,
  );
  // Same items in the same order from all of them.
  const first = readFileSync(out("pep"), "utf8")
    .split("\n")
    .map((l) => (l ? JSON.parse(l).id : ""));
  for (const v of variants.slice(1)) {
    const ids = readFileSync(out(v.name), "utf8")
      .split("\n")
      .map((l) => (l ? JSON.parse(l).id : ""));
    if (ids.join() !== first.join()) throw new Error(`${v.name} export holds other studies than pep's`);
  }
  const rows = [
    ratioRow({
      id: "2a",
      figure: "export 10,000 studies: pep vs floor (undici script)",
      unit: "ms",
      measured: times[0],
      against: times[1],
      target: "≤ 1.2x",
      meets: (r) => r <= 1.2,
    }),
  ];
  if (times[2]) {
    rows.push(
      ratioRow({
        id: "2b",
        figure: "export 10,000 studies: curl+jq loop vs pep",
        unit: "ms",
        measured: times[2],
        against: times[0],
        target: "≥ 3x",
        meets: (r) => r >= 3,
      }),
    );
  }
  return {
    rows,
    notes: [
      `All ${variants.length} outputs held ${EXPORT_LIMIT.toLocaleString("en-US")} lines with the same study ids in the same order.`,
      ...skipped,
    ],
  };
}
