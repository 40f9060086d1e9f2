// 9. The local library: `pep sync studies` of the sandbox at scale 40 against exporting the
// same studies (`studies export -o ndjson --file`), a sync with nothing changed against the
// full one (every request a 304), `pep sql` counting 100,000 studies by evidence class, and
// peak RSS of a whole `pep sync` (every resource, the peptides' own answers too) at scale 40
// against scale 4; in SQLite (needs Node 22.5+) and, when a
// server is at hand (PEP_TEST_PG_URL, else scripts/pg-server.sh starts one), PostgreSQL.
// Then what item versions cost (versions.mjs): rows 9i-9l (SQLite) and 9m-9p (PostgreSQL).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import path from "node:path";
import { startBenchSandbox } from "./sandbox.mjs";
import { memoryTool } from "./memory.mjs";
import { interleave, lineCount, timed } from "./run.mjs";
import { ratioRow, summary } from "./stats.mjs";
import { runVersions } from "./versions.mjs";

export const LIBRARY_RUNS = 3;
export const SQL_RUNS = 7;
export const SQL_STUDIES = 100_000;
export const SYNC_ARGS = ["sync", "studies", "-o", "json", "-q"];
export const WHOLE_SYNC_ARGS = ["sync", "-o", "json", "-q"];
export const LIB_EXPORT_ARGS = ["studies", "export", "-o", "ndjson", "-q"];
export const SQL_QUERY = "SELECT evidence_classification, COUNT(*) AS n FROM studies GROUP BY 1";

function absoluteRow({ id, figure, unit, measured, target, meets }) {
  const m = summary(measured);
  return {
    id,
    figure,
    measured: { sum: m, unit },
    against: null,
    ratio: Number.NaN,
    pairs: [],
    target,
    met: meets(m.median),
  };
}

/** A fresh library per run: a new data folder (SQLite), or a new schema (PostgreSQL). */
function freshLibrary(ctx, store) {
  if (store.kind === "sqlite") return { PEP_DATA_DIR: mkdtempSync(path.join(ctx.tmp, "data-")) };
  return { PEP_DB: store.newSchema() };
}

const warmNotes = [];

/** `env` with an HTTP cache folder of its own, empty. */
function coldCache(ctx, env) {
  return { ...env, PEP_CACHE_DIR: mkdtempSync(path.join(ctx.tmp, "cache-")) };
}

function syncOnce(ctx, env) {
  const r = timed(ctx.node, [ctx.pep, ...SYNC_ARGS], { env, cwd: ctx.root });
  return { ms: r.ms, summary: JSON.parse(r.stdout) };
}

/** 9a/9b (or e/f): full sync vs export, interleaved; then re-syncs of one library vs its full sync. */
function syncRows(ctx, sandbox, store, ids) {
  const base = { ...ctx.env, PEP_BASE_URL: sandbox.baseUrl };
  const out = path.join(ctx.tmp, "library-export.ndjson");
  let studies = 0;
  const [syncMs, exportMs] = interleave(
    [
      () => {
        const s = syncOnce(ctx, { ...base, ...freshLibrary(ctx, store) });
        studies = s.summary.items;
        return s.ms;
      },
      // Cold, like the sync: its own HTTP cache each run, so every page comes whole (with
      // the shared cache every page after the first run would be a 304 from the cache).
      () => timed(ctx.node, [ctx.pep, ...LIB_EXPORT_ARGS, "--file", out], { env: coldCache(ctx, base), cwd: ctx.root }),
    ],
    LIBRARY_RUNS,
  );
  const warmEnv = coldCache(ctx, base);
  timed(ctx.node, [ctx.pep, ...LIB_EXPORT_ARGS, "--file", out], { env: warmEnv, cwd: ctx.root });
  const warm = [];
  for (let i = 0; i < LIBRARY_RUNS; i++)
    warm.push(timed(ctx.node, [ctx.pep, ...LIB_EXPORT_ARGS, "--file", out], { env: warmEnv, cwd: ctx.root }).ms);
  const line = `${store.label}: \`studies export -o ndjson --file\` with its HTTP cache warm (every page a 304 from the cache) took ${summary(warm).median.toFixed(0)} ms (median of ${LIBRARY_RUNS}); the full sync ${summary(syncMs).median.toFixed(0)} ms is ${(summary(syncMs).median / summary(warm).median).toFixed(2)}x that.`;
  ctx.log(`    ${line}`);
  warmNotes.push(line);
  const exported = lineCount(readFileSync(out, "utf8"));
  if (exported !== studies) throw new Error(`sync stored ${studies} studies, the export wrote ${exported}`);
  const full = [];
  const again = [];
  for (let i = 0; i < LIBRARY_RUNS; i++) {
    const fresh = { ...base, ...freshLibrary(ctx, store) };
    full.push(syncOnce(ctx, fresh).ms);
    const second = syncOnce(ctx, fresh);
    if (second.summary.not_modified !== second.summary.requests || second.summary.changed !== 0)
      throw new Error(`a sync with nothing changed was not all 304s: ${JSON.stringify(second.summary)}`);
    again.push(second.ms);
  }
  return [
    ratioRow({
      id: ids[0],
      figure: `${store.label}: \`pep sync studies\` (${studies.toLocaleString("en-US")} studies, scale 40) vs \`studies export -o ndjson --file\` (HTTP cache empty)`,
      unit: "ms",
      measured: syncMs,
      against: exportMs,
      target: "≤ 1.5x",
      meets: (r) => r <= 1.5,
    }),
    ratioRow({
      id: ids[1],
      figure: `${store.label}: sync again, nothing changed (every request a 304) vs the full sync`,
      unit: "ms",
      measured: again,
      against: full,
      target: "≤ 0.25x",
      meets: (r) => r <= 0.25,
    }),
  ];
}

/** A library of SQL_STUDIES studies: one sync, then copies of its rows under new ids. */
function bigLibrary(ctx, sandbox, store) {
  const lib = freshLibrary(ctx, store);
  const env = { ...ctx.env, PEP_BASE_URL: sandbox.baseUrl, ...lib };
  syncOnce(ctx, env);
  store.fill(lib, SQL_STUDIES);
  return env;
}

function sqlRow(ctx, sandbox, store, id) {
  const env = bigLibrary(ctx, sandbox, store);
  const args = ["sql", SQL_QUERY, "-o", "json"];
  const check = JSON.parse(timed(ctx.node, [ctx.pep, ...args], { env, cwd: ctx.root }).stdout);
  const total = check.reduce((n, r) => n + Number(r.n), 0);
  if (total !== SQL_STUDIES) throw new Error(`pep sql counted ${total} studies, expected ${SQL_STUDIES}`);
  const ms = [];
  for (let i = 0; i < SQL_RUNS; i++) ms.push(timed(ctx.node, [ctx.pep, ...args], { env, cwd: ctx.root }).ms);
  return absoluteRow({
    id,
    figure: `${store.label}: \`pep sql\` count by evidence class over ${SQL_STUDIES.toLocaleString("en-US")} studies (whole command)`,
    unit: "ms",
    measured: ms,
    target: "< 150 ms",
    meets: (v) => v < 150,
  });
}

function peakKb(stderr) {
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
  if (!m) throw new Error(`no peak RSS in: ${stderr.slice(-300)}`);
  return Number(m[1]);
}

async function rssRow(ctx, big, store, id) {
  const small = await startBenchSandbox({ sandboxModule: ctx.sandboxModule, scale: 4 });
  const tool = memoryTool(ctx);
  const mb = { big: [], small: [] };
  try {
    for (let i = 0; i < 2; i++) {
      for (const [key, sb] of [
        ["big", big],
        ["small", small],
      ]) {
        const [cmd, args] = tool.prefix(WHOLE_SYNC_ARGS);
        const r = timed(cmd, args, { env: { ...ctx.env, PEP_BASE_URL: sb.baseUrl, ...freshLibrary(ctx, store) } });
        mb[key].push(peakKb(r.stderr) / 1024);
      }
    }
  } finally {
    await small.close();
  }
  return ratioRow({
    id,
    figure: `${store.label}: peak RSS of a whole \`pep sync\` (every resource), scale 40 vs scale 4`,
    unit: "MB",
    measured: mb.big,
    against: mb.small,
    target: "≤ 1.3x",
    meets: (r) => r <= 1.3,
  });
}

/** SQLite: copies of the studies rows, with new ids, up to `n` rows (node:sqlite in this process). */
function sqliteStore(ctx) {
  return {
    kind: "sqlite",
    label: "SQLite",
    fill(lib, n) {
      const file = path.join(lib.PEP_DATA_DIR, "library", "default.sqlite");
      execFileSync(ctx.node, [path.join(ctx.benchDir, "library-fill.mjs"), "sqlite", file, String(n)], {
        stdio: "inherit",
      });
    },
  };
}

/** PostgreSQL at `url`: a new schema per library. */
function pgStore(ctx, url) {
  let n = 0;
  return {
    kind: "postgres",
    label: "PostgreSQL",
    newSchema() {
      const schema = `bench_${process.pid}_${n++}`;
      execFileSync(ctx.node, [path.join(ctx.benchDir, "library-fill.mjs"), "schema", url, schema], {
        stdio: "inherit",
      });
      const u = new URL(url);
      u.searchParams.set("options", `-c search_path=${schema}`);
      return u.toString();
    },
    fill(lib, count) {
      execFileSync(ctx.node, [path.join(ctx.benchDir, "library-fill.mjs"), "postgres", lib.PEP_DB, String(count)], {
        stdio: "inherit",
      });
    },
  };
}

function startPg(ctx) {
  if (process.env.PEP_TEST_PG_URL) return { url: process.env.PEP_TEST_PG_URL, stop() {} };
  try {
    const out = execFileSync("bash", [path.join(ctx.root, "scripts", "pg-server.sh"), "start"], { encoding: "utf8" });
    const url = /PEP_TEST_PG_URL=(\S+)/.exec(out)?.[1];
    const dir = /PEP_TEST_PG_DIR=(\S+)/.exec(out)?.[1];
    return {
      url,
      stop: () =>
        execFileSync("bash", [path.join(ctx.root, "scripts", "pg-server.sh"), "stop", dir], { stdio: "ignore" }),
    };
  } catch {
    return undefined;
  }
}

export async function runLibrary(ctx) {
  const rows = [];
  const notes = [];
  const sandbox = await startBenchSandbox({ sandboxModule: ctx.sandboxModule, scale: 40 });
  try {
    if (ctx.nodeMajor >= 22) {
      ctx.log("  SQLite");
      const store = sqliteStore(ctx);
      rows.push(...syncRows(ctx, sandbox, store, ["9a", "9b"]), sqlRow(ctx, sandbox, store, "9c"));
      rows.push(await rssRow(ctx, sandbox, store, "9d"));
      const v = runVersions(ctx, sandbox, store, ["9i", "9j", "9k", "9l"]);
      rows.push(...v.rows);
      notes.push(...v.notes);
    } else
      notes.push(`Library rows 9a-9d not run: Node ${process.version} has no node:sqlite (run the bench on Node 24).`);
    const pg = startPg(ctx);
    if (pg?.url) {
      ctx.log("  PostgreSQL");
      try {
        const store = pgStore(ctx, pg.url);
        rows.push(...syncRows(ctx, sandbox, store, ["9e", "9f"]), sqlRow(ctx, sandbox, store, "9g"));
        rows.push(await rssRow(ctx, sandbox, store, "9h"));
        const v = runVersions(ctx, sandbox, store, ["9m", "9n", "9o", "9p"]);
        rows.push(...v.rows);
        notes.push(...v.notes);
      } finally {
        pg.stop();
      }
    } else
      notes.push(
        "Library rows 9e-9h not run: no PostgreSQL server (PEP_TEST_PG_URL) and scripts/pg-server.sh could not start one.",
      );
  } finally {
    await sandbox.close();
  }
  notes.push(...warmNotes.splice(0));
  notes.push(
    `Library: each sync writes a fresh library (a new PEP_DATA_DIR, or a new PostgreSQL schema); the ${SQL_STUDIES.toLocaleString("en-US")}-study library is one sync at scale 40 whose studies rows are then copied under new ids (scripts/bench/library-fill.mjs); \`pep sql\` is timed as a whole command, start-up included. Rows 9a/9e time each export with an empty HTTP cache of its own, as the sync fetches every page whole.`,
  );
  return { rows, notes };
}
