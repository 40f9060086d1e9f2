/**
 * The end of a resource's walk: its staging table becomes the resource table in one
 * transaction, so a reader sees the resource as it was before the sync or after it, never
 * half. What differs is written to `changes`: an item new to the library (added), an item
 * whose fields differ (changed: one row per field, old and new value as JSON text), an
 * item the complete walk no longer met (removed: deleted, its last item text kept in the
 * change row). Items of pages that answered 304 are unchanged and not rewritten (only a
 * place that moved), and a walk of 304s alone that matches the last walk leaves the table
 * as it is (staged-pages.ts); `walks` records when each resource's listing was last read
 * whole. A text replaced or removed is kept as a version, and a new order of the walk's
 * ids as a row, for `--as-of` (library/item-versions.ts).
 */
import { parseJsonExact } from "../../core/exact-number.js";
import type { Db, Queryable } from "../db.js";
import { closeChanged, closeRemoved, keepOrder } from "../item-versions.js";
import { fieldChanges, type Rebase, rebased } from "../items.js";
import { fullTextSqlite, stagingTable, tableIndexes } from "../migrations.js";
import type { LibraryTable } from "../schema.js";
import type { SyncCounters } from "./counters.js";
import { stageNotModified, walkUnchanged } from "./staged-pages.js";
import { WALK_QUERY } from "./walk.js";

export interface MergeOptions {
  db: Db;
  lib: LibraryTable;
  syncId: number;
  now: string;
  synthetic: boolean;
  counters: SyncCounters;
  /** The base URL the last sync used, when it differs from this one's. */
  rebase?: Rebase | undefined;
}

const BATCH = 500;

/** The change rows of items whose text differs, field by field; resolves to how many items changed. */
async function recordChanged(tx: Queryable, o: MergeOptions, itemText: string): Promise<number> {
  const { lib } = o;
  const paths = lib.columns.map((c) => c.path);
  let after = "";
  let changedItems = 0;
  for (;;) {
    const rows = await tx.all<{ id: string; new_item: string; old_item: string }>(
      `SELECT s.id, s.item AS new_item, t.${itemText} AS old_item FROM "_pep_staged_${lib.table}" s JOIN "${lib.table}" t ON t.id = s.id
       WHERE ${hasBody(o.db)} AND s.item <> t.${itemText} AND s.id > ? ORDER BY s.id LIMIT ${BATCH}`,
      [after],
    );
    if (rows.length === 0) return changedItems;
    const values: unknown[] = [];
    for (const r of rows) {
      const diffs = fieldChanges(parseJsonExact(rebased(r.old_item, o.rebase)), parseJsonExact(r.new_item), paths);
      if (diffs.length > 0) changedItems += 1;
      for (const d of diffs) values.push(o.syncId, o.now, lib.name, r.id, "changed", d.field, d.old, d.new);
    }
    if (values.length > 0) {
      const one = "(?, ?, ?, ?, ?, ?, ?, ?)";
      const n = values.length / 8;
      await tx.run(
        `INSERT INTO changes (sync_id, at, resource, id, kind, field, old_value, new_value) VALUES ${Array(n).fill(one).join(", ")}`,
        values,
      );
    }
    after = rows[rows.length - 1]!.id;
  }
}

/**
 * The staged item as jsonb (PostgreSQL): jsonb cannot hold `\u0000`, so an item with one
 * has it as `\ufffd` there (item_text keeps the text as sent).
 */
const JSONB_ITEM = String.raw`(CASE WHEN strpos(s.item, '\u0000') > 0 THEN regexp_replace(s.item, '(?<=^|[^\\])((?:\\\\)*)\\u0000', '\1\\ufffd', 'g') ELSE s.item END)::jsonb`;

/** The item columns of the resource table and what fills them from a staged row `s`. */
function itemColumns(db: Db): { names: string; from: string; set: string; text: string } {
  return db.dialect === "sqlite"
    ? { names: "item", from: "s.item", set: "item = s.item", text: "item" }
    : {
        names: "item, item_text",
        from: `${JSONB_ITEM}, s.item`,
        set: `item = ${JSONB_ITEM}, item_text = s.item`,
        text: "item_text",
      };
}

/** Updates the changed items, then every staged item's place and last sighting. */
async function updateSeen(tx: Queryable, o: MergeOptions): Promise<void> {
  const { lib, db } = o;
  const t = `"${lib.table}"`;
  const ic = itemColumns(db);
  const typed = lib.columns.map((c) => `"${c.name}" = s."${c.name}"`).join(", ");
  await tx.run(
    `UPDATE ${t} SET ${typed}, ${ic.set}, ord = s.ord, last_seen = ?, last_sync = ?, synthetic = ?, valid_from = ?
     FROM "_pep_staged_${lib.table}" AS s WHERE s.id = ${t}.id AND ${hasBody(db)} AND s.item <> ${t}.${ic.text}`,
    [o.now, o.syncId, o.synthetic ? 1 : 0, o.syncId],
  );
  // Items of pages that came with a body: seen now. Items of pages answered 304 are not
  // rewritten (a sync of an unchanged library writes nothing): only a place that moved.
  // Its text stays valid from where it was (a first fill left that to last_sync).
  await tx.run(
    `UPDATE ${t} SET ord = s.ord, last_seen = ?, last_sync = ?, valid_from = COALESCE(${t}.valid_from, ${t}.last_sync) FROM "_pep_staged_${lib.table}" AS s
     WHERE s.id = ${t}.id AND ${hasBody(db)} AND ${t}.last_sync <> ?`,
    [o.now, o.syncId, o.syncId],
  );
  await tx.run(
    `UPDATE ${t} SET ord = s.ord FROM "_pep_staged_${lib.table}" AS s WHERE s.id = ${t}.id AND NOT (${hasBody(db)}) AND ${t}.ord <> s.ord`,
  );
}

/** New items: a change row each, then the rows. */
async function insertAdded(tx: Queryable, o: MergeOptions): Promise<number> {
  const { lib, db } = o;
  const t = `"${lib.table}"`;
  const ic = itemColumns(db);
  const newOnes = `FROM "_pep_staged_${lib.table}" s WHERE ${hasBody(db)} AND NOT EXISTS (SELECT 1 FROM ${t} t WHERE t.id = s.id)`;
  await tx.run(
    `INSERT INTO changes (sync_id, at, resource, id, kind) SELECT ?, ?, ?, s.id, 'added' ${newOnes} ORDER BY s.ord`,
    [o.syncId, o.now, lib.name],
  );
  const cols = lib.columns.map((c) => `"${c.name}"`);
  return tx.run(
    `INSERT INTO ${t} (id, ${cols.join(", ")}, ${ic.names}, ord, first_seen, last_seen, last_sync, synthetic, valid_from)
     SELECT s.id, ${cols.map((c) => `s.${c}`).join(", ")}, ${ic.from}, s.ord, ?, ?, ?, ?, ? ${newOnes}`,
    [o.now, o.now, o.syncId, o.synthetic ? 1 : 0, o.syncId],
  );
}

/** Items the complete walk did not meet: a change row with the last item text each, then gone, details too. */
async function deleteRemoved(tx: Queryable, o: MergeOptions): Promise<number> {
  const { lib, db } = o;
  const t = `"${lib.table}"`;
  const gone = `NOT EXISTS (SELECT 1 FROM "_pep_staged_${lib.table}" s WHERE s.id = ${t}.id)`;
  await tx.run(
    `INSERT INTO changes (sync_id, at, resource, id, kind, old_value) SELECT ?, ?, ?, id, 'removed', ${itemColumns(db).text} FROM ${t} WHERE ${gone} ORDER BY ord`,
    [o.syncId, o.now, lib.name],
  );
  await closeRemoved(tx, { dialect: db.dialect, lib, syncId: o.syncId });
  const removed = await tx.run(`DELETE FROM ${t} WHERE ${gone}`);
  if (removed > 0) {
    await tx.run(
      `DELETE FROM details WHERE resource = ? AND NOT EXISTS (SELECT 1 FROM ${t} x WHERE x.id = details.id)`,
      [lib.name],
    );
    if (lib.name === "peptides")
      await tx.run("DELETE FROM peptide_studies WHERE NOT EXISTS (SELECT 1 FROM peptides x WHERE x.id = peptide_id)");
  }
  return removed;
}

/**
 * `study_cited_by` from the `cited_by` list of each study that came with a body: from the
 * staging table, or (after a first fill became the table) from the table itself.
 */
async function linkStudies(tx: Queryable, o: MergeOptions, from: "_pep_staged_studies" | "studies"): Promise<void> {
  const staged = from === "_pep_staged_studies";
  const body = staged ? hasBody(o.db) : "TRUE";
  await tx.run(
    `DELETE FROM study_cited_by WHERE study_id IN (SELECT s.id FROM ${from} s WHERE ${body}) OR NOT EXISTS (SELECT 1 FROM studies x WHERE x.id = study_id)`,
  );
  const each =
    o.db.dialect === "sqlite"
      ? `SELECT s.id, j.value, j.key FROM ${from} s, json_each(CASE WHEN json_type(s.cited_by) = 'array' THEN s.cited_by ELSE '[]' END) j WHERE ${body} AND j.type = 'text'`
      : `SELECT s.id, j.value, j.ord - 1 FROM ${from} s CROSS JOIN LATERAL jsonb_array_elements_text(CASE WHEN jsonb_typeof(s.cited_by) = 'array' THEN s.cited_by ELSE '[]'::jsonb END) WITH ORDINALITY AS j(value, ord) WHERE ${body}`;
  await tx.run(`INSERT INTO study_cited_by (study_id, peptide_id, position) ${each} ON CONFLICT DO NOTHING`);
}

/** A staged row came with a body (an item of a page answered 200); `s` is the staging table. */
function hasBody(db: Db): string {
  return db.dialect === "sqlite" ? "s.item <> ''" : "s.item IS NOT NULL";
}

/**
 * A first fill in SQLite: the resource table is empty and every staged row came with a
 * body, so the staging table, built just like it, becomes the table (renamed, its indexes
 * made, its full-text triggers and index again) instead of being copied into it; a new
 * staging table takes its place. Resolves to
 * the rows added, or undefined when this is not such a fill.
 */
async function swapIn(tx: Queryable, o: MergeOptions): Promise<number | undefined> {
  const { lib, db } = o;
  if (db.dialect !== "sqlite") return undefined;
  const t = `"${lib.table}"`;
  const staged = `"_pep_staged_${lib.table}"`;
  if (await tx.get(`SELECT 1 AS one FROM ${t} LIMIT 1`)) return undefined;
  if (await tx.get(`SELECT 1 AS one FROM ${staged} s WHERE NOT (${hasBody(db)}) LIMIT 1`)) return undefined;
  await tx.run(
    `INSERT INTO changes (sync_id, at, resource, id, kind) SELECT ?, ?, ?, s.id, 'added' FROM ${staged} s ORDER BY s.ord`,
    [o.syncId, o.now, lib.name],
  );
  const n = await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${staged}`);
  await tx.run(`DROP TABLE ${t}`);
  // The views name the table just dropped: a rename that checks them would refuse.
  await tx.run("PRAGMA legacy_alter_table = ON");
  await tx.run(`ALTER TABLE ${staged} RENAME TO ${t}`);
  await tx.run("PRAGMA legacy_alter_table = OFF");
  for (const ddl of [...tableIndexes(lib), ...fullTextSqlite(lib)]) await tx.run(ddl);
  await tx.run(stagingTable(db.dialect, lib));
  return Number(n?.n ?? 0);
}

/** Merges the completed walk of `o.lib` into its table, in one transaction. */
export async function mergeResource(o: MergeOptions): Promise<void> {
  const { db, lib, counters } = o;
  const query = WALK_QUERY;
  await db.transaction(async (tx) => {
    let items = await walkUnchanged(tx, db, lib, query);
    if (items !== undefined) counters.items += items;
    else {
      await stageNotModified(tx, db, lib, query, o);
      const staged = await tx.get<{ n: number }>(`SELECT COUNT(*) AS n FROM "_pep_staged_${lib.table}"`);
      items = Number(staged?.n ?? 0);
      counters.items += items;
      await mergeStaged(tx, o);
    }
    await tx.run("DELETE FROM _pep_pages WHERE resource = ?", [lib.name]);
    await tx.run(
      "INSERT INTO _pep_pages (resource, query, cursor, etag, next_cursor, item_ids, fetched_at) SELECT resource, query, cursor, etag, next_cursor, item_ids, fetched_at FROM _pep_staged_pages WHERE resource = ?",
      [lib.name],
    );
    await tx.run("DELETE FROM _pep_staged_pages WHERE resource = ?", [lib.name]);
    await tx.run(`DELETE FROM "_pep_staged_${lib.table}"`);
    await tx.run("DELETE FROM _pep_sync_state WHERE resource = ?", [lib.name]);
    // Every item now in the table was in the listing this walk read whole.
    await tx.run(
      `INSERT INTO walks (resource, sync_id, finished_at, items) VALUES (?, ?, ?, ?)
       ON CONFLICT (resource) DO UPDATE SET sync_id = excluded.sync_id, finished_at = excluded.finished_at, items = excluded.items`,
      [lib.name, o.syncId, o.now, items],
    );
  });
}

/** The staged walk (every item staged, with a body or without) into the table: changes, adds, removals. */
async function mergeStaged(tx: Queryable, o: MergeOptions): Promise<void> {
  const { db, lib, counters } = o;
  const filled = await swapIn(tx, o);
  if (filled !== undefined) {
    counters.added += filled;
    if (lib.name === "studies") await linkStudies(tx, o, "studies");
  } else {
    counters.changed += await recordChanged(tx, o, itemColumns(db).text);
    await closeChanged(tx, { dialect: db.dialect, lib, syncId: o.syncId }, hasBody(db));
    await updateSeen(tx, o);
    counters.added += await insertAdded(tx, o);
    counters.removed += await deleteRemoved(tx, o);
    if (lib.name === "studies") await linkStudies(tx, o, "_pep_staged_studies");
  }
  await keepOrder(tx, { dialect: db.dialect, lib, syncId: o.syncId });
}
