// 3. Memory: peak RSS of exporting 1,000 and 30,000 studies, as CSV and as JSON, from a
// sandbox at scale 100. GNU time measures when present; else maxrss.mjs runs pep in its
// own process and reads process.resourceUsage().maxRSS at exit.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { lineCount, timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const MEMORY_RUNS = 3;
export const MEMORY_SIZES = [1_000, 30_000];
export const MEMORY_FORMATS = ["csv", "json"];
export const GNU_TIME = "/usr/bin/time";

export function memoryArgs(format, n) {
  return ["studies", "export", "-o", format, "--limit", String(n)];
}

export function memoryTool(ctx) {
  return existsSync(GNU_TIME) &&
    timed(GNU_TIME, ["-v", "true"], { allowFail: true }).stderr.includes("Maximum resident")
    ? { name: "GNU time", prefix: (args) => [GNU_TIME, ["-v", ctx.node, ctx.pep, ...args]] }
    : { name: "maxrss.mjs", prefix: (args) => [ctx.node, [path.join(ctx.benchDir, "maxrss.mjs"), ctx.pep, ...args]] };
}

function peakKb(stderr) {
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  if (!m) throw new Error(`no peak RSS in: ${stderr.slice(-300)}`);
  return Number(m[1]);
}

function check(format, n, file) {
  const text = readFileSync(file, "utf8");
  const got = format === "json" ? JSON.parse(text).length : lineCount(text) - 1;
  if (got !== n) throw new Error(`export -o ${format} --limit ${n} gave ${got} studies`);
}

export function runMemory(ctx, sandbox) {
  const env = { ...ctx.env, PEP_BASE_URL: sandbox.baseUrl };
  const tool = memoryTool(ctx);
  ctx.log(`  peak RSS with ${tool.name}, ${MEMORY_RUNS} runs each`);
  const kb = new Map();
  for (let i = 0; i < MEMORY_RUNS; i++) {
    for (const format of MEMORY_FORMATS) {
      for (const n of MEMORY_SIZES) {
        const file = path.join(ctx.tmp, `memory-${n}.${format}`);
        const [cmd, args] = tool.prefix(memoryArgs(format, n));
        const r = timed(cmd, args, { env, cwd: ctx.root, outFile: file });
        check(format, n, file);
        const key = `${format}:${n}`;
        kb.set(key, [...(kb.get(key) ?? []), peakKb(r.stderr) / 1024]);
      }
    }
  }
  const rows = MEMORY_FORMATS.map((format, i) => {
    const small = kb.get(`${format}:${MEMORY_SIZES[0]}`);
    const big = kb.get(`${format}:${MEMORY_SIZES[1]}`);
    return ratioRow({
      id: `3${"ab"[i]}`,
      figure: `peak RSS, export -o ${format}: 30,000 vs 1,000 studies`,
      unit: "MB",
      measured: big,
      against: small,
      target: "≤ 1.25x",
      meets: (r) => r <= 1.25,
    });
  });
  return { rows, tool: tool.name };
}
