/**
 * The `syncs` rows as the change log reads them. A sync ends `complete`, `partial` (a
 * failure or a signal it saw) or, when its process was killed without a word,
 * `interrupted`: the next sync, which holds the library's one sync lock, marks every row
 * still `running` so (no other syncer can be at work), with the counts of the changes it
 * logged. `--since last` (pep changes) and `pep sync --exit-status` read the same range.
 */
import type { Queryable } from "../db.js";

/**
 * Marks the syncs left `running` by a process that is gone as `interrupted`, their counts
 * taken from the change rows they wrote; resolves to how many. Only a holder of the sync
 * lock may call it.
 */
export async function markInterrupted(db: Queryable, now: string): Promise<number> {
  return db.run(
    `UPDATE syncs SET status = 'interrupted', finished_at = COALESCE(finished_at, ?),
       added = (SELECT COUNT(*) FROM changes c WHERE c.sync_id = syncs.id AND c.kind = 'added'),
       changed = (SELECT COUNT(*) FROM (SELECT DISTINCT c.resource, c.id FROM changes c WHERE c.sync_id = syncs.id AND c.kind = 'changed') d),
       removed = (SELECT COUNT(*) FROM changes c WHERE c.sync_id = syncs.id AND c.kind = 'removed')
     WHERE status = 'running'`,
    [now],
  );
}

/**
 * The syncs `--since last` reports: the latest complete sync and every sync that ended
 * otherwise (partial, interrupted) since the complete sync before it. A night whose sync
 * was cut short is reported with the next complete one, so the cron recipe
 * (`pep sync -q && pep changes --since last`) reports each change once and loses none.
 * Without a complete sync yet: every sync that has ended.
 */
export async function lastSyncsCondition(db: Queryable): Promise<{ where: string; params: unknown[] }> {
  const last = await db.get<{ id: unknown }>("SELECT MAX(id) AS id FROM syncs WHERE status = 'complete'");
  if (last?.id === null || last?.id === undefined)
    return { where: "sync_id IN (SELECT id FROM syncs WHERE status <> 'running')", params: [] };
  const before = await db.get<{ id: unknown }>("SELECT MAX(id) AS id FROM syncs WHERE status = 'complete' AND id < ?", [
    last.id,
  ]);
  return { where: "sync_id > ? AND sync_id <= ?", params: [Number(before?.id ?? 0), Number(last.id)] };
}

/** Whether the change log holds rows in the range `--since last` reports. */
export async function lastSyncsChanged(db: Queryable): Promise<boolean> {
  const range = await lastSyncsCondition(db);
  return (await db.get(`SELECT 1 AS one FROM changes WHERE ${range.where} LIMIT 1`, range.params)) !== undefined;
}
