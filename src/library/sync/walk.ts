/**
 * One resource's walk: every page of its default listing through the same paginator as
 * an export (http/paginate.ts), each page asked with `If-None-Match` when the library
 * knows it. A page that answers 304 costs no body: the library's `pages` row says which
 * items it holds and where the next page starts, so the walk goes on from there. Pages
 * are committed with the walk's checkpoint (`_pep_sync_state`: the next cursor) into the
 * resource's staging table, a few at a time and always when the walk ends or fails
 * (commitPage), so a walk cut short goes on from where it stopped; the resource table
 * itself changes only when the walk completes (merge.ts).
 */
import { LIMITS } from "../../api/enums.js";
import { stringifyExact } from "../../core/exact-number.js";
import { paginate, type RequestFn } from "../../http/paginate.js";
import type { ApiResponse, Client } from "../../http/client-types.js";
import type { Db } from "../db.js";
import { dataItemTexts, itemKey, type Rebase } from "../items.js";
import type { LibraryTable } from "../schema.js";
import type { SyncCounters } from "./counters.js";
import { typedValue } from "./pg-text.js";
import { movedWhileWalked, refusedCursor, resumeRefusal } from "./walk-resume.js";

/** The query of every walk: the API's default listing, the largest pages. */
export const WALK_QUERY = `limit=${LIMITS.pageMax}`;

interface PageRow {
  etag: string | null;
  next_cursor: string | null;
  item_ids: string;
}

interface Checkpoint {
  sync_id: number;
  started_at: string;
  cursor: string | null;
  ord_next: number;
  pages: number;
  /** Pages not yet committed (each its statements, the checkpoint last), since when (see commitPage). */
  batch?: { pages: Statement[][]; since: number };
  /** PostgreSQL: the commit still running while the walk reads on (flushPages). */
  writing?: Promise<void> | undefined;
  /** Ids the walk has met: a later copy of one is skipped (the first is kept, as an export does). */
  seen?: Set<string>;
  /** Items skipped as later copies of an id met before, in this run. */
  duplicates?: number;
}

export interface WalkOptions {
  db: Db;
  client: Client;
  lib: LibraryTable;
  syncId: number;
  now: () => string;
  /** Refetch every page whole: no If-None-Match, no resumed checkpoint. */
  full: boolean;
  signal: AbortSignal;
  counters: SyncCounters;
  /** Keeps the `meta` of an answer under a key (sync/answer-meta.ts). */
  keepMeta?: (key: string, meta: ApiResponse["meta"] | undefined) => Promise<void>;
  /** After each page: pages and items of this walk so far. */
  onPage?: (pages: number, items: number) => void;
  /** A line said even under -q: the walk starts over, items skipped. */
  notice?: (line: string) => void;
  /** The environment (PEP_RESUME_MAX_AGE: how old a cut-short walk may be and go on). */
  env?: Record<string, string | undefined>;
  /** The base URL the last sync used, when it differs from this one's. */
  rebase?: Rebase | undefined;
}

/**
 * Where the walk starts: its checkpoint, resumed when it still lines up with the API
 * (walk-resume.ts), or a new one (staging emptied) with one line saying why.
 */
async function startWalk(o: WalkOptions, restart?: string): Promise<Checkpoint> {
  const { db, lib } = o;
  const found = await db.get<Checkpoint & { query: string }>(
    "SELECT sync_id, started_at, query, cursor, ord_next, pages FROM _pep_sync_state WHERE resource = ?",
    [lib.name],
  );
  let why = restart;
  if (why === undefined && found && !o.full && found.query === WALK_QUERY) {
    const kept = { ...found, pages: Number(found.pages), ord_next: Number(found.ord_next) };
    why = await resumeRefusal({ ...o, query: WALK_QUERY, env: o.env ?? {} }, kept);
    if (why === undefined) return kept;
  }
  if (why !== undefined) o.notice?.(`${lib.name}: starting the walk over from the first page: ${why}`);
  const fresh: Checkpoint = { sync_id: o.syncId, started_at: o.now(), cursor: null, ord_next: 0, pages: 0 };
  await db.transaction(async (tx) => {
    await tx.run(`DELETE FROM "_pep_staged_${lib.table}"`);
    await tx.run("DELETE FROM _pep_staged_pages WHERE resource = ?", [lib.name]);
    await tx.run("DELETE FROM _pep_sync_state WHERE resource = ?", [lib.name]);
    await tx.run(
      "INSERT INTO _pep_sync_state (resource, sync_id, started_at, query, cursor, ord_next, pages) VALUES (?, ?, ?, ?, ?, ?, ?)",
      [lib.name, fresh.sync_id, fresh.started_at, WALK_QUERY, null, 0, 0],
    );
  });
  return fresh;
}

type StagedRow = { id: string; ord: number; item: unknown; text: string | null };
type Statement = { sql: string; params: unknown[] };

/** The statement staging a page's items whole, with their typed columns. */
function stageItems(o: WalkOptions, rows: StagedRow[]): Statement {
  const { lib } = o;
  // SQLite's staging table is built like the resource table (migrations.ts stagingTable):
  // its row is whole, so a first fill can become the table.
  const whole = o.db.dialect === "sqlite";
  const extra = whole ? ["first_seen", "last_seen", "last_sync", "synthetic"] : [];
  const cols = ["id", ...lib.columns.map((c) => `"${c.name}"`), "item", "ord", ...extra];
  const now = o.now();
  const params: unknown[] = [];
  for (const r of rows) {
    params.push(r.id);
    for (const c of lib.columns) params.push(r.text === null ? null : typedValue(o.db.dialect, r.item, c));
    params.push(r.text ?? (whole ? "" : null), r.ord);
    if (whole) params.push(now, now, o.syncId, o.counters.synthetic ? 1 : 0);
  }
  const one = `(${cols.map(() => "?").join(", ")})`;
  const set = cols
    .slice(1)
    .map((c) => `${c} = excluded.${c}`)
    .join(", ");
  const sql = `INSERT INTO "_pep_staged_${lib.table}" (${cols.join(", ")}) VALUES ${rows.map(() => one).join(", ")} ON CONFLICT (id) DO UPDATE SET ${set}`;
  return { sql, params };
}

/**
 * The statements that commit one page: its items staged (none for a 304 page: its page
 * row names them, see staged-pages.ts), its page row, and the checkpoint moved past it.
 */
function pageStatements(
  o: WalkOptions,
  cp: Checkpoint,
  page: { cursor: string; etag: string | null; next: string | null; ids: string[] },
  rows: StagedRow[],
): Statement[] {
  const out = rows.length > 0 ? [stageItems(o, rows)] : [];
  out.push({
    sql: `INSERT INTO _pep_staged_pages (resource, query, cursor, etag, next_cursor, item_ids, fetched_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (resource, query, cursor) DO UPDATE SET etag = excluded.etag, next_cursor = excluded.next_cursor, item_ids = excluded.item_ids, fetched_at = excluded.fetched_at`,
    params: [o.lib.name, WALK_QUERY, page.cursor, page.etag, page.next, JSON.stringify(page.ids), o.now()],
  });
  out.push({
    sql: "UPDATE _pep_sync_state SET cursor = ?, ord_next = ?, pages = ? WHERE resource = ?",
    params: [page.next, cp.ord_next + page.ids.length, cp.pages + 1, o.lib.name],
  });
  return out;
}

/** Pages of a walk are committed together, at most this many milliseconds or pages apart. */
export const COMMIT_EVERY = { ms: 200, pages: 5 };

/**
 * Commits one page with its checkpoint, together with the pages met in the last
 * COMMIT_EVERY (flushPages). In SQLite a commit per page rewrote the staging table's
 * touched index pages into the WAL each time (35 MB of WAL for an 18 MB library); in
 * PostgreSQL each commit is a round trip, so there only pages without a body (304s) wait
 * for others, and a page with a body is committed at once (one statement: see flushPages).
 * The walk commits what it holds when it ends, well or not (a server error, Ctrl-C,
 * SIGTERM), so a rerun starts after the last page met; only a process killed outright
 * loses those last pages, which the rerun asks again.
 */
async function commitPage(
  o: WalkOptions,
  cp: Checkpoint,
  page: { cursor: string; etag: string | null; next: string | null; ids: string[] },
  rows: StagedRow[],
): Promise<void> {
  const statements = pageStatements(o, cp, page, rows);
  cp.cursor = page.next;
  cp.ord_next += page.ids.length;
  cp.pages += 1;
  const pg = o.db.dialect === "postgres";
  if (pg && rows.length > 0) await flushPages(o, cp);
  cp.batch ??= { pages: [], since: Date.now() };
  cp.batch.pages.push(statements);
  const full = cp.batch.pages.length >= COMMIT_EVERY.pages || Date.now() - cp.batch.since >= COMMIT_EVERY.ms;
  if (full || (pg && rows.length > 0)) await flushPages(o, cp);
}

/**
 * Commits the pages held, in one transaction. In PostgreSQL that is one statement, its
 * parts as data-modifying WITH queries (one round trip): every page's rows, and the last
 * page's checkpoint (a statement may change a row once), not waited for: the server
 * writes while the walk reads the next page. The commit before is waited for first, so
 * commits land in order, a failure stops the walk at the next page; `committed` waits.
 */
async function flushPages(o: WalkOptions, cp: Checkpoint): Promise<void> {
  const batch = cp.batch;
  cp.batch = undefined;
  if (!batch || batch.pages.length === 0) return;
  if (o.db.dialect === "postgres") {
    const last = batch.pages.length - 1;
    const statements = batch.pages.flatMap((p, i) => (i === last ? p : p.slice(0, -1)));
    const parts = statements.map((st, i) => `s${i} AS (${st.sql})`);
    await committed(cp);
    const write = o.db.run(
      `WITH ${parts.join(", ")} SELECT 1`,
      statements.flatMap((st) => st.params),
    );
    write.catch(() => undefined); // met by the next flush or by `committed`, never unhandled
    cp.writing = write.then(() => undefined);
    return;
  }
  await o.db.transaction(async (tx) => {
    for (const st of batch.pages.flat()) await tx.run(st.sql, st.params);
  });
}

/** Waits for the commit still running (PostgreSQL), and fails as it failed. */
const committed = (cp: Checkpoint): Promise<void> | undefined => cp.writing?.finally(() => (cp.writing = undefined));

/** Pages asked ahead of the walk, from the cursors the last sync met (a re-sync's pages in a chain). */
export const READ_AHEAD = 6;

type Answer = Promise<{ res: ApiResponse; known: PageRow | undefined }>;

/**
 * A re-sync knows every cursor of the last walk (`pages`), so it need not wait for each
 * page to learn the next: it asks up to READ_AHEAD pages ahead at once, each with its
 * ETag. The walk still takes them in order, and where a page answers with another next
 * cursor than the one kept, the pages asked ahead of it are not used (their requests are
 * counted all the same).
 */
function readAhead(o: WalkOptions, path: string) {
  const chain = new Map<string, PageRow>();
  const asked = new Map<string, Answer>();
  const ask = (cursor: string, options: Parameters<RequestFn>[1]): Answer => {
    const known = chain.get(cursor);
    const query = { ...options?.query, cursor: cursor === "" ? undefined : cursor };
    const res = o.client.request(path, { ...options, query, noCache: true, ifNoneMatch: known?.etag ?? undefined });
    return res.then((r) => ({ res: r, known }));
  };
  return {
    async load(): Promise<void> {
      if (o.full) return;
      const rows = await o.db.all<PageRow & { cursor: string }>(
        "SELECT cursor, etag, next_cursor, item_ids FROM _pep_pages WHERE resource = ? AND query = ?",
        [o.lib.name, WALK_QUERY],
      );
      for (const r of rows) chain.set(r.cursor, r);
    },
    /** Asks the page at `cursor` ahead of the walk (a first walk learns each next cursor from the page before). */
    prefetch(cursor: string, options: Parameters<RequestFn>[1]): void {
      if (asked.has(cursor)) return;
      const a = ask(cursor, options);
      a.catch(() => undefined); // met (and thrown) when the walk takes it
      asked.set(cursor, a);
    },
    /** The answer for `cursor`, asked now unless asked ahead; asks the next pages of the chain ahead. */
    take(cursor: string, options: Parameters<RequestFn>[1]): Answer {
      const answer = asked.get(cursor) ?? ask(cursor, options);
      asked.delete(cursor);
      let next = chain.get(cursor)?.next_cursor ?? null;
      for (let i = 0; i < READ_AHEAD && next !== null; i++) {
        if (!asked.has(next)) {
          const a = ask(next, options);
          a.catch(() => undefined); // met (and thrown) when the walk takes it
          asked.set(next, a);
        }
        next = chain.get(next)?.next_cursor ?? null;
      }
      return answer;
    },
    /** Requests asked ahead that the walk did not take (counted, then dropped). */
    async settle(): Promise<number> {
      const left = [...asked.values()];
      asked.clear();
      await Promise.allSettled(left);
      return left.length;
    },
  };
}

/**
 * The rows a page's items are staged as: each item's text cut from the page as sent. A
 * later copy of an id met before is skipped (the first is kept, as an export keeps it),
 * and so is an item PostgreSQL cannot hold (a NUL character in its id or raw text), with
 * one line each and a count in the summary.
 */
function keptRows(o: WalkOptions, cp: Checkpoint, items: unknown[], texts: string[] | undefined): StagedRow[] {
  const rows: StagedRow[] = [];
  cp.seen ??= new Set();
  const seen = cp.seen;
  items.forEach((item, i) => {
    const text = texts?.length === items.length ? texts[i]! : (stringifyExact(item) ?? "null");
    const id = itemKey(item, text);
    if (seen.has(id)) {
      cp.duplicates = (cp.duplicates ?? 0) + 1;
      return;
    }
    if (o.db.dialect === "postgres" && (id.includes("\0") || text.includes("\0"))) {
      o.counters.skippedItems += 1;
      o.notice?.(
        `${o.lib.name}: skipped item ${JSON.stringify(id)}: it holds a NUL character, which PostgreSQL cannot keep`,
      );
      return;
    }
    seen.add(id);
    rows.push({ id, ord: cp.ord_next + rows.length, item, text });
  });
  return rows;
}

/** The request function the paginator walks with: conditional, staging each page as it lands. */
function stagingRequest(o: WalkOptions, cp: Checkpoint, ahead: ReturnType<typeof readAhead>): RequestFn {
  return async (_path, options) => {
    const cursor = typeof options?.query?.cursor === "string" ? options.query.cursor : "";
    const { res, known } = await ahead.take(cursor, options);
    o.counters.requests += 1;
    if (res.status === 304 && known) {
      o.counters.notModified += 1;
      const ids = JSON.parse(known.item_ids) as string[];
      for (const id of ids) cp.seen?.add(id);
      await commitPage(o, cp, { cursor, etag: res.etag ?? known.etag, next: known.next_cursor, ids }, []);
      return notModifiedPage(res, ids, known.next_cursor);
    }
    if (res.meta?.sandbox !== undefined) o.counters.synthetic = true;
    await o.keepMeta?.(`list:${o.lib.name}`, res.meta);
    const rows = keptRows(o, cp, Array.isArray(res.data) ? res.data : [], dataItemTexts(res.text));
    const next = res.pagination?.has_more ? (res.pagination.next_cursor ?? null) : null;
    // The next page is asked now, so the server works on it while this one is committed.
    if (next !== null) ahead.prefetch(next, options);
    await new Promise((resolve) => setImmediate(resolve));
    await commitPage(o, cp, { cursor, etag: res.etag ?? null, next, ids: rows.map((r) => r.id) }, rows);
    return res;
  };
}

/** A 304 page as the paginator reads it: the ids it holds and the cursor after it. */
function notModifiedPage(res: ApiResponse, ids: string[], next: string | null): ApiResponse {
  return { ...res, data: ids, pagination: { next_cursor: next, has_more: next !== null } };
}

/** The ids of the pages a resumed walk kept. */
async function keptIds(o: WalkOptions): Promise<Set<string>> {
  const rows = await o.db.all<{ item_ids: string }>(
    "SELECT item_ids FROM _pep_staged_pages WHERE resource = ? AND query = ?",
    [o.lib.name, WALK_QUERY],
  );
  return new Set(rows.flatMap((r) => JSON.parse(r.item_ids) as string[]));
}

/** The pages from the checkpoint on, into staging. */
async function walkPages(o: WalkOptions, cp: Checkpoint): Promise<void> {
  const ahead = readAhead(o, o.lib.endpoint.path);
  await ahead.load();
  const pages = paginate(stagingRequest(o, cp, ahead), o.lib.endpoint.path, {
    pageSize: LIMITS.pageMax,
    cursor: cp.cursor ?? undefined,
    signal: o.signal,
  });
  try {
    for await (const _ of pages) {
      if (pages.state.pageLeft === 0) o.onPage?.(cp.pages, cp.ord_next);
    }
  } catch (err) {
    // The pages met before the failure are kept: the rerun goes on after them.
    await flushPages(o, cp).catch(() => undefined);
    await committed(cp)?.catch(() => undefined);
    throw err;
  } finally {
    o.counters.requests += await ahead.settle();
  }
  await flushPages(o, cp);
  await committed(cp);
}

/**
 * Walks every page of the resource into staging, from its checkpoint; resolves to the
 * walk's first sync id and start time (a resumed walk began in an earlier run). A stored
 * cursor the API refuses starts the walk over.
 */
export async function walkResource(o: WalkOptions): Promise<{ startedAt: string; syncId: number }> {
  let cp = await startWalk(o);
  if (!(cp.pages > 0 && cp.cursor === null)) {
    cp.seen = await keptIds(o);
    const resumed = cp.pages;
    try {
      await walkPages(o, cp);
    } catch (err) {
      if (resumed === 0 || cp.pages !== resumed || !refusedCursor(err)) throw err;
      const status = (err as { status?: number }).status;
      cp = await startWalk(o, `the API refused the cursor it was to go on from (HTTP ${status})`);
      await walkPages(o, cp);
    }
    // A list that moved under the walk is read again, once: removals come from a walk that saw it as one.
    const moved = await movedWhileWalked({ ...o, query: WALK_QUERY, env: o.env ?? {} });
    if (moved !== undefined) {
      cp = await startWalk(o, `the list moved while it was read (${moved})`);
      await walkPages(o, cp);
    }
  }
  const n = cp.duplicates ?? 0;
  if (n > 0)
    o.notice?.(
      `${o.lib.name}: skipped ${n} duplicate item${n === 1 ? "" : "s"}: ${n === 1 ? "its id" : "their ids"} came on an earlier page (the first copy is kept, as online)`,
    );
  return { startedAt: cp.started_at, syncId: Number(cp.sync_id) };
}
