/**
 * A page that answered 304 is staged as its `_pep_staged_pages` row alone (its item ids and the
 * cursor after it), not as one staging row per item: most of a re-sync's pages are 304s,
 * and staging their items only to find them unchanged cost more than the requests. At the
 * end of the walk, before the merge, this module either finds the walk unchanged (every
 * page a 304 holding the same ids as the last walk's page: the table is already what the
 * walk says, nothing to merge) or stages the 304 pages' ids, body-less, at their places,
 * so the merge (merge.ts) reads the walk whole as before.
 */
import type { Db, Queryable } from "../db.js";
import type { LibraryTable } from "../schema.js";

export interface StagedPage {
  cursor: string;
  etag: string | null;
  next_cursor: string | null;
  item_ids: string;
  n: number;
}

/**
 * The walk changed nothing: no page came with a body, and its pages are the last walk's
 * pages (same cursors, same item ids in the same order, no page more or less). Then the
 * table holds exactly those items at those places (a merge leaves the table equal to its
 * walk's pages), so it is left as it is.
 */
export async function walkUnchanged(
  tx: Queryable,
  db: Db,
  lib: LibraryTable,
  query: string,
): Promise<number | undefined> {
  const body = db.dialect === "sqlite" ? "item <> ''" : "item IS NOT NULL";
  if (await tx.get(`SELECT 1 AS one FROM "_pep_staged_${lib.table}" WHERE ${body} LIMIT 1`)) return undefined;
  const counts = await tx.get<{ staged: number; kept: number; same: number; items: number }>(
    `SELECT (SELECT COUNT(*) FROM _pep_staged_pages WHERE resource = ? AND query = ?) AS staged,
            (SELECT SUM(${idCount(db)}) FROM _pep_staged_pages WHERE resource = ? AND query = ?) AS items,
            (SELECT COUNT(*) FROM _pep_pages WHERE resource = ? AND query = ?) AS kept,
            (SELECT COUNT(*) FROM _pep_staged_pages s JOIN _pep_pages p ON p.resource = s.resource AND p.query = s.query AND p.cursor = s.cursor
              WHERE s.resource = ? AND s.query = ? AND p.item_ids = s.item_ids
                AND (p.next_cursor = s.next_cursor OR (p.next_cursor IS NULL AND s.next_cursor IS NULL))) AS same`,
    [lib.name, query, lib.name, query, lib.name, query, lib.name, query],
  );
  const staged = Number(counts?.staged ?? 0);
  const same = staged > 0 && staged === Number(counts?.kept) && staged === Number(counts?.same);
  return same ? Number(counts?.items ?? 0) : undefined;
}

/** The number of ids in a page row's `item_ids` (a JSON array as text). */
const idCount = (db: Db) =>
  db.dialect === "sqlite" ? "json_array_length(item_ids)" : "jsonb_array_length(item_ids::jsonb)";

/** The walk's pages in order, from the first (cursor ''), each with the place of its first item. */
export async function pagesInOrder(tx: Queryable, lib: LibraryTable, query: string, db: Db) {
  const rows = await tx.all<StagedPage>(
    `SELECT cursor, etag, next_cursor, item_ids, ${idCount(db)} AS n FROM _pep_staged_pages WHERE resource = ? AND query = ?`,
    [lib.name, query],
  );
  const byCursor = new Map(rows.map((r) => [r.cursor, r]));
  const out: Array<StagedPage & { ord: number }> = [];
  let ord = 0;
  for (let page = byCursor.get(""); page; page = byCursor.get(page.next_cursor ?? "\0")) {
    byCursor.delete(page.cursor);
    out.push({ ...page, ord });
    ord += Number(page.n);
    if (page.next_cursor === null) break;
  }
  return out;
}

/**
 * Stages the ids of the walk's 304 pages, body-less (`item` '' in SQLite, NULL in
 * PostgreSQL), at their places; ids staged with a body are left as they are.
 */
export async function stageNotModified(
  tx: Queryable,
  db: Db,
  lib: LibraryTable,
  query: string,
  at: { now: string; syncId: number; synthetic: boolean },
): Promise<void> {
  const t = `"_pep_staged_${lib.table}"`;
  const each =
    db.dialect === "sqlite"
      ? "SELECT j.value AS id, ? + j.key AS ord FROM json_each(?) j WHERE j.type = 'text'"
      : "SELECT j.value AS id, ?::bigint + j.o - 1 AS ord FROM jsonb_array_elements_text(?::jsonb) WITH ORDINALITY AS j(value, o)";
  const whole = db.dialect === "sqlite";
  const sql = whole
    ? `INSERT INTO ${t} (id, item, ord, first_seen, last_seen, last_sync, synthetic) SELECT e.id, '', e.ord, ?, ?, ?, ? FROM (${each}) e WHERE true ON CONFLICT (id) DO NOTHING`
    : `INSERT INTO ${t} (id, item, ord) SELECT e.id, NULL, e.ord FROM (${each}) e ON CONFLICT (id) DO NOTHING`;
  const pages = await pagesInOrder(tx, lib, query, db);
  const staged = await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`);
  // Every id staged already (a walk of pages that all came with a body): nothing to add.
  if (Number(staged?.n ?? 0) === pages.reduce((n, p) => n + Number(p.n), 0)) return;
  for (const page of pages) {
    if (Number(page.n) === 0) continue;
    const params = whole
      ? [at.now, at.now, at.syncId, at.synthetic ? 1 : 0, page.ord, page.item_ids]
      : [page.ord, page.item_ids];
    await tx.run(sql, params);
  }
}
