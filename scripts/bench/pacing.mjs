// 4. Pacing: a 40-page export against a sandbox limited to 20 requests per 2 seconds.
// Each run gets a fresh sandbox whose windows start at its first request, so the
// earliest moment the 40th request may be served is exactly (ceil(40/20) - 1) x 2 s
// after the first. Measured: first to last request as the proxy saw them, and the 429s.
import { startBenchSandbox } from "./sandbox.mjs";
import { timed } from "./run.mjs";
import { summary } from "./stats.mjs";

export const PACING_RUNS = 5;
export const PACING_LIMIT = { requests: 20, seconds: 2 };
export const PACING_PAGES = 40;
export const PACING_ARGS = [
  "studies",
  "export",
  "-o",
  "ndjson",
  "--page-size",
  "100",
  "--limit",
  String(PACING_PAGES * 100),
  "-v",
];

export async function runPacing(ctx) {
  const minimumS = (Math.ceil(PACING_PAGES / PACING_LIMIT.requests) - 1) * PACING_LIMIT.seconds;
  const spans = [];
  const walls = [];
  const tooMany = [];
  ctx.log(`  ${PACING_RUNS} runs, fresh sandbox each`);
  for (let i = 0; i < PACING_RUNS; i++) {
    const sandbox = await startBenchSandbox({
      sandboxModule: ctx.sandboxModule,
      scale: 14,
      rateLimit: PACING_LIMIT,
      alignWindows: true,
    });
    try {
      const env = { ...ctx.env, PEP_BASE_URL: sandbox.proxyUrl };
      const r = timed(ctx.node, [ctx.pep, ...PACING_ARGS], { env, cwd: ctx.root, outFile: `${ctx.tmp}/pacing.ndjson` });
      const { requests } = await sandbox.stats();
      const ok = requests.filter((q) => q.status === 200);
      if (ok.length !== PACING_PAGES) throw new Error(`pacing run served ${ok.length} pages, not ${PACING_PAGES}`);
      const logged429 = r.stderr.split("\n").filter((l) => l.startsWith("< 429")).length;
      const seen429 = requests.filter((q) => q.status === 429).length;
      if (logged429 !== seen429) throw new Error(`pep logged ${logged429} 429s, the proxy saw ${seen429}`);
      spans.push((requests[requests.length - 1].t - requests[0].t) / 1000);
      walls.push(r.ms / 1000);
      tooMany.push(seen429);
    } finally {
      await sandbox.close();
    }
  }
  const span = summary(spans);
  const ratio = span.median / minimumS;
  return {
    rows: [
      {
        id: "4a",
        figure: `pacing, ${PACING_PAGES} pages at ${PACING_LIMIT.requests}/${PACING_LIMIT.seconds}s: first to last request vs minimum`,
        measured: { sum: span, unit: "s" },
        against: { sum: summary([minimumS]), unit: "s" },
        ratio,
        pairs: spans.map((s) => s / minimumS),
        target: "≤ 1.15x",
        met: ratio <= 1.15,
      },
      {
        id: "4b",
        figure: "pacing: 429 answers received",
        measured: { sum: summary(tooMany), unit: "count" },
        against: null,
        ratio: Number.NaN,
        target: "0",
        met: Math.max(...tooMany) === 0,
      },
    ],
    wall: summary(walls),
    minimumS,
  };
}
