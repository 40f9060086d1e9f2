// 9, item versions (schema 4): what keeping them costs. A full `pep sync studies` at scale 40
// against the same sync by a pep without versions (PEP_BENCH_BASELINE: the bin/pep.js of a
// build of the commit before them; without it the rows that need it are left out, said in a
// note); what an unchanged re-sync adds to the version tables (rows, which must be none);
// `pep --offline --as-of <sync> studies list --all` against the same list `--offline`; and
// the library file after a full sync against the baseline's (SQLite). Times are pep's CPU
// time (user + system of the command and its children: rusage.py), which the load of a
// shared machine moves far less than wall time; wall time when there is no python3.
import { mkdtempSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { interleave, timed } from "./run.mjs";
import { ratioRow } from "./stats.mjs";

export const VERSION_RUNS = 5;
/**
 * The `--as-of` rows compare two commands of about the same cost (their target is parity),
 * and single runs of either move by 5-10% on a shared machine: five pairs could not tell
 * 1.0x from 1.1x.
 */
export const AS_OF_RUNS = 15;
const SYNC = ["sync", "studies", "-o", "json", "-q"];
const LIST = ["studies", "list", "--all", "-o", "ndjson", "-q"];

function fresh(ctx, store) {
  if (store.kind === "sqlite") return { PEP_DATA_DIR: mkdtempSync(path.join(ctx.tmp, "data-")) };
  return { PEP_DB: store.newSchema() };
}

/** Runs `node <argv>`; resolves to its CPU ms (else wall ms) and its stdout. */
function cpu(ctx, argv, env) {
  if (!ctx.python) {
    const r = timed(ctx.node, argv, { env, cwd: ctx.root });
    return { ms: r.ms, stdout: r.stdout };
  }
  const out = path.join(ctx.tmp, "versions-rusage.txt");
  const r = timed(ctx.python.exe, [path.join(ctx.benchDir, "rusage.py"), out, ctx.node, ...argv], {
    env,
    cwd: ctx.root,
  });
  return { ms: Number(readFileSync(out, "utf8").trim().split(" ")[1]), stdout: r.stdout };
}

const unit = (ctx) => (ctx.python ? "CPU ms" : "ms");

const sqliteFile = (lib) => path.join(lib.PEP_DATA_DIR, "library", "default.sqlite");

/** Rows of the two version tables, read with `pep sql`. */
function versionRows(ctx, env) {
  const q = "SELECT (SELECT COUNT(*) FROM item_versions) AS v, (SELECT COUNT(*) FROM _pep_walk_orders) AS o";
  const [r] = JSON.parse(timed(ctx.node, [ctx.pep, "sql", q, "-o", "json"], { env, cwd: ctx.root }).stdout);
  return Number(r.v) + Number(r.o);
}

/** Full sync (and, SQLite, the file it leaves) with versions vs without, interleaved. */
function fullSyncRows(ctx, base, store, baseline, ids) {
  const sizes = { now: [], before: [] };
  const run = (bin, key) => () => {
    const lib = fresh(ctx, store);
    const r = cpu(ctx, [bin, ...SYNC], { ...base, ...lib });
    if (store.kind === "sqlite") sizes[key].push(statSync(sqliteFile(lib)).size / 1e6);
    return r.ms;
  };
  const [now, before] = interleave([run(ctx.pep, "now"), run(baseline, "before")], VERSION_RUNS);
  const rows = [
    ratioRow({
      id: ids[0],
      figure: `${store.label}: full \`pep sync studies\` (scale 40) keeping item versions vs the pep before them`,
      unit: unit(ctx),
      measured: now,
      against: before,
      target: "≤ 1.1x",
      meets: (r) => r <= 1.1,
    }),
  ];
  if (store.kind === "sqlite")
    rows.push(
      ratioRow({
        id: ids[1],
        figure: `${store.label}: library file after a full sync of studies (scale 40), with versions vs the pep before them`,
        unit: "MB",
        measured: sizes.now.slice(-VERSION_RUNS),
        against: sizes.before.slice(-VERSION_RUNS),
        target: "≤ 1.2x",
        meets: (r) => r <= 1.2,
      }),
    );
  return rows;
}

/** An unchanged re-sync: the rows it adds to the version tables, and its time against the baseline's. */
function resyncRows(ctx, base, store, baseline, id) {
  const added = [];
  const run = (bin, count) => () => {
    const env = { ...base, ...fresh(ctx, store) };
    timed(ctx.node, [bin, ...SYNC], { env, cwd: ctx.root });
    const before = count ? versionRows(ctx, env) : 0;
    const r = cpu(ctx, [bin, ...SYNC], env);
    if (count) added.push(versionRows(ctx, env) - before);
    return r.ms;
  };
  if (!baseline) {
    run(ctx.pep, true)();
    return { rows: [], added };
  }
  const [now, before] = interleave([run(ctx.pep, true), run(baseline, false)], VERSION_RUNS);
  return {
    added,
    rows: [
      ratioRow({
        id,
        figure: `${store.label}: unchanged re-sync of studies keeping versions vs the pep before them (rows added to the version tables: ${added.join(", ")})`,
        unit: unit(ctx),
        measured: now,
        against: before,
        target: "≤ 1.1x, 0 rows",
        meets: (r) => r <= 1.1 && added.every((n) => n === 0),
      }),
    ],
  };
}

/** `--offline --as-of <the sync>` against `--offline`, the same whole list, interleaved. */
function asOfRow(ctx, base, store, id) {
  const env = { ...base, ...fresh(ctx, store) };
  const sync = JSON.parse(timed(ctx.node, [ctx.pep, ...SYNC], { env, cwd: ctx.root }).stdout).sync_id;
  const asOf = ["--offline", "--as-of", String(sync), ...LIST];
  const a = timed(ctx.node, [ctx.pep, ...asOf], { env, cwd: ctx.root }).stdout;
  const b = timed(ctx.node, [ctx.pep, "--offline", ...LIST], { env, cwd: ctx.root }).stdout;
  if (a !== b || a.length < 3) throw new Error("--as-of the last sync and --offline printed different lists");
  const [withAsOf, plain] = interleave(
    [() => cpu(ctx, [ctx.pep, ...asOf], env).ms, () => cpu(ctx, [ctx.pep, "--offline", ...LIST], env).ms],
    AS_OF_RUNS,
  );
  return ratioRow({
    id,
    figure: `${store.label}: \`pep --offline --as-of <sync> studies list --all\` vs the same list \`--offline\` (scale 40, ${Buffer.byteLength(a).toLocaleString("en-US")} bytes each)`,
    unit: unit(ctx),
    measured: withAsOf,
    against: plain,
    target: "≤ 1x",
    meets: (r) => r <= 1,
  });
}

export function runVersions(ctx, sandbox, store, ids) {
  const base = { ...ctx.env, PEP_BASE_URL: sandbox.baseUrl };
  const baseline = process.env.PEP_BENCH_BASELINE;
  const rows = [];
  const notes = [];
  if (baseline) rows.push(...fullSyncRows(ctx, base, store, baseline, ids.slice(0, 2)));
  const resync = resyncRows(ctx, base, store, baseline, ids[2]);
  rows.push(...resync.rows);
  rows.push(asOfRow(ctx, base, store, ids[3]));
  notes.push(
    baseline
      ? `${store.label} versions: the pep before them is ${baseline}; each sync writes a fresh library; an unchanged re-sync added ${resync.added.join(", ")} rows to item_versions and _pep_walk_orders.`
      : `${store.label} versions: rows ${ids[0]}-${ids[2]} need PEP_BENCH_BASELINE (bin/pep.js of a build of the commit before item versions) and were not run; an unchanged re-sync added ${resync.added.join(", ")} rows to item_versions and _pep_walk_orders.`,
  );
  return { rows, notes };
}
