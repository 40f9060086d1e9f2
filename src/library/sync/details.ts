/**
 * Each item's own answers, where a command shows more than the list does: for a peptide
 * its profile, research summary, regulatory status and cited studies; for a vendor its
 * profile; for a study its own answer (with each citing profile's summary), kept only
 * once `pep sync --study-details` has asked for it (sync/study-details.ts; without it, a
 * sync keeps none). One request each, a few at a time, asked with the ETag the library
 * holds (a 304 costs no body and rewrites nothing but the row's sync id). Each answer is written
 * in its own transaction; a changed body adds change rows (`<kind>/<field>`).
 */
import { expandPath } from "../../api/endpoints.js";
import { ApiError, InterruptedError } from "../../core/errors.js";
import { parseJsonExact, stringifyExact } from "../../core/exact-number.js";
import type { Client } from "../../http/client-types.js";
import type { Db, Queryable } from "../db.js";
import { dataItemTexts, dataText, fieldChanges, type Rebase, rebased } from "../items.js";
import { DETAIL_KINDS, type DetailKind, type DetailResource } from "../../api/enums.js";
import { detailEndpoint } from "../schema.js";
import type { SyncCounters } from "./counters.js";
import { jsonbSafe } from "./pg-text.js";

/** Detail requests in flight at once. */
export const DETAIL_CONCURRENCY = 4;

export interface DetailOptions {
  db: Db;
  client: Client;
  resource: DetailResource;
  /** The items whose details to ask, in this order; default: every item of the resource. */
  ids?: readonly string[];
  syncId: number;
  now: () => string;
  full: boolean;
  signal: AbortSignal;
  counters: SyncCounters;
  /** The base URL the last sync used, when it differs from this one's. */
  rebase?: Rebase | undefined;
  onDone?: (done: number, total: number) => void;
  /** Keeps the `meta` of an answer under a key (sync/answer-meta.ts). */
  keepMeta?: (key: string, meta: Awaited<ReturnType<Client["request"]>>["meta"] | undefined) => Promise<void>;
  /** A line said even under -q: an item whose answers cannot be asked. */
  notice?: (line: string) => void;
}

interface Known {
  etag: string | null;
  body: string;
}

/** The body column as text in either dialect. */
const bodyColumn = (db: Db) => (db.dialect === "sqlite" ? "body" : "body_text");

async function store(
  tx: Queryable,
  o: DetailOptions,
  key: { id: string; kind: DetailKind },
  text: string,
  etag: string | null,
): Promise<void> {
  const pg = o.db.dialect === "postgres";
  await tx.run(
    `INSERT INTO details (resource, id, kind, ${pg ? "body, body_text" : "body"}, etag, fetched_at, sync_id) VALUES (?, ?, ?, ${pg ? "?::jsonb, ?" : "?"}, ?, ?, ?)
     ON CONFLICT (resource, id, kind) DO UPDATE SET ${pg ? "body = excluded.body, body_text = excluded.body_text" : "body = excluded.body"}, etag = excluded.etag, fetched_at = excluded.fetched_at, sync_id = excluded.sync_id`,
    [o.resource, key.id, key.kind, ...(pg ? [jsonbSafe(text), text] : [text]), etag, o.now(), o.syncId],
  );
  if (o.resource === "peptides" && key.kind === "studies") {
    await tx.run("DELETE FROM peptide_studies WHERE peptide_id = ?", [key.id]);
    const list = parseJsonExact(text);
    if (!Array.isArray(list)) return;
    let position = 0;
    for (const study of list) {
      const sid = (study as { id?: unknown } | null)?.id;
      if (typeof sid !== "string") continue;
      await tx.run(
        "INSERT INTO peptide_studies (peptide_id, study_id, position) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
        [key.id, sid, position++],
      );
    }
  }
}

/** Change rows for a detail whose body differs from the one kept. */
async function recordChange(
  tx: Queryable,
  o: DetailOptions,
  id: string,
  kind: DetailKind,
  before: string,
  after: string,
) {
  const diffs = fieldChanges(parseJsonExact(rebased(before, o.rebase)), parseJsonExact(after), []);
  for (const d of diffs) {
    await tx.run(
      "INSERT INTO changes (sync_id, at, resource, id, kind, field, old_value, new_value) VALUES (?, ?, ?, ?, 'changed', ?, ?, ?)",
      [o.syncId, o.now(), o.resource, id, `${kind}/${d.field}`, d.old, d.new],
    );
  }
}

/** The items of a list answer of several pages (a peptide's cited studies), every page followed, as one JSON array text. */
async function restOfList(o: DetailOptions, path: string, first: Awaited<ReturnType<Client["request"]>>) {
  const texts = (page: Awaited<ReturnType<Client["request"]>>) =>
    dataItemTexts(page.text) ?? (Array.isArray(page.data) ? page.data : []).map((i) => stringifyExact(i) ?? "null");
  const parts = texts(first);
  const asked = new Set<string>();
  let cursor = first.pagination?.next_cursor ?? null;
  while (cursor !== null && !asked.has(cursor)) {
    asked.add(cursor);
    const page = await o.client.request(path, { query: { limit: 100, cursor }, signal: o.signal, noCache: true });
    o.counters.requests += 1;
    parts.push(...texts(page));
    cursor = page.pagination?.has_more ? (page.pagination.next_cursor ?? null) : null;
  }
  return `[${parts.join(",")}]`;
}

/** One detail: asked (conditionally), then kept. A 404 (gone since the list) drops it. */
async function fetchOne(o: DetailOptions, id: string, kind: DetailKind): Promise<void> {
  const { db } = o;
  const known = await db.get<Known>(
    `SELECT etag, ${bodyColumn(db)} AS body FROM details WHERE resource = ? AND id = ? AND kind = ?`,
    [o.resource, id, kind],
  );
  const endpoint = detailEndpoint(o.resource, kind);
  let path: string;
  try {
    path = expandPath(endpoint.path, { slug: id, id });
  } catch {
    // An id no path can name (`..`): the item stays in its table, its own answers cannot be asked.
    if (kind === DETAIL_KINDS[o.resource][0]) {
      o.counters.skippedItems += 1;
      o.notice?.(`${o.resource}: skipped the own answers of ${JSON.stringify(id)}: pep does not put that id in a path`);
    }
    return;
  }
  const query = endpoint.list ? { limit: 100 } : undefined;
  let res: Awaited<ReturnType<Client["request"]>>;
  try {
    res = await o.client.request(path, {
      ...(query ? { query } : {}),
      signal: o.signal,
      noCache: true,
      ifNoneMatch: o.full ? undefined : (known?.etag ?? undefined),
    });
  } catch (err) {
    o.counters.requests += 1;
    if (err instanceof ApiError && err.status === 404) {
      await db.run("DELETE FROM details WHERE resource = ? AND id = ? AND kind = ?", [o.resource, id, kind]);
      return;
    }
    throw err;
  }
  o.counters.requests += 1;
  if (res.status === 304 && known) {
    o.counters.notModified += 1;
    await db.run("UPDATE details SET sync_id = ? WHERE resource = ? AND id = ? AND kind = ?", [
      o.syncId,
      o.resource,
      id,
      kind,
    ]);
    return;
  }
  if (res.meta?.sandbox !== undefined) o.counters.synthetic = true;
  await o.keepMeta?.(`detail:${o.resource}:${kind}`, res.meta);
  const whole = endpoint.list && res.pagination?.has_more ? await restOfList(o, path, res) : undefined;
  const text = whole ?? dataText(res.text) ?? stringifyExact(res.data) ?? "null";
  // A list of several pages is asked whole each time: its first page's ETag does not cover the rest.
  const etag = whole === undefined ? (res.etag ?? null) : null;
  if (known && known.body === text) {
    await db.run("UPDATE details SET etag = ?, sync_id = ? WHERE resource = ? AND id = ? AND kind = ?", [
      etag,
      o.syncId,
      o.resource,
      id,
      kind,
    ]);
    return;
  }
  await db.transaction(async (tx) => {
    if (known) await recordChange(tx, o, id, kind, known.body, text);
    await store(tx, o, { id, kind }, text, etag);
  });
}

/**
 * Every detail of every item of the resource, DETAIL_CONCURRENCY at a time. The first
 * failure stops the rest (what was written stays: the next sync asks again, cheaply).
 */
export async function syncDetails(o: DetailOptions): Promise<void> {
  const table = o.resource;
  const ids = o.ids ?? (await o.db.all<{ id: string }>(`SELECT id FROM "${table}" ORDER BY ord`)).map((r) => r.id);
  const jobs = ids.flatMap((id) => DETAIL_KINDS[o.resource].map((kind: DetailKind) => ({ id, kind })));
  let next = 0;
  let done = 0;
  let failed: unknown;
  const worker = async () => {
    while (failed === undefined && next < jobs.length) {
      if (o.signal.aborted) throw new InterruptedError();
      const job = jobs[next++]!;
      try {
        await fetchOne(o, job.id, job.kind);
      } catch (err) {
        failed ??= err;
        return;
      }
      done += 1;
      o.onDone?.(done, jobs.length);
    }
  };
  await Promise.all(Array.from({ length: Math.min(DETAIL_CONCURRENCY, jobs.length) }, worker));
  if (failed !== undefined) throw failed;
}
