// 1d–1g: a list command against the floors it can reach, for one Node (run for the
// machine's Node and for Node 24, like the rows of startup.mjs):
//   floor-list.cjs   the same one request with node:http alone, body printed
//   floor-list.py    the same with Python's urllib, run by the interpreter itself
// all interleaved with `node -e 0` and with pep without its compile cache, so every row of
// one Node comes from the same rounds.
import { spawnSync } from "node:child_process";
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

/** Whether this Node has the module compile cache (22.1 and later). */
export function hasCompileCache(nodeBin) {
  return (
    spawnSync(nodeBin, ["-p", "typeof require('node:module').enableCompileCache"], {
      encoding: "utf8",
    }).stdout.trim() === "function"
  );
}

export function floorCommands(ctx) {
  return {
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
  const cc = hasCompileCache(node.bin);
  const run = {
    bare: () => timed(node.bin, ["-e", "0"], { env, cwd: ctx.root }),
    http: () => timed(node.bin, [httpFloor, sandbox.baseUrl, key], { env, cwd: ctx.root }),
    pep: () => timed(node.bin, [ctx.pep, ...LIST], { env, cwd: ctx.root }),
    ...(ctx.python
      ? { python: () => timed(ctx.python.exe, [pyFloor, sandbox.baseUrl, key], { env, cwd: ctx.root }) }
      : {}),
    ...(cc
      ? {
          cold: () =>
            timed(node.bin, [ctx.pep, ...LIST], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: "1" }, cwd: ctx.root }),
        }
      : {}),
  };
  // Same data from all three (pep prints the envelope's items, the floors the envelope);
  // the first pep run also fills the compile cache, so the timed runs find it warm.
  const items = JSON.parse(run.pep().stdout);
  for (const name of ["http", "python"]) {
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
  if (times.cold) {
    rows.push(
      ratioRow({
        id: id("g"),
        figure: `Node ${node.major}: \`pep peptides list -o json\`, compile cache off vs on`,
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
