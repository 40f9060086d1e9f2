/**
 * `--as-of <sync id | date>`: which complete sync an answer is read as of, and what the
 * library held of a resource then (docs/library.md, "Versions"): the order of ids its last
 * kept walk at or before that sync saw (`_pep_walk_orders`), each item's text as sent
 * then (a version of `item_versions` that covers the sync, else the current row when its
 * text is valid from that sync or earlier). Nothing is rebuilt from field changes: what
 * the library did not keep is refused (exit 2, library_not_kept), never guessed.
 */
import type { LibraryResource } from "../api/enums.js";
import { LibraryError, UsageError } from "../core/errors.js";
import { orderIds } from "./item-versions.js";
import { LIBRARY } from "./schema.js";

/** The part of a store as-of reads. */
export interface AsOfSource {
  readonly dialect: "sqlite" | "postgres";
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
}

/** The complete sync an answer is read as of. */
export interface AsOfSync {
  /** As given (`3`, `2026-03-01`). */
  given: string;
  id: number;
  finishedAt: string;
  baseUrl: string | undefined;
  apiVersion: string | undefined;
}

const notKept = (
  why: string,
  hint = "`pep sync --status` and `pep changes` show the syncs the library holds",
  flag = "--as-of",
) => new LibraryError("library_not_kept", `${flag}: ${why}`, { hints: [hint] });

/**
 * `--as-of`'s value: a sync id (digits), or a date (`2026-03-01`, the end of that day UTC)
 * or a time (ISO 8601). Anything else is exit 2 naming the flag.
 */
export function parseAsOf(value: string, flag = "--as-of"): { syncId: number } | { before: string } {
  const v = value.trim();
  if (/^[1-9][0-9]{0,14}$/.test(v)) return { syncId: Number(v) };
  const day = /^\d{4}-\d{2}-\d{2}$/.test(v);
  const t = Date.parse(day ? `${v}T23:59:59.999Z` : v);
  if (!Number.isFinite(t) || !/^\d{4}-\d{2}-\d{2}/.test(v))
    throw new UsageError(
      `${flag} takes a sync id (a number, as pep sync --status shows) or a date or time (2026-03-01, 2026-03-01T12:00Z); got "${value}"`,
    );
  return { before: new Date(t).toISOString() };
}

type SyncRow = { id: unknown; finished_at: unknown; base_url: unknown; api_version: unknown; status: unknown };

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

function asSync(given: string, r: SyncRow): AsOfSync {
  return {
    given,
    id: Number(r.id),
    finishedAt: String(r.finished_at),
    baseUrl: text(r.base_url),
    apiVersion: text(r.api_version),
  };
}

const SYNC_COLS = "id, finished_at, base_url, api_version, status";

/** The complete sync `--as-of` names: that sync, or the last complete one finished at or before the date. */
export async function resolveAsOf(db: Pick<AsOfSource, "all">, given: string, flag = "--as-of"): Promise<AsOfSync> {
  const at = parseAsOf(given, flag);
  if ("syncId" in at) {
    const [row] = await db.all<SyncRow>(`SELECT ${SYNC_COLS} FROM syncs WHERE id = ?`, [at.syncId]);
    if (!row)
      throw notKept(`the library holds no sync ${at.syncId} (never made, or its record was pruned)`, undefined, flag);
    if (row.status !== "complete" || row.finished_at === null)
      throw notKept(
        `sync ${at.syncId} is not complete (${String(row.status)}): name a complete sync or a date`,
        undefined,
        flag,
      );
    return asSync(given, row);
  }
  const [row] = await db.all<SyncRow>(
    `SELECT ${SYNC_COLS} FROM syncs WHERE status = 'complete' AND finished_at IS NOT NULL AND finished_at <= ? ORDER BY id DESC LIMIT 1`,
    [at.before],
  );
  if (row) return asSync(given, row);
  const [first] = await db.all<{ f: unknown }>(
    "SELECT MIN(finished_at) AS f FROM syncs WHERE status = 'complete' AND finished_at IS NOT NULL",
  );
  throw notKept(
    first?.f
      ? `${given} is before the library's first complete sync (${String(first.f)})`
      : "the library holds no complete sync",
    undefined,
    flag,
  );
}

/** What the library held of one resource as of a sync. */
export interface ResourceAsOf {
  /** The sync whose complete walk answered: the last at or before the as-of sync. */
  walkSyncId: number;
  walkFinishedAt: string;
  /** The ids in the walk's order. */
  ids: string[];
  /** Each id's place in `ids` (made when first asked: a list never asks). */
  place(): Map<string, number>;
  /** The texts of items as of the sync that are no longer the current ones, by id. */
  older: Map<string, string>;
  /**
   * The walk's order is likely the table's (its order row is the last kept, and `ord` runs
   * from 0 to n - 1): a place is then an `ord`, and a run of items one range read, as
   * `--offline` reads (rangeAsOf checks the ids it read).
   */
  sameOrder: boolean;
}

/** The resource as the library knew it at `sync`; refused when it kept no walk of it by then. */
export async function resourceAsOf(db: AsOfSource, resource: LibraryResource, sync: AsOfSync): Promise<ResourceAsOf> {
  const [order] = await db.all<{ sync_id: unknown; ids: unknown }>(
    "SELECT sync_id, ids FROM _pep_walk_orders WHERE resource = ? AND sync_id <= ? ORDER BY sync_id DESC LIMIT 1",
    [resource, sync.id],
  );
  const ids = order ? orderIds(order.ids) : undefined;
  if (!order || !ids)
    throw notKept(
      `the library kept no walk of ${resource} at or before sync ${sync.id} (not synced by then, synced before the library kept versions, or pruned)`,
      `\`pep sync ${resource}\` keeps it from now on; \`pep changes --from\` names what the library holds`,
    );
  // The walk that answered: the last complete sync at or before this one that took the
  // resource, unless a later (partial) sync's walk changed it.
  const [walk] = await db.all<{ id: unknown; finished_at: unknown }>(
    `SELECT id, finished_at FROM syncs WHERE id <= ? AND id >= ? AND status = 'complete' AND finished_at IS NOT NULL AND resources LIKE ? ORDER BY id DESC LIMIT 1`,
    [sync.id, Number(order.sync_id), `%"${resource}"%`],
  );
  const [changedBy] = walk
    ? [walk]
    : await db.all<{ id: unknown; finished_at: unknown }>("SELECT id, finished_at FROM syncs WHERE id = ?", [
        Number(order.sync_id),
      ]);
  const older = new Map<string, string>();
  const rows = await db.all<{ id: unknown; item: unknown }>(
    "SELECT id, item FROM item_versions WHERE resource = ? AND valid_to > ? AND valid_from <= ?",
    [resource, sync.id, sync.id],
  );
  for (const r of rows) older.set(String(r.id), String(r.item));
  const [latest] = await db.all<{ s: unknown }>("SELECT MAX(sync_id) AS s FROM _pep_walk_orders WHERE resource = ?", [
    resource,
  ]);
  // The ends of `ord` only, read from its index: a COUNT(*) read the whole table (20 ms for
  // 12,000 studies in PostgreSQL). A table whose places have gaps between those ends is
  // met by rangeAsOf, which checks every range's ids and reads by id where they differ.
  const [span] = await db.all<{ lo: unknown; hi: unknown }>(
    `SELECT MIN(ord) AS lo, MAX(ord) AS hi FROM "${LIBRARY[resource].table}"`,
  );
  const empty = span?.lo === null || span?.lo === undefined;
  let place: Map<string, number> | undefined;
  const sameOrder =
    Number(latest?.s) === Number(order.sync_id) &&
    (ids.length === 0 ? empty : !empty && Number(span?.lo) === 0 && Number(span?.hi) === ids.length - 1);
  return {
    sameOrder,
    walkSyncId: Number(changedBy?.id ?? order.sync_id),
    walkFinishedAt: changedBy?.finished_at ? String(changedBy.finished_at) : sync.finishedAt,
    ids,
    place: () => (place ??= new Map(ids.map((id, i) => [id, i]))),
    older,
  };
}

const refusePruned = (resource: LibraryResource, id: string, syncId: number) =>
  notKept(
    `the text of ${resource} ${id} as of sync ${syncId} is no longer kept (its versions were pruned)`,
    "`pep changes --prune` keeps the versions --as-of needs unless given --versions",
  );

/**
 * The texts of the `n` items from place `from` of the walk as of `syncId`. When the walk's
 * order is the table's, one range read by `ord` (each text replaced by its kept older
 * version where there is one); else by id. The first `needed` must be there (an item whose
 * version was pruned is refused); past them, the texts end before the first such item
 * (items read ahead of the page asked for, refused only when asked for).
 */
export async function rangeAsOf(
  db: AsOfSource,
  resource: LibraryResource,
  state: ResourceAsOf,
  syncId: number,
  from: number,
  n: number,
  needed = n,
): Promise<string[]> {
  const ids = state.ids.slice(from, from + n);
  return keptTexts(await rangeTexts(db, resource, state, syncId, from, ids), ids, needed, resource, syncId);
}

/** `texts` (of `ids`) up to the first pruned one, which is refused when it is among the first `needed`. */
function keptTexts(
  texts: Array<string | undefined>,
  ids: readonly string[],
  needed: number,
  resource: LibraryResource,
  syncId: number,
): string[] {
  const gone = texts.indexOf(undefined);
  if (gone === -1) return texts as string[];
  if (gone < needed) throw refusePruned(resource, ids[gone]!, syncId);
  return texts.slice(0, gone) as string[];
}

/** rangeAsOf's texts, undefined where pruned. */
async function rangeTexts(
  db: AsOfSource,
  resource: LibraryResource,
  state: ResourceAsOf,
  syncId: number,
  from: number,
  ids: readonly string[],
): Promise<Array<string | undefined>> {
  if (!state.sameOrder || ids.length === 0) return textsOrPruned(db, resource, state, syncId, ids);
  const itemCol = db.dialect === "postgres" ? "item_text" : "item";
  const rows = await db.all<{ id: unknown; item: unknown; vf: unknown }>(
    `SELECT id, ${itemCol} AS item, COALESCE(valid_from, last_sync) AS vf FROM "${LIBRARY[resource].table}" WHERE ord >= ? ORDER BY ord LIMIT ?`,
    [from, ids.length],
  );
  if (rows.length !== ids.length || rows.some((r, i) => String(r.id) !== ids[i]))
    return textsOrPruned(db, resource, state, syncId, ids);
  return rows.map((r, i) => state.older.get(ids[i]!) ?? (Number(r.vf) <= syncId ? String(r.item) : undefined));
}

/**
 * The texts of `ids` (all in the resource's order as of `sync`), in their order: a kept
 * older version, else the current row whose text is valid from that sync or earlier.
 * An id with neither (its version pruned) is refused.
 */
export async function textsAsOf(
  db: AsOfSource,
  resource: LibraryResource,
  state: ResourceAsOf,
  syncId: number,
  ids: readonly string[],
): Promise<string[]> {
  return keptTexts(await textsOrPruned(db, resource, state, syncId, ids), ids, ids.length, resource, syncId);
}

/** textsAsOf's texts, undefined where pruned. */
async function textsOrPruned(
  db: AsOfSource,
  resource: LibraryResource,
  state: ResourceAsOf,
  syncId: number,
  ids: readonly string[],
): Promise<Array<string | undefined>> {
  const wanted = ids.filter((id) => !state.older.has(id));
  const current = new Map<string, { text: string; from: number }>();
  const itemCol = db.dialect === "postgres" ? "item_text" : "item";
  for (let i = 0; i < wanted.length; i += 500) {
    const chunk = wanted.slice(i, i + 500);
    const rows = await db.all<{ id: unknown; item: unknown; vf: unknown }>(
      `SELECT id, ${itemCol} AS item, COALESCE(valid_from, last_sync) AS vf FROM "${LIBRARY[resource].table}" WHERE id IN (${chunk.map(() => "?").join(", ")})`,
      chunk,
    );
    for (const r of rows) current.set(String(r.id), { text: String(r.item), from: Number(r.vf) });
  }
  return ids.map((id) => {
    const old = state.older.get(id);
    if (old !== undefined) return old;
    const now = current.get(id);
    return now && now.from <= syncId ? now.text : undefined;
  });
}
