#!/usr/bin/env node
// A/B of pep builds on a list run: each build once per round in a new random order, with
// the floors beside them, against one bench sandbox. Reports, per build, the median wall
// and CPU time (user + system of the child, every thread: scripts/bench/rusage.py) and
// the median and IQR of its per-round difference from the first build. CPU time is the
// steadier figure on a shared machine; see docs/startup.md.
//
//   node scripts/bench/ab.mjs [--node <bin>] [--rounds 80] <build dir> <build dir> ...
//
// A build dir holds bin/, dist/ and package.json (e.g. a copy made after `npm run build`,
// or a worktree of an older commit); node_modules is taken from beside it, else from this
// repository (linked in). `NAME=dir` names a build; `dir+NODE_DISABLE_COMPILE_CACHE=1` runs it with
// that variable set. The floors (node -e 0, node:http, Python urllib) and `pep --version`
// of the first build run in every round too.
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { timed } from "./run.mjs";
import { startBenchSandbox } from "./sandbox.mjs";
import { quantile } from "./stats.mjs";
import { findPython } from "./startup-floor.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [, value] = args.splice(i, 2);
  return value;
};
const node = opt("--node", process.execPath);
const rounds = Number(opt("--rounds", "80"));
const python = findPython();
if (!python) throw new Error("ab.mjs needs python3 (it times each run with scripts/bench/rusage.py)");
if (args.length === 0) throw new Error("give at least one build dir");

const builds = args.map((spec) => {
  const [named, ...envs] = spec.split("+");
  const [name, dir] = named.includes("=") ? named.split("=") : [path.basename(named), named];
  return { name, dir: path.resolve(dir), env: Object.fromEntries(envs.map((e) => e.split("="))) };
});
const tmp = mkdtempSync(path.join(os.tmpdir(), "pep-ab-"));
for (const b of builds) {
  if (!existsSync(path.join(b.dir, "dist", "main.js"))) throw new Error(`${b.dir} has no dist/main.js`);
  if (!existsSync(path.join(b.dir, "node_modules")))
    symlinkSync(path.join(here, "..", "..", "node_modules"), path.join(b.dir, "node_modules"), "dir");
}
const times = path.join(tmp, "times");
const run = (cmd, argv, env) => {
  timed(python.exe, [path.join(here, "rusage.py"), times, cmd, ...argv], { env });
  const [wall, cpu] = readFileSync(times, "utf8").trim().split(" ").map(Number);
  return { wall, cpu };
};

const sandbox = await startBenchSandbox({ sandboxModule: path.join(builds[0].dir, "dist", "sandbox.js"), scale: 40 });
const key = "sbx_full_key";
const base = {
  PATH: process.env.PATH,
  HOME: tmp,
  LANG: "C.UTF-8",
  NO_COLOR: "1",
  PEP_API_KEY: key,
  PEP_CONFIG_DIR: path.join(tmp, "config"),
  PEP_BASE_URL: sandbox.baseUrl,
};
const LIST = ["peptides", "list", "-o", "json"];
const variants = {};
builds.forEach((b, i) => {
  const env = { ...base, ...b.env, PEP_CACHE_DIR: path.join(tmp, `cache-${i}`) };
  variants[b.name] = () => run(node, [path.join(b.dir, "bin", "pep.js"), ...LIST], env);
});
variants["pep --version"] = () => run(node, [path.join(builds[0].dir, "bin", "pep.js"), "--version"], base);
variants["node -e 0"] = () => run(node, ["-e", "0"], base);
variants["node:http floor"] = () => run(node, [path.join(here, "floor-list.cjs"), sandbox.baseUrl, key], base);
variants["Python floor"] = () => run(python.exe, [path.join(here, "floor-list.py"), sandbox.baseUrl, key], base);

const names = Object.keys(variants);
const wall = Object.fromEntries(names.map((n) => [n, []]));
const cpu = Object.fromEntries(names.map((n) => [n, []]));
try {
  // Two untimed rounds: each build's code cache and ETag cache filled.
  for (let i = 0; i < 2; i++) for (const n of names) variants[n]();
  for (let i = 0; i < rounds; i++) {
    const order = names.map((n) => [Math.random(), n]).sort((a, b) => a[0] - b[0]);
    for (const [, n] of order) {
      const t = variants[n]();
      wall[n].push(t.wall);
      cpu[n].push(t.cpu);
    }
    if ((i + 1) % 10 === 0) process.stderr.write(`round ${i + 1}/${rounds}\n`);
  }
} finally {
  await sandbox.close();
  rmSync(tmp, { recursive: true, force: true });
}

const ref = builds[0].name;
const f = (v) => v.toFixed(1);
const line = (t, n) => {
  const d = t[n].map((v, i) => v - t[ref][i]);
  return `${f(quantile(t[n], 0.5))} ms, vs ${ref} ${f(quantile(d, 0.5))} (IQR ${f(quantile(d, 0.25))} to ${f(quantile(d, 0.75))})`;
};
const version = timed(node, ["--version"], { env: base }).stdout.trim();
process.stdout.write(
  `${node} (${version}), ${rounds} rounds, load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(" ")}\n`,
);
for (const n of names)
  process.stdout.write(`${n.padEnd(20)} wall ${line(wall, n)}\n${"".padEnd(20)} cpu  ${line(cpu, n)}\n`);
