// `pep mcp` start-up as a client meets it (section 11 of `npm run bench`, rows 11a-11c): from spawn to
// the answer of initialize, and to that of tools/list (asked for as soon as initialize is
// answered, after notifications/initialized), against a bare Node stdio responder that
// answers both (mcp-bare.mjs) and the MCP SDK's own server with no tools
// (mcp-sdk-floor.mjs, bundled with esbuild as pep is), all interleaved (A B C A B C ...)
// after untimed warm-up rounds, on the machine's Node and on Node 24.
//
//   node scripts/bench/mcp-startup.mjs [--node <bin>] [--runs N] [--package DIR]
//
// pep runs as a client starts it: `pep mcp` with PEP_BASE_URL and PEP_API_KEY in its
// environment (no request is made before the first call), fresh config and cache folders.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, fmtRatio, ratioRow, summary } from "./stats.mjs";

export const MCP_STARTUP_RUNS = 20;
/** The goal: spawn to initialize answer at most this many times the bare responder's. */
export const MCP_TARGET = 1.5;
/** The goal: spawn to tools/list answer at most this many times the bare responder's. */
export const MCP_LIST_TARGET = 2;

const here = path.dirname(fileURLToPath(import.meta.url));
const INIT = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
})}\n`;
const LIST = `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`;

/** Milliseconds from spawn to the answer of initialize, and (withList) to that of tools/list. */
function time(node, args, env, withList) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(node, args, { env, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    let init;
    let list;
    child.stdout.on("data", (c) => {
      out += c;
      if (init === undefined && out.includes('"id":1')) {
        init = Number(process.hrtime.bigint() - t0) / 1e6;
        if (!withList) return child.kill();
        child.stdin.write(LIST);
      }
      if (withList && list === undefined && out.includes('"id":2')) {
        list = Number(process.hrtime.bigint() - t0) / 1e6;
        child.kill();
      }
    });
    // Settled when the child is gone, so that none is still writing its caches.
    child.on("exit", () => {
      if (init === undefined) reject(new Error(`${args.join(" ")}: no answer to initialize`));
      else resolve(withList ? { init, list } : { init });
    });
    child.stdin.write(INIT);
  });
}

async function sdkFloor(tmp) {
  const { build } = await import("esbuild");
  const out = path.join(tmp, "mcp-sdk-floor.mjs");
  await build({
    entryPoints: [path.join(here, "mcp-sdk-floor.mjs")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile: out,
    logLevel: "silent",
  });
  return out;
}

/** Times of one Node: { bare, bareList, sdk, pep, pepList } in ms, `runs` interleaved rounds after 2 warm-up ones. */
export async function timeMcpStartup({ node, pep, runs = MCP_STARTUP_RUNS }) {
  const tmp = mkdtempSync(path.join(os.tmpdir(), "pep-mcp-startup-"));
  try {
    const env = {
      PATH: process.env.PATH,
      HOME: tmp,
      PEP_CONFIG_DIR: mkdtempSync(path.join(tmp, "config-")),
      PEP_CACHE_DIR: mkdtempSync(path.join(tmp, "cache-")),
      PEP_BASE_URL: "http://127.0.0.1:9/v1",
      PEP_API_KEY: "sbx_full_key",
    };
    const floor = await sdkFloor(tmp);
    const variants = {
      bare: () => time(node, [path.join(here, "mcp-bare.mjs")], env, true),
      sdk: () => time(node, [floor], env, false),
      pep: () => time(node, [pep, "mcp"], env, true),
    };
    const times = { bare: [], bareList: [], sdk: [], pep: [], pepList: [] };
    for (let i = 0; i < runs + 2; i++) {
      for (const [name, run] of Object.entries(variants)) {
        const r = await run();
        if (i < 2) continue; // warm-up: the code caches are written
        times[name].push(r.init);
        if (r.list !== undefined) times[`${name}List`].push(r.list);
      }
    }
    return times;
  } finally {
    rmSync(tmp, { recursive: true, force: true, maxRetries: 5 });
  }
}

/** Section 11 of the bench: rows 11a-11c (and 11a-24... on Node 24). */
export async function runMcpStartup(ctx) {
  const legs = [{ bin: ctx.node, suffix: "" }];
  const r = spawnSync("bash", [path.join(ctx.root, "scripts", "test-node.sh"), "--fetch", "24"], { encoding: "utf8" });
  const bin24 = r.stdout.trim();
  if (ctx.nodeMajor !== 24 && r.status === 0 && bin24) legs.push({ bin: bin24, suffix: "-24" });
  const rows = [];
  for (const leg of legs) {
    ctx.log(`11. pep mcp start-up${leg.suffix ? " (Node 24)" : ""}`);
    const t = await timeMcpStartup({ node: leg.bin, pep: ctx.pep });
    const row = (id, figure, measured, goal, against = t.bare) =>
      ratioRow({
        id,
        figure,
        unit: "ms",
        measured,
        against,
        target: goal ? `≤ ${goal}x` : "— (reported)",
        meets: goal ? (x) => x <= goal : null,
      });
    rows.push(
      row(`11a${leg.suffix}`, "pep mcp: spawn to initialize answer, vs a bare Node responder", t.pep, MCP_TARGET),
    );
    rows.push(
      row(
        `11b${leg.suffix}`,
        "pep mcp: spawn to tools/list answer, vs a bare Node responder's",
        t.pepList,
        MCP_LIST_TARGET,
        t.bareList,
      ),
    );
    rows.push(row(`11c${leg.suffix}`, "MCP SDK server alone (no tools, bundled), vs a bare Node responder", t.sdk));
  }
  return { rows, notes: [] };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, def) => {
    const i = process.argv.indexOf(name);
    return i === -1 ? def : process.argv[i + 1];
  };
  const node = arg("--node", process.execPath);
  const runs = Number(arg("--runs", String(MCP_STARTUP_RUNS)));
  const pkg = path.resolve(arg("--package", path.resolve(here, "../..")));
  const t = await timeMcpStartup({ node, pep: path.join(pkg, "bin", "pep.js"), runs });
  const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
  const line = (label, xs, bare = t.bare) => {
    const ratio = summary(xs).median / summary(bare).median;
    const pairs = xs.map((v, i) => v / bare[i]);
    return `  ${label.padEnd(48)} ${fmt(summary(xs), "ms")}  ${fmtRatio(ratio, pairs)} of bare`;
  };
  console.log(`Node ${version}, ${runs} interleaved rounds (median, min–max), load average ${os.loadavg().join(" ")}`);
  console.log(`  ${"bare responder, spawn to initialize answer".padEnd(48)} ${fmt(summary(t.bare), "ms")}`);
  console.log(`  ${"bare responder, spawn to tools/list answer".padEnd(48)} ${fmt(summary(t.bareList), "ms")}`);
  console.log(line("MCP SDK server alone (no tools, bundled)", t.sdk));
  console.log(line(`pep mcp, spawn to initialize (goal ≤ ${MCP_TARGET}x)`, t.pep));
  console.log(line(`pep mcp, spawn to tools/list (goal ≤ ${MCP_LIST_TARGET}x)`, t.pepList, t.bareList));
}
