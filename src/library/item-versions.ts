/**
 * What a merge keeps for `--as-of` (docs/library.md, "Versions"): before an item's text is
 * replaced or the item removed, its text as sent goes to `item_versions`, valid from the
 * sync it began at to this one; and when a complete walk's order of ids differs from the
 * last one kept, the new order goes to `_pep_walk_orders`. An unchanged walk writes neither:
 * no text differs and the order is the one kept.
 */
import type { Dialect, Queryable } from "./db.js";
import type { LibraryTable } from "./schema.js";

export interface VersionsAt {
  dialect: Dialect;
  lib: LibraryTable;
  syncId: number;
}

/** The column of the resource table that holds the item's text as sent. */
const textCol = (d: Dialect) => (d === "sqlite" ? "item" : "item_text");

/** The sync the row's current text is valid from (a first fill leaves it to `last_sync`). */
export const VALID_FROM = "COALESCE(t.valid_from, t.last_sync)";

/**
 * Keeps the current text of the rows `where` selects (`t` the resource table, `s` its
 * staging table when joined) as versions that end at this sync.
 */
async function close(tx: Queryable, at: VersionsAt, from: string, where: string): Promise<number> {
  return tx.run(
    `INSERT INTO item_versions (resource, id, item, valid_from, valid_to)
     SELECT ?, t.id, t.${textCol(at.dialect)}, ${VALID_FROM}, ? FROM ${from} WHERE ${where} AND ${VALID_FROM} < ?
     ON CONFLICT DO NOTHING`,
    [at.lib.name, at.syncId, at.syncId],
  );
}

/** Items whose text the walk brought changed (`hasBody`: a staged row `s` came with a body). */
export function closeChanged(tx: Queryable, at: VersionsAt, hasBody: string): Promise<number> {
  const t = at.lib.table;
  return close(
    tx,
    at,
    `"${t}" t JOIN "_pep_staged_${t}" s ON s.id = t.id`,
    `${hasBody} AND s.item <> t.${textCol(at.dialect)}`,
  );
}

/** Items the complete walk no longer met. */
export function closeRemoved(tx: Queryable, at: VersionsAt): Promise<number> {
  const t = at.lib.table;
  return close(tx, at, `"${t}" t`, `NOT EXISTS (SELECT 1 FROM "_pep_staged_${t}" s WHERE s.id = t.id)`);
}

/** The ids of a kept order (a JSON array as text), or undefined when it does not read as one. */
export function orderIds(text: unknown): string[] | undefined {
  try {
    const v: unknown = JSON.parse(String(text));
    if (!Array.isArray(v)) return undefined;
    // pep writes strings: a copy only for an order written otherwise.
    return v.every((id) => typeof id === "string") ? (v as string[]) : v.map(String);
  } catch {
    return undefined;
  }
}

/**
 * After the merge, the table holds the walk's items in its order: kept as a row of
 * `_pep_walk_orders` when it differs from the last order kept (a new or reordered list),
 * else nothing is written. Resolves to whether a row was written.
 */
export async function keepOrder(tx: Queryable, at: VersionsAt): Promise<boolean> {
  const rows = await tx.all<{ id: string }>(`SELECT id FROM "${at.lib.table}" ORDER BY ord`);
  const last = await tx.get<{ ids: unknown }>(
    "SELECT ids FROM _pep_walk_orders WHERE resource = ? ORDER BY sync_id DESC LIMIT 1",
    [at.lib.name],
  );
  const kept = last ? orderIds(last.ids) : undefined;
  if (kept && kept.length === rows.length && kept.every((id, i) => id === rows[i]!.id)) return false;
  await tx.run(
    `INSERT INTO _pep_walk_orders (resource, sync_id, ids) VALUES (?, ?, ?)
     ON CONFLICT (resource, sync_id) DO UPDATE SET ids = excluded.ids`,
    [at.lib.name, at.syncId, JSON.stringify(rows.map((r) => r.id))],
  );
  return true;
}
