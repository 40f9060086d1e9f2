// Where a list run's time goes: `pep peptides list -o json` under --cpu-prof, cold (no
// code cache: NODE_DISABLE_COMPILE_CACHE=1) and warm (the code cache filled by a run
// before), against a sandbox child at scale 40 with the ETag cache filled, as in section 1
// of the bench. Samples are put in buckets: by the `// node_modules/<package>` and
// `// src/` markers esbuild leaves in the bundle, Node's built-in modules by their
// `node:` URL, the rest by what V8 names them. Medians of the runs, in ms.
//
//   node scripts/bench/profile-startup.mjs [--node <binary>] [--runs 6] [--keep <dir>]
//
// Profiling adds its own cost (about 10 ms a run here), and --cpu-prof is a V8 flag
// setting like any other: the warm runs use a code cache made under the same flags.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startBenchSandbox } from "./sandbox.mjs";
import { quantile } from "./stats.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 && args[i + 1] !== undefined ? args[i + 1] : fallback;
};
const nodeBin = opt("--node", process.execPath);
const runs = Number(opt("--runs", "6"));
const keep = opt("--keep", undefined);

/** The bucket of one profile node. */
const sources = new Map();
function lines(url) {
  if (!sources.has(url)) {
    let text = "";
    try {
      text = readFileSync(fileURLToPath(url), "utf8");
    } catch {
      // Not a file (eval, wasm): no markers.
    }
    sources.set(url, text.split("\n"));
  }
  return sources.get(url);
}
function bucketOf(frame) {
  const { url, functionName, lineNumber } = frame;
  if (url === "node:vm" || url.startsWith("node:internal/vm") || functionName === "ContextifyScript")
    return "code cache read back (node:vm: V8 deserializing)";
  if (functionName === "compileFunction" || functionName === "compileFunctionForCJSLoader")
    return "compiling JavaScript (no cache)";
  if (url.startsWith("node:internal/modules/") || url === "node:internal/main/run_main_module")
    return "module loader (resolve, read, wrap)";
  if (url === "node:internal/bootstrap/realm") return "loading Node's own modules (net, streams …)";
  if (url.startsWith("node:")) return "Node's own modules, running";
  if (
    !url &&
    /^(readFileUtf8|read|open|close|lstat|stat|fstat|internalModuleStat|readdir|rename|writeString|writeBuffer)$/.test(
      functionName,
    )
  )
    return "file system calls";
  if (url.startsWith("file:") && url.includes("/dist/")) {
    const text = lines(url);
    for (let l = lineNumber; l >= 0; l--) {
      const m = /^\/\/ (?:node_modules\/((?:@[^/]+\/)?[^/]+)|src\/)/.exec(text[l] ?? "");
      if (m) return m[1] ?? "pep's own code";
    }
    return "pep's own code";
  }
  if (url.includes("/bin/")) return "bin/ (cache set-up)";
  if (url.startsWith("wasm:") || functionName.startsWith("wasm-") || functionName === "js-to-wasm")
    return "undici's parser (WebAssembly)";
  if (functionName === "(garbage collector)") return "garbage collection";
  if (functionName === "(idle)") return "idle (waiting for the answer)";
  if (functionName === "(program)") return "V8 and Node native";
  return "V8 and Node native";
}

function buckets(file) {
  const p = JSON.parse(readFileSync(file, "utf8"));
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const out = new Map();
  p.samples.forEach((id, i) => {
    const b = bucketOf(byId.get(id).callFrame);
    out.set(b, (out.get(b) ?? 0) + p.timeDeltas[i] / 1000);
  });
  return out;
}

const sandbox = await startBenchSandbox({ sandboxModule: path.join(root, "dist", "sandbox.js"), scale: 40 });
const work = mkdtempSync(path.join(tmpdir(), "pep-profile-"));
try {
  const env = {
    PATH: process.env.PATH,
    HOME: work,
    LANG: "C.UTF-8",
    NO_COLOR: "1",
    PEP_CONFIG_DIR: path.join(work, "config"),
    PEP_CACHE_DIR: path.join(work, "cache"),
    PEP_API_KEY: "sbx_full_key",
    PEP_BASE_URL: sandbox.baseUrl,
  };
  const variants = { cold: { NODE_DISABLE_COMPILE_CACHE: "1" }, warm: {} };
  const results = {};
  for (const [name, more] of Object.entries(variants)) {
    const dir = path.join(keep ?? work, `prof-${name}`);
    mkdirSync(dir, { recursive: true });
    const run = () =>
      spawnSync(
        nodeBin,
        [
          "--cpu-prof",
          "--cpu-prof-dir",
          dir,
          "--cpu-prof-interval",
          "100",
          path.join(root, "bin", "pep.js"),
          "peptides",
          "list",
          "-o",
          "json",
        ],
        { env: { ...env, ...more }, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" },
      );
    // Fills the ETag cache, and (warm) the code cache under the profiler's flags.
    for (let i = 0; i < 2; i++) run();
    for (const f of readdirSync(dir)) rmSync(path.join(dir, f));
    for (let i = 0; i < runs; i++) {
      const r = run();
      if (r.status !== 0) throw new Error(`pep exited ${r.status}: ${r.stderr}`);
    }
    results[name] = readdirSync(dir).map((f) => buckets(path.join(dir, f)));
  }
  const names = new Set(Object.values(results).flatMap((rs) => rs.flatMap((m) => [...m.keys()])));
  const median = (rs, b) =>
    quantile(
      rs.map((m) => m.get(b) ?? 0),
      0.5,
    );
  const total = (rs) =>
    quantile(
      rs.map((m) => [...m.values()].reduce((a, v) => a + v, 0)),
      0.5,
    );
  const rows = [...names].sort((a, b) => median(results.warm, b) - median(results.warm, a));
  const cell = (rs, b) => `${median(rs, b).toFixed(1)} ms (${Math.round((100 * median(rs, b)) / total(rs))}%)`;
  console.log(
    `Node ${spawnSync(nodeBin, ["--version"], { encoding: "utf8" }).stdout.trim()}, ${runs} runs each, medians`,
  );
  console.log("| Bucket | Cold | Warm |");
  console.log("|---|---|---|");
  for (const b of rows) console.log(`| ${b} | ${cell(results.cold, b)} | ${cell(results.warm, b)} |`);
  console.log(`| samples in all | ${total(results.cold).toFixed(1)} ms | ${total(results.warm).toFixed(1)} ms |`);
} finally {
  await sandbox.close();
  rmSync(work, { recursive: true, force: true });
}
