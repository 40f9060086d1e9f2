/**
 * `pep changes --prune <age>`: the change log and the sync records grow with every sync;
 * this removes change rows older than the age, and sync records as old that nothing still
 * names (the last complete walk of each resource, a sync still running, the newest sync,
 * and a complete sync `--as-of` can still name: one no older than the first walk order
 * kept). Item versions and walk orders stay, so `--as-of` answers as before, unless
 * `versions` is asked (`--versions`): then those only an answer as of a sync older than
 * the age would read go too (a version that ended by then, an order replaced by then).
 * Run under the sync lock, as a sync is, in one transaction: a reader sees the log before
 * or after, never half pruned.
 */
import type { Library } from "./open.js";

export interface Pruned {
  /** Everything older than this went (ISO 8601). */
  before: string;
  changes: number;
  syncs: number;
  /** Item versions removed (only with `versions`). */
  versions: number;
}

export async function pruneLog(lib: Library, before: string, options: { versions?: boolean } = {}): Promise<Pruned> {
  return lib.db.transaction(async (tx) => {
    let versions = 0;
    if (options.versions) {
      // The first sync `--as-of` still answers for: the first to end at or after the age
      // (none: the newest). What only an earlier one would read goes.
      const at = await tx.get<{ k: unknown }>(
        "SELECT COALESCE((SELECT MIN(id) FROM syncs WHERE finished_at >= ?), (SELECT MAX(id) FROM syncs)) AS k",
        [before],
      );
      const k = Number(at?.k ?? 0);
      versions = await tx.run("DELETE FROM item_versions WHERE valid_to <= ?", [k]);
      await tx.run(
        `DELETE FROM _pep_walk_orders WHERE sync_id < (SELECT MAX(x.sync_id) FROM _pep_walk_orders x
           WHERE x.resource = _pep_walk_orders.resource AND x.sync_id <= ?)`,
        [k],
      );
    }
    const changes = await tx.run("DELETE FROM changes WHERE at < ?", [before]);
    // `pep changes --from` refuses a range the log no longer holds whole.
    const was = await tx.get<{ value: unknown }>("SELECT value FROM meta WHERE key = 'changes_pruned_before'");
    if (!was || String(was.value) < before)
      await tx.run(
        "INSERT INTO meta (key, value) VALUES ('changes_pruned_before', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
        [before],
      );
    const syncs = await tx.run(
      `DELETE FROM syncs WHERE finished_at IS NOT NULL AND finished_at < ? AND status <> 'running'
         AND id NOT IN (SELECT sync_id FROM walks)
         AND id NOT IN (SELECT sync_id FROM changes)
         AND id <> (SELECT MAX(id) FROM syncs)
         AND (status <> 'complete' OR id < COALESCE((SELECT MIN(sync_id) FROM _pep_walk_orders), id + 1))`,
      [before],
    );
    return { before, changes, syncs, versions };
  });
}
