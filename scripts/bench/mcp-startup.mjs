// `pep mcp` start-up as a client meets it: from spawn to the answer of initialize (and to
// the answer of tools/list), against a bare Node stdio responder (mcp-bare.mjs) and the
// MCP SDK's own server with no tools (mcp-sdk-floor.mjs, bundled with esbuild), all
// interleaved (A B C A B C ...) after untimed warm-up rounds.
//
//   node scripts/bench/mcp-startup.mjs [--node <bin>] [--runs N] [--package DIR]
//
// pep runs as a client starts it: `pep mcp` with PEP_BASE_URL and PEP_API_KEY in its
// environment (no request is made before the first call), fresh config and cache folders.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { fmt, fmtRatio, summary } from "./stats.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../..");
const arg = (name, def) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? def : process.argv[i + 1];
};
const node = arg("--node", process.execPath);
const runs = Number(arg("--runs", "20"));
const pkg = path.resolve(arg("--package", root));
const tmp = mkdtempSync(path.join(os.tmpdir(), "pep-mcp-startup-"));

const INIT = `${JSON.stringify({
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "bench", version: "1" } },
})}\n`;
const LIST = `${JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" })}\n${JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/list" })}\n`;

/** Milliseconds from spawn to the answer of initialize, and (withList) to that of tools/list. */
function time(args, env, withList) {
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint();
    const child = spawn(node, args, { env, stdio: ["pipe", "pipe", "ignore"] });
    let out = "";
    let init;
    child.stdout.on("data", (c) => {
      out += c;
      if (init === undefined && out.includes('"id":1')) {
        init = Number(process.hrtime.bigint() - t0) / 1e6;
        if (!withList) return child.kill();
        child.stdin.write(LIST);
      }
      if (withList && out.includes('"id":2')) {
        const list = Number(process.hrtime.bigint() - t0) / 1e6;
        child.kill();
        resolve({ init, list });
      }
    });
    child.on("exit", () => {
      if (init === undefined) reject(new Error(`${args.join(" ")}: no answer to initialize`));
      else if (!withList) resolve({ init });
    });
    child.stdin.write(INIT);
  });
}

async function sdkFloor() {
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

const env = {
  PATH: process.env.PATH,
  HOME: tmp,
  PEP_CONFIG_DIR: mkdtempSync(path.join(tmp, "config-")),
  PEP_CACHE_DIR: mkdtempSync(path.join(tmp, "cache-")),
  PEP_BASE_URL: "http://127.0.0.1:9/v1",
  PEP_API_KEY: "sbx_full_key",
};
const floor = await sdkFloor();
const variants = {
  bare: () => time([path.join(here, "mcp-bare.mjs")], env, false),
  sdk: () => time([floor], env, false),
  pep: () => time([path.join(pkg, "bin", "pep.js"), "mcp"], env, true),
};
const times = { bare: [], sdk: [], pep: [], pepList: [] };
for (let i = 0; i < runs + 2; i++) {
  for (const [name, run] of Object.entries(variants)) {
    const r = await run();
    if (i < 2) continue; // warm-up: the code caches are written
    times[name].push(r.init);
    if (r.list !== undefined) times.pepList.push(r.list);
  }
}
rmSync(tmp, { recursive: true, force: true });
const version = await new Promise((resolve) => {
  const c = spawn(node, ["--version"]);
  let v = "";
  c.stdout.on("data", (d) => (v += d));
  c.on("exit", () => resolve(v.trim()));
});
const ratio = (a, b) => summary(a).median / summary(b).median;
const pairs = (a, b) => a.map((v, i) => v / b[i]);
console.log(`Node ${version}, ${runs} interleaved rounds (median, min–max)`);
console.log(`  bare responder, spawn to initialize answer:   ${fmt(summary(times.bare), "ms")}`);
console.log(
  `  MCP SDK server, no tools (bundled):            ${fmt(summary(times.sdk), "ms")}  ${fmtRatio(ratio(times.sdk, times.bare), pairs(times.sdk, times.bare))} of bare`,
);
console.log(
  `  pep mcp, spawn to initialize answer:           ${fmt(summary(times.pep), "ms")}  ${fmtRatio(ratio(times.pep, times.bare), pairs(times.pep, times.bare))} of bare (goal: at most 1.6x)`,
);
console.log(
  `  pep mcp, spawn to tools/list answer:           ${fmt(summary(times.pepList), "ms")}  ${fmtRatio(ratio(times.pepList, times.bare), pairs(times.pepList, times.bare))} of bare`,
);
