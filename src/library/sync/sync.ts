/**
 * `pep sync`: fills the library from the API, resource by resource (walk.ts, then
 * merge.ts), then the details of peptides, vendors and studies (details.ts,
 * study-details.ts), and records the
 * sync in `syncs`. A keyed resource the key cannot read is skipped with one line. A
 * failure (a server error, Ctrl-C) leaves the sync `partial` and every committed page in
 * place: the same command goes on from where it stopped.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import type { Context } from "../../core/command-context.js";
import { ApiError, AuthError, PepError } from "../../core/errors.js";
import type { Client } from "../../http/client-types.js";
import { openLibrary, type Library } from "../open.js";
import type { Rebase } from "../items.js";
import type { LibraryResource } from "../../api/enums.js";
import { LIBRARY, type LibraryTable } from "../schema.js";
import { newCounters, type SyncCounters } from "./counters.js";
import { syncDetails } from "./details.js";
import { apiIdentity, bindLibrary } from "./binding.js";
import { lockForSync } from "./sync-lock.js";
import { lastSyncsChanged, markInterrupted } from "./sync-records.js";
import { mergeResource } from "./merge.js";
import { metaKeeper } from "./answer-meta.js";
import { type SyncProgress, syncProgress } from "./sync-progress.js";
import { chooseStudyDetails, dropStudyDetails, keepsStudyDetails, studyDetailIds } from "./study-details.js";
import { walkResource } from "./walk.js";

/** The endpoint of each resource whose items' own answers a sync keeps. */
const DETAIL_ENDPOINTS = { peptides: ENDPOINTS.peptide, vendors: ENDPOINTS.vendor, studies: ENDPOINTS.study } as const;

export interface SyncOptions {
  resources: readonly LibraryResource[];
  /** The user named them: same skipping, but the summary says they were asked for. */
  named: boolean;
  full: boolean;
  wait: boolean;
  /** `--study-details` (true) or `--no-study-details` (false): whether the library keeps every study's own answer from now on. */
  studyDetails?: boolean | undefined;
  /** `--rebind`: sync from this API though the library was synced from another. */
  rebind?: boolean;
  /** Told once per line: a resource's walk starting over, an item the library cannot keep. */
  notice?: (line: string) => void;
}

export interface SyncSummary {
  library: string;
  sync_id: number;
  status: "complete" | "partial";
  resources: string[];
  skipped: Array<{ resource: string; reason: string }>;
  items: number;
  added: number;
  changed: number;
  removed: number;
  /** Items (or their own answers) the library could not keep, each told in one line. */
  skipped_items: number;
  requests: number;
  not_modified: number;
  seconds: number;
  synthetic: boolean;
  /** `pep changes --since last` has rows: this sync, or a sync cut short since the last complete one, logged changes. */
  changes_found: boolean;
}

const version = () => (typeof __PEP_VERSION__ === "string" ? __PEP_VERSION__ : "0.0.0-dev");

async function startSync(lib: Library, client: Client, resources: readonly string[], at: string): Promise<number> {
  const row = await lib.db.get<{ id: number }>(
    "INSERT INTO syncs (started_at, base_url, pep_version, resources, status) VALUES (?, ?, ?, ?, 'running') RETURNING id",
    [at, client.baseUrl, version(), JSON.stringify(resources)],
  );
  return Number(row?.id);
}

/** The last sync's base URL, when this sync's differs from it (items.ts `Rebase`). */
async function baseUrlMoved(lib: Library, syncId: number, baseUrl: string): Promise<Rebase | undefined> {
  const last = await lib.db.get<{ base_url: string }>(
    "SELECT base_url FROM syncs WHERE id < ? AND base_url IS NOT NULL ORDER BY id DESC LIMIT 1",
    [syncId],
  );
  return last && last.base_url !== baseUrl ? { from: last.base_url, to: baseUrl } : undefined;
}

/** The API version from the index (GET /), asked conditionally, and whether it is the sandbox; undefined when it cannot say. */
async function apiVersion(lib: Library, client: Client, counters: SyncCounters, signal: AbortSignal) {
  const known = await lib.db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'index'");
  const kept = known
    ? (JSON.parse(known.value) as { etag: string | null; version: string | null; sandbox?: boolean })
    : undefined;
  try {
    const res = await client.request<{ api_version?: unknown; sandbox?: unknown; name?: unknown }>("/", {
      signal,
      noCache: true,
      ifNoneMatch: kept?.etag ?? undefined,
    });
    counters.requests += 1;
    if (res.status === 304 && kept) {
      counters.notModified += 1;
      if (kept.sandbox === true) counters.synthetic = true;
      return kept.version ?? undefined;
    }
    const v = typeof res.data?.api_version === "string" ? res.data.api_version : null;
    // The sandbox says so in its index: its data stays marked synthetic even when every page is a 304.
    const sandbox = res.data?.sandbox === true || res.meta?.sandbox !== undefined;
    if (sandbox) counters.synthetic = true;
    // Its name too, for a manifest of an answer from the library (the database as it named itself).
    const name = typeof res.data?.name === "string" ? res.data.name : null;
    const value = JSON.stringify({ etag: res.etag ?? null, version: v, sandbox, name });
    await lib.db.run(
      "INSERT INTO meta (key, value) VALUES ('index', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      [value],
    );
    return v ?? undefined;
  } catch (err) {
    if (err instanceof PepError && err.exitCode === 130) throw err;
    counters.requests += 1;
    return kept?.version ?? undefined;
  }
}

/** Why a keyed resource is skipped, when the key cannot read it; undefined otherwise. */
function refusal(err: unknown, lib: LibraryTable): string | undefined {
  if (!lib.keyed) return undefined;
  if (err instanceof AuthError) return `needs an API key with the ${lib.endpoint.scope} scope`;
  if (err instanceof ApiError && (err.status === 401 || err.status === 403))
    return `the key cannot read it (HTTP ${err.status}: needs the ${lib.endpoint.scope} scope)`;
  return undefined;
}

interface Run {
  ctx: Context;
  lib: Library;
  options: SyncOptions;
  syncId: number;
  counters: SyncCounters;
  progress: SyncProgress;
  now: () => string;
  keepMeta: ReturnType<typeof metaKeeper>;
  rebase: Rebase | undefined;
}

/** One resource: walk, merge, details. Resolves to a skip reason, or undefined when synced. */
async function syncResource(run: Run, res: LibraryTable): Promise<string | undefined> {
  const { ctx, lib, counters, options } = run;
  let client: Client;
  try {
    client = await ctx.client(res.endpoint);
  } catch (err) {
    const why = refusal(err, res);
    if (why) return why;
    throw err;
  }
  const base = {
    db: lib.db,
    client,
    syncId: run.syncId,
    now: run.now,
    full: options.full,
    signal: ctx.io.signal,
    counters,
    keepMeta: run.keepMeta,
    rebase: run.rebase,
    notice: (line: string) => (options.notice ?? ((l: string) => ctx.notice(l)))(line),
    env: ctx.io.env,
  };
  run.progress.start(res.name);
  try {
    await walkResource({ ...base, lib: res, onPage: (pages, items) => run.progress.page(res.name, pages, items) });
  } catch (err) {
    const why = refusal(err, res);
    if (why) return why;
    throw err;
  }
  const synthetic = counters.synthetic || (await ctx.config()).baseUrlSource === "sandbox";
  const t0 = Date.now();
  await mergeResource({
    db: lib.db,
    lib: res,
    syncId: run.syncId,
    now: run.now(),
    synthetic,
    counters,
    rebase: run.rebase,
  });
  ctx.debug(`library: ${res.name} merged in one transaction in ${Date.now() - t0} ms`);
  if (res.name === "studies" && !(await keepsStudyDetails(lib.db))) {
    const dropped = await dropStudyDetails(lib.db);
    if (dropped > 0) ctx.debug(`library: dropped ${dropped} study answers (--no-study-details)`);
  } else if (res.name === "peptides" || res.name === "vendors" || res.name === "studies") {
    const detailClient = await ctx.client(DETAIL_ENDPOINTS[res.name]);
    const ids = res.name === "studies" ? await studyDetailIds(lib.db, options.full) : undefined;
    try {
      await syncDetails({
        ...base,
        client: detailClient,
        resource: res.name,
        ...(ids ? { ids } : {}),
        onDone: (d, n) => run.progress.details(res.name, d, n),
      });
    } catch (err) {
      const why = refusal(err, res);
      if (why) return `details: ${why}`;
      throw err;
    }
  }
  run.progress.done(res.name);
  return undefined;
}

async function finishSync(run: Run, status: "complete" | "partial"): Promise<void> {
  const c = run.counters;
  const synthetic = c.synthetic || (await run.ctx.config()).baseUrlSource === "sandbox";
  await run.lib.db.run(
    `UPDATE syncs SET finished_at = ?, requests = ?, not_modified = ?, items = ?, added = ?, changed = ?, removed = ?, status = ?, synthetic = ? WHERE id = ?`,
    [
      run.now(),
      c.requests,
      c.notModified,
      c.items,
      c.added,
      c.changed,
      c.removed,
      status,
      synthetic ? 1 : 0,
      run.syncId,
    ],
  );
}

/** Runs a sync of `options.resources` into this run's library; resolves to its summary. */
export async function runSync(ctx: Context, options: SyncOptions, clock: { now(): number }): Promise<SyncSummary> {
  const started = clock.now();
  const now = () => new Date(clock.now()).toISOString();
  const first = await ctx.client(ENDPOINTS.index);
  let release: (() => Promise<void>) | undefined;
  const hold = async (l: Library) => {
    release = await lockForSync(l, {
      wait: options.wait,
      signal: ctx.io.signal,
      waiting: (line) => ctx.notice(line),
      notice: (line) => ctx.notice(line),
    });
  };
  const lib = await openLibrary(ctx, { write: true, hold });
  // Cleanups run last first: the lock goes, then the library is closed.
  ctx.onCleanup(() => release?.());
  const counters = newCounters();
  // The lock is ours: a sync still `running` is one whose process was killed.
  const killed = await markInterrupted(lib.db, now());
  if (killed > 0) ctx.debug(`library: marked ${killed} sync${killed === 1 ? "" : "s"} killed mid-way as interrupted`);
  const sandbox = (await ctx.config()).baseUrlSource === "sandbox";
  await bindLibrary(lib.db, apiIdentity(first.baseUrl, sandbox), {
    rebind: options.rebind === true,
    location: lib.location,
  });
  const syncId = await startSync(lib, first, options.resources, now());
  await chooseStudyDetails(lib.db, options.studyDetails);
  const progress = syncProgress(ctx);
  const rebase = await baseUrlMoved(lib, syncId, first.baseUrl);
  const run: Run = { ctx, lib, options, syncId, counters, progress, now, keepMeta: metaKeeper(lib.db), rebase };
  const skipped: SyncSummary["skipped"] = [];
  const synced: string[] = [];
  try {
    const v = await apiVersion(lib, first, counters, ctx.io.signal);
    if (v) await lib.db.run("UPDATE syncs SET api_version = ? WHERE id = ?", [v, syncId]);
    for (const name of options.resources) {
      const why = await syncResource(run, LIBRARY[name]);
      if (why === undefined) synced.push(name);
      else {
        skipped.push({ resource: name, reason: why });
        progress.skip(name, why);
      }
    }
  } catch (err) {
    progress.stop();
    await finishSync(run, "partial").catch(() => undefined);
    if (err instanceof PepError && err.exitCode !== 2) {
      // The same command goes on by itself: its resume line is that command, never a --cursor.
      err.resume = undefined;
      err.rerun = true;
      err.hints.push(
        options.full
          ? "the sync keeps every page it finished: pep sync without --full goes on from where it stopped"
          : "the sync keeps every page it finished: run the same pep sync again to go on from where it stopped",
      );
    }
    throw err;
  }
  progress.stop();
  await finishSync(run, "complete");
  const changed = await lastSyncsChanged(lib.db);
  return {
    library: lib.location,
    sync_id: syncId,
    status: "complete",
    resources: synced,
    skipped,
    items: counters.items,
    added: counters.added,
    changed: counters.changed,
    removed: counters.removed,
    skipped_items: counters.skippedItems,
    requests: counters.requests,
    not_modified: counters.notModified,
    seconds: Math.round((clock.now() - started) / 10) / 100,
    synthetic: counters.synthetic || (await ctx.config()).baseUrlSource === "sandbox",
    changes_found: changed,
  };
}
