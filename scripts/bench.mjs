#!/usr/bin/env node
// `npm run bench`: start-up, export throughput, memory, pacing and revalidation of pep
// against baselines measured in the same run, written to bench/RESULTS.md. Not part of
// `npm test`. Needs dist/ (built by `npm install`); takes a few minutes.
//
//   node scripts/bench.mjs                 every section, rewrites bench/RESULTS.md
//   node scripts/bench.mjs --only 1,4      some sections, printed only
//   node scripts/bench.mjs --package DIR   bench DIR's bin/ and dist/ (e.g. an older build)
//   PEP_BENCH_BASELINE=OLD/bin/pep.js node scripts/bench.mjs --only 9
//                                          section 9's item-versions rows against a build
//                                          of the commit before them (else left out)
//
// bin/, dist/ and package.json are copied to a temp folder first, so a rebuild during the
// run cannot pull files from under it.
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startBenchSandbox } from "./bench/sandbox.mjs";
import { runStartupSection, startupCommands, STARTUP_RUNS } from "./bench/startup.mjs";
import { buildDepsFloor, findPython, FLOOR_RUNS, floorCommands, runStartupFloors } from "./bench/startup-floor.mjs";
import { EXPORT_ARGS, EXPORT_LIMIT, EXPORT_RUNS, runExport } from "./bench/export.mjs";
import { memoryArgs, MEMORY_FORMATS, MEMORY_RUNS, MEMORY_SIZES, runMemory } from "./bench/memory.mjs";
import { PACING_ARGS, PACING_LIMIT, PACING_PAGES, PACING_RUNS, runPacing } from "./bench/pacing.mjs";
import { LIST_ARGS, REVALIDATE_RUNS, runRevalidate } from "./bench/revalidate.mjs";
import { table, writeReport } from "./bench/report.mjs";
import { runCompression } from "./bench/compression.mjs";
import { BATCH_IDS, BATCH_RUNS, JQ_RUNS, runBatch } from "./bench/batch.mjs";
import {
  LIB_EXPORT_ARGS,
  LIBRARY_RUNS,
  runLibrary,
  SQL_QUERY,
  SQL_RUNS,
  SYNC_ARGS,
  WHOLE_SYNC_ARGS,
} from "./bench/library.mjs";
import { OFFLINE_RUNS, offlineArgs, runOffline } from "./bench/offline.mjs";
import { MCP_STARTUP_RUNS, runMcpStartup } from "./bench/mcp-startup.mjs";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const started = Date.now();
const log = (line) => process.stderr.write(`${line}\n`);

const onlyArg = process.argv.indexOf("--only");
const only = onlyArg > 0 ? new Set(process.argv[onlyArg + 1].split(",")) : undefined;
const wants = (n) => !only || only.has(String(n));
const packageArg = process.argv.indexOf("--package");
const source = packageArg > 0 ? path.resolve(process.argv[packageArg + 1]) : root;

if (!existsSync(path.join(source, "dist", "main.js")) || !existsSync(path.join(source, "dist", "sandbox.js"))) {
  if (source !== root) throw new Error(`${source} has no dist/: build it first`);
  log("dist/ is missing: building it (npm run build)");
  execFileSync(process.execPath, [path.join(root, "scripts", "build.mjs")], { cwd: root, stdio: "inherit" });
}

const has = (tool) => spawnSync("sh", ["-c", `command -v ${tool}`], { stdio: "ignore" }).status === 0;
const tmp = mkdtempSync(path.join(os.tmpdir(), "pep-bench-"));
const pkg = path.join(tmp, "pkg");
mkdirSync(pkg);
for (const part of ["bin", "dist", "package.json"])
  cpSync(path.join(source, part), path.join(pkg, part), { recursive: true });
symlinkSync(path.join(root, "node_modules"), path.join(pkg, "node_modules"), "dir");
const version = JSON.parse(readFileSync(path.join(pkg, "package.json"), "utf8")).version;

// Only what pep needs, with its own config and cache folders: nothing from the caller's
// PEP_* settings or profiles leaks into a figure.
const env = { PATH: process.env.PATH, HOME: tmp, LANG: "C.UTF-8", NO_COLOR: "1" };
Object.assign(env, {
  PEP_CONFIG_DIR: mkdtempSync(path.join(tmp, "config-")),
  PEP_CACHE_DIR: mkdtempSync(path.join(tmp, "cache-")),
  PEP_API_KEY: "sbx_full_key",
});

const ctx = {
  root,
  tmp,
  env,
  log,
  version,
  node: process.execPath,
  nodeMajor: Number(process.versions.node.split(".")[0]),
  python: findPython(),
  pep: path.join(pkg, "bin", "pep.js"),
  sandboxModule: path.join(pkg, "dist", "sandbox.js"),
  benchDir: path.join(root, "scripts", "bench"),
  tools: { curl: has("curl"), jq: has("jq") },
};

const rows = [];
const notes = [
  "Every run gets a minimal environment (PATH, HOME, LANG, NO_COLOR and the PEP_* variables above). Inherited NODE_OPTIONS or NODE_EXTRA_CA_CERTS would add the same cost to pep and to bare node (the latter about 45 ms a start here) and flatter the ratios.",
];
const extra = { pacingPages: PACING_PAGES };
let memoryTool = "";

try {
  if (wants(1) || wants(2) || wants(5) || wants(10)) {
    log("sandbox at scale 40");
    const sandbox = await startBenchSandbox({ sandboxModule: ctx.sandboxModule, scale: 40 });
    try {
      if (wants(1)) {
        log("1. start-up");
        ctx.depsFloor = await buildDepsFloor(ctx);
        const r = runStartupSection(ctx, sandbox, runStartupFloors);
        rows.push(...r.rows);
        notes.push(...r.notes, ...startupNotes(ctx));
      }
      if (wants(2)) {
        log("2. export throughput");
        const r = runExport(ctx, sandbox);
        rows.push(...r.rows);
        notes.push(...r.notes);
      }
      if (wants(5)) {
        log("5. revalidation");
        const r = await runRevalidate(ctx, sandbox);
        rows.push(...r.rows);
        notes.push(
          `The list body printed is ${r.bodyBytes.toLocaleString("en-US")} bytes; byte counts are what pep read from its socket to the proxy, headers included.`,
        );
      }
      if (wants(10)) {
        log("10. offline");
        const r = runOffline(ctx, sandbox);
        rows.push(...r.rows);
        notes.push(...r.notes);
      }
    } finally {
      await sandbox.close();
    }
  }
  if (wants(3)) {
    log("3. memory (sandbox at scale 100)");
    const sandbox = await startBenchSandbox({ sandboxModule: ctx.sandboxModule, scale: 100 });
    try {
      const r = runMemory(ctx, sandbox);
      rows.push(...r.rows);
      memoryTool = r.tool;
      notes.push(`Peak RSS measured with ${r.tool}; each export's output was checked to hold 1,000 or 30,000 studies.`);
    } finally {
      await sandbox.close();
    }
  }
  if (wants(4)) {
    log("4. pacing");
    const r = await runPacing(ctx);
    rows.push(...r.rows);
    extra.pacingWall = r.wall;
    extra.minimumS = r.minimumS;
    notes.push(
      `Pacing: each run has a fresh sandbox whose ${PACING_LIMIT.requests}/${PACING_LIMIT.seconds}s windows start at its first request; the minimum is (ceil(${PACING_PAGES}/${PACING_LIMIT.requests}) - 1) x ${PACING_LIMIT.seconds} s. 429s are counted by the proxy and cross-checked against pep's -v log.`,
    );
  }
  // 6. Compression: bytes received and a throttled link, with and without (its own section).
  if (wants(6)) {
    log("6. compression");
    const r = await runCompression(ctx);
    rows.push(...r.rows);
    notes.push(...r.notes);
  }
  // 7 and 8: batch lookups and --jq (their own sandbox and rows).
  if (wants(7) || wants(8)) {
    log("7-8. batch lookups and --jq");
    const r = await runBatch(ctx);
    rows.push(...r.rows);
    notes.push(...r.notes);
  }
  // 9. The local library: sync vs export, re-sync, pep sql, memory; SQLite and PostgreSQL.
  if (wants(9)) {
    log("9. local library");
    const r = await runLibrary(ctx);
    rows.push(...r.rows);
    notes.push(...r.notes);
  }
  // 11. pep mcp start-up against a bare stdio responder and the MCP SDK alone.
  if (wants(11)) {
    const r = await runMcpStartup(ctx);
    rows.push(...r.rows);
    notes.push(...r.notes);
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

rows.sort((a, b) => a.id.localeCompare(b.id));
const cpus = os.cpus();
const machine = [
  `Machine: ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB memory, ${os.type()} ${os.release()} ${os.arch()}; load average at the end ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(" ")}`,
  `Node ${process.version}; pep ${version}, ${source === root ? `built from commit ${gitCommit()}` : `the build in ${source}`}`,
  `Date: ${new Date(started).toISOString()}; the whole bench took ${((Date.now() - started) / 1000).toFixed(0)} s`,
];
const pepCmd = (args) => `node bin/pep.js ${args.join(" ")}`;
const commands = [
  "# Every pep run: PEP_CONFIG_DIR and PEP_CACHE_DIR in fresh temp folders, PEP_API_KEY=sbx_full_key, NO_COLOR=1,",
  "# PEP_BASE_URL=<sandbox>/v1: startSandbox({ scale }) from dist/sandbox.js in a child process (scripts/bench/sandbox-child.mjs),",
  "# directly for 1-3, through its counting proxy for 4-5.",
  `# 1. start-up, on this machine's Node and on Node 24 (node = scripts/test-node.sh --fetch 24), sandbox scale 40:`,
  `# 1a-1c ${STARTUP_RUNS} interleaved pairs each against node -e 0; 1d-1i ${FLOOR_RUNS} interleaved rounds of all six`,
  "node -e 0",
  ...startupCommands(ctx).map((c) => pepCmd(c.args)),
  floorCommands(ctx).http,
  floorCommands(ctx).python,
  floorCommands(ctx).deps,
  `NODE_DISABLE_COMPILE_CACHE=1 ${pepCmd(["peptides", "list", "-o", "json"])}`,
  `# 2. export, ${EXPORT_RUNS} interleaved rounds (sandbox scale 40); each writes to a file, checked for ${EXPORT_LIMIT} lines`,
  `${pepCmd(EXPORT_ARGS)} > out.ndjson`,
  `node scripts/bench/floor-export.mjs <sandbox>/v1 ${EXPORT_LIMIT} 100 > out.ndjson`,
  `bash scripts/bench/curl-jq.sh <sandbox>/v1 ${EXPORT_LIMIT} 100 > out.ndjson`,
  `# 3. memory, ${MEMORY_RUNS} runs each (sandbox scale 100: 30,000 studies)${memoryTool === "maxrss.mjs" ? "; no GNU time, so node scripts/bench/maxrss.mjs bin/pep.js ..." : ""}`,
  ...MEMORY_FORMATS.flatMap((f) => MEMORY_SIZES.map((n) => `/usr/bin/time -v ${pepCmd(memoryArgs(f, n))} > out.${f}`)),
  `# 4. pacing, ${PACING_RUNS} runs (sandbox scale 14, rateLimit ${PACING_LIMIT.requests}/${PACING_LIMIT.seconds}s, windows from the first request)`,
  `${pepCmd(PACING_ARGS)} > out.ndjson`,
  `# 5. revalidation: one run to fill the cache, then ${REVALIDATE_RUNS} interleaved pairs`,
  pepCmd(LIST_ARGS),
  pepCmd([...LIST_ARGS, "--no-cache"]),
  `# 6. compression: the export with and without --no-compress, through the counting proxy and on a throttled link`,
  `# 7. ${BATCH_IDS} lookups (PEP_NO_CACHE=1), ${BATCH_RUNS} interleaved rounds; ids.txt = the profile ids repeated`,
  `${pepCmd(["peptides", "get", "-", "-o", "ndjson"])} < ids.txt`,
  `while read -r id; do ${pepCmd(["peptides", "get", '"$id"', "-o", "json"])}; done < ids.txt`,
  'while read -r id; do curl -sS --fail -H "Authorization: Bearer $PEP_API_KEY" "<sandbox>/v1/peptides/$id"; done < ids.txt',
  `# 8. --jq against the system's jq, ${JQ_RUNS} interleaved rounds`,
  `${pepCmd(["studies", "export", "-o", "ndjson", "--page-size", "100", "--limit", "10000", "--jq", ".id", "--jq-raw"])}`,
  `${pepCmd(["studies", "export", "-o", "ndjson", "--page-size", "100", "--limit", "10000"])} | jq -r .id`,
  `# 9. local library (sandbox scale 40; SQLite on Node 22.5+, PostgreSQL from PEP_TEST_PG_URL or scripts/pg-server.sh): ${LIBRARY_RUNS} interleaved rounds, each sync into a fresh library (PEP_DATA_DIR or PEP_DB=<url with its own schema>)`,
  pepCmd(SYNC_ARGS),
  `${pepCmd([...LIB_EXPORT_ARGS, "--file", "out.ndjson"])}`,
  `${pepCmd(SYNC_ARGS)}  # again, nothing changed: every request a 304`,
  `${pepCmd(["sql", `"${SQL_QUERY}"`, "-o", "json"])}  # ${SQL_RUNS} runs, 100,000 studies`,
  `/usr/bin/time -v ${pepCmd(WHOLE_SYNC_ARGS)}  # scale 40 and scale 4, 2 interleaved rounds`,
  `# 10. offline (Node 22.5+), sandbox scale 40: the library filled once by pep sync, then ${OFFLINE_RUNS} interleaved pairs`,
  `PEP_DATA_DIR=<tmp> ${pepCmd(["sync", "peptides", "studies"])}`,
  `PEP_DATA_DIR=<tmp> ${pepCmd(["--offline", ...offlineArgs("X")])}`,
  pepCmd(offlineArgs("X")),
  `# 11. pep mcp start-up, ${MCP_STARTUP_RUNS} interleaved rounds of three on each Node, timed from spawn to the answer line`,
  "node scripts/bench/mcp-bare.mjs   # answers initialize, then tools/list, with nothing loaded",
  "node <tmp>/mcp-sdk-floor.mjs      # scripts/bench/mcp-sdk-floor.mjs bundled: the MCP SDK's server, no tools",
  "PEP_BASE_URL=http://127.0.0.1:9/v1 node bin/pep.js mcp   # initialize, then tools/list",
];

if (only) {
  process.stdout.write(`${table(rows)}\n`);
  log(`(--only: bench/RESULTS.md left as it was) ${((Date.now() - started) / 1000).toFixed(0)} s`);
} else {
  const file = path.join(root, "bench", "RESULTS.md");
  writeReport(file, { machine, commands, rows, notes, extra });
  process.stdout.write(
    `${table(rows)}\n\nwrote ${path.relative(root, file)} in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
}

/** What the start-up rows rest on, for the notes. */
function startupNotes(ctx) {
  return [
    ctx.python
      ? `Python floor: ${ctx.python.version}, run as ${ctx.python.exe} (sys.executable of \`python3\`, so no version manager's shim is timed).`
      : "Python floor not run: no python3 on PATH.",
    "pep's list runs find their code cache warm (the check run before the timed ones fills it; the dependencies floor has a cache folder of its own) and their ETag cache filled (a 304, the stored body printed); the floors fetch the whole body.",
  ];
}

function gitCommit() {
  const r = spawnSync("git", ["rev-parse", "--short", "HEAD"], { cwd: root, encoding: "utf8" });
  return r.status === 0 ? r.stdout.trim() : "unknown";
}
