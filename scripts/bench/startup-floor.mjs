// 1d–1i: a list command against the floors it can reach, for one Node (run for the
// machine's Node and for Node 24, like the rows of startup.mjs):
//   floor-list.cjs   the same one request with node:http alone, body printed
//   floor-list.py    the same with Python's urllib, run by the interpreter itself
//   floor-deps.mjs   the same with what pep must load (undici, zod, commander), bundled
//                    and run with pep's code cache: what a list command can reach at best
// all interleaved with `node -e 0` and with pep without its compile cache, so every row of
// one Node comes from the same rounds.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { interleave, timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const FLOOR_RUNS = 20;
export const LIST_TARGET_VS_HTTP = 2;
const LIST = ["peptides", "list", "-o", "json"];

/**
 * The Python interpreter's own path (sys.executable), asked once: `python3` on PATH is
 * often a version manager's shim, a shell script that adds its own start-up to every run.
 */
export function findPython() {
  const r = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" });
  const exe = r.status === 0 ? r.stdout.trim() : "";
  if (!exe) return undefined;
  const version = spawnSync(exe, ["--version"], { encoding: "utf8" });
  return { exe, version: `${version.stdout}${version.stderr}`.trim() };
}

/**
 * Bundles floor-deps.mjs into <tmp>/floor-deps/ beside a build id and a runner that sets
 * up what bin/pep.js does (--liftoff-only, bin/code-cache.js). Returns the runner's path.
 */
export async function buildDepsFloor(ctx) {
  const { build } = await import("esbuild");
  const dir = path.join(ctx.tmp, "floor-deps");
  mkdirSync(dir, { recursive: true });
  const bundle = path.join(dir, "floor-deps.js");
  await build({
    entryPoints: [path.join(ctx.benchDir, "floor-deps.mjs")],
    absWorkingDir: ctx.root,
    outfile: bundle,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    minifySyntax: true,
    legalComments: "none",
    logLevel: "warning",
  });
  writeFileSync(path.join(dir, "package.json"), '{ "type": "commonjs" }\n');
  writeFileSync(
    path.join(dir, "build-id"),
    `${createHash("sha256").update(readFileSync(bundle)).digest("hex").slice(0, 16)}\n`,
  );
  const runner = path.join(dir, "run.cjs");
  const codeCache = path.join(path.dirname(ctx.pep), "code-cache.js");
  writeFileSync(
    runner,
    [
      '"use strict";',
      'require("node:v8").setFlagsFromString("--liftoff-only");',
      `const caches = require(${JSON.stringify(codeCache)});`,
      "const base = caches.cacheBase(process.env);",
      "const nodeCache = caches.useCompileCache(base);",
      'caches.useCodeCache({ dist: __dirname, base, commandOf: () => "floor-deps", beforeOthers: nodeCache });',
      'require("./floor-deps.js");',
      "",
    ].join("\n"),
  );
  return runner;
}

export function floorCommands(ctx) {
  return {
    deps: `node <tmp>/floor-deps/run.cjs <sandbox>/v1 <key>   # scripts/bench/floor-deps.mjs, bundled by esbuild, run with bin/code-cache.js`,
    http: `node scripts/bench/floor-list.cjs <sandbox>/v1 <key>`,
    python: `${ctx.python ? ctx.python.exe : "python3"} scripts/bench/floor-list.py <sandbox>/v1 <key>`,
  };
}

/** `node`: { bin, major, suffix, target } as in runStartup, `target` whether 1d has the 2x target. */
export function runStartupFloors(ctx, sandbox, node) {
  const env = { ...ctx.env, PEP_BASE_URL: sandbox.baseUrl };
  const key = ctx.env.PEP_API_KEY;
  const httpFloor = path.join(ctx.benchDir, "floor-list.cjs");
  const pyFloor = path.join(ctx.benchDir, "floor-list.py");
  const run = {
    bare: () => timed(node.bin, ["-e", "0"], { env, cwd: ctx.root }),
    http: () => timed(node.bin, [httpFloor, sandbox.baseUrl, key], { env, cwd: ctx.root }),
    // A cache folder of its own: a code cache folder keeps one build per Node.
    ...(ctx.depsFloor
      ? {
          deps: () =>
            timed(node.bin, [ctx.depsFloor, sandbox.baseUrl, key], {
              env: { ...env, PEP_CACHE_DIR: path.join(ctx.tmp, `cache-floor-deps-${node.major}`) },
              cwd: ctx.root,
            }),
        }
      : {}),
    pep: () => timed(node.bin, [ctx.pep, ...LIST], { env, cwd: ctx.root }),
    ...(ctx.python
      ? { python: () => timed(ctx.python.exe, [pyFloor, sandbox.baseUrl, key], { env, cwd: ctx.root }) }
      : {}),
    // No code cache (bin/code-cache.js) and no module compile cache, on every Node.
    cold: () =>
      timed(node.bin, [ctx.pep, ...LIST], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: "1" }, cwd: ctx.root }),
  };
  // Same data from all (pep prints the envelope's items, the floors the envelope); the
  // first pep run also fills its code cache, so the timed runs find it warm.
  const items = JSON.parse(run.pep().stdout);
  for (const name of ["http", "python", "deps"]) {
    if (!run[name]) continue;
    const body = JSON.parse(run[name]().stdout);
    if (JSON.stringify(body.data) !== JSON.stringify(items))
      throw new Error(`${name} floor: its items differ from pep's`);
  }
  const names = Object.keys(run);
  ctx.log(`  Node ${node.major}: ${names.join(", ")}, ${FLOOR_RUNS} interleaved rounds`);
  const times = Object.fromEntries(interleave(Object.values(run), FLOOR_RUNS).map((t, i) => [names[i], t]));
  const id = (letter) => `1${letter}${node.suffix}`;
  const rows = [
    ratioRow({
      id: id("d"),
      figure: `Node ${node.major}: \`pep peptides list -o json\` vs the node:http floor`,
      unit: "ms",
      measured: times.pep,
      against: times.http,
      target: node.target ? `≤ ${LIST_TARGET_VS_HTTP}x` : "— (reported)",
      meets: node.target ? (r) => r <= LIST_TARGET_VS_HTTP : null,
    }),
  ];
  if (times.python) {
    rows.push(
      ratioRow({
        id: id("e"),
        figure: `Node ${node.major}: \`pep peptides list -o json\` vs the Python urllib floor`,
        unit: "ms",
        measured: times.pep,
        against: times.python,
        target: "< 1x",
        meets: (r) => r < 1,
      }),
    );
  }
  rows.push(
    ratioRow({
      id: id("f"),
      figure: `Node ${node.major}: node:http floor vs \`node -e 0\``,
      unit: "ms",
      measured: times.http,
      against: times.bare,
      target: "— (reported)",
      meets: null,
    }),
  );
  if (times.deps) {
    rows.push(
      ratioRow({
        id: id("h"),
        figure: `Node ${node.major}: \`pep peptides list -o json\` vs the dependencies floor (undici, zod, commander, one request)`,
        unit: "ms",
        measured: times.pep,
        against: times.deps,
        target: "— (reported)",
        meets: null,
      }),
    );
  }
  if (times.deps && times.python) {
    rows.push(
      ratioRow({
        id: id("i"),
        figure: `Node ${node.major}: the dependencies floor vs the Python urllib floor`,
        unit: "ms",
        measured: times.deps,
        against: times.python,
        target: "— (reported)",
        meets: null,
      }),
    );
  }
  if (times.cold) {
    rows.push(
      ratioRow({
        id: id("g"),
        figure: `Node ${node.major}: \`pep peptides list -o json\`, code caches off vs on`,
        unit: "ms",
        measured: times.cold,
        against: times.pep,
        target: "— (reported)",
        meets: null,
      }),
    );
  }
  return rows;
}
