/**
 * `pep changes --prune <age>`: the change log and the sync records grow with every sync;
 * this removes change rows older than the age, and sync records as old that nothing still
 * names (the last complete walk of each resource, a sync still running, the newest sync).
 * Run under the sync lock, as a sync is, in one transaction: a reader sees the log before
 * or after, never half pruned.
 */
import type { Library } from "./open.js";

export interface Pruned {
  /** Everything older than this went (ISO 8601). */
  before: string;
  changes: number;
  syncs: number;
}

export async function pruneLog(lib: Library, before: string): Promise<Pruned> {
  return lib.db.transaction(async (tx) => {
    const changes = await tx.run("DELETE FROM changes WHERE at < ?", [before]);
    const syncs = await tx.run(
      `DELETE FROM syncs WHERE finished_at IS NOT NULL AND finished_at < ? AND status <> 'running'
         AND id NOT IN (SELECT sync_id FROM walks)
         AND id NOT IN (SELECT sync_id FROM changes)
         AND id <> (SELECT MAX(id) FROM syncs)`,
      [before],
    );
    return { before, changes, syncs };
  });
}
