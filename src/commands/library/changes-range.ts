/**
 * `pep changes --from <sync> --to <sync>`: what moved between two complete syncs, as the
 * change log of every sync after the first up to the second tells it (a sync cut short in
 * between counts: what it merged moved the library). Each end is a sync id or a date, read
 * as `--as-of` reads it (library/as-of.ts); a range the pruned log no longer holds whole is
 * refused (exit 2, library_not_kept).
 */
import { LibraryError, UsageError } from "../../core/errors.js";
import { parseAsOf, resolveAsOf } from "../../library/as-of.js";
import type { Queryable } from "../../library/db.js";

/** Before the library is opened: the flags go together and read as sync ids or dates. */
export function checkRange(opts: { from?: string | undefined; to?: string | undefined; since?: string | undefined }) {
  if (opts.from === undefined)
    throw new UsageError("--to needs --from: pep changes --from <sync|date> [--to <sync|date>]");
  if (opts.since !== undefined)
    throw new UsageError("--from and --to name a range of syncs: they cannot go with --since");
  parseAsOf(opts.from, "--from");
  if (opts.to !== undefined) parseAsOf(opts.to, "--to");
}

/** The change log's rows of the syncs after `from` up to `to` (default: the last complete sync). */
export async function rangeCondition(
  db: Queryable,
  from: string,
  to: string | undefined,
): Promise<{ where: string; params: unknown[] }> {
  const first = await startOf(db, from);
  const last = to === undefined ? await lastComplete(db) : await resolveAsOf(db, to, "--to");
  if (first.id > last.id)
    throw new UsageError(`--from must name the earlier sync: ${from} is sync ${first.id}, after sync ${last.id}`);
  const pruned = await db.get<{ value: unknown }>("SELECT value FROM meta WHERE key = 'changes_pruned_before'");
  if (pruned && first.finishedAt < String(pruned.value))
    throw new LibraryError(
      "library_not_kept",
      `--from: the change log before ${String(pruned.value)} was pruned, and sync ${first.id} ended before that`,
      { hints: ["name a later sync with --from, or compare the two answers with --offline --as-of"] },
    );
  return { where: "sync_id > ? AND sync_id <= ?", params: [first.id, last.id] };
}

/**
 * The sync a range starts after. A date before the library's first complete sync starts
 * at the log's beginning: everything the library has recorded since that day (its first
 * sync's additions included); a sync id the library does not hold is refused.
 */
async function startOf(db: Queryable, from: string): Promise<{ id: number; finishedAt: string }> {
  const at = parseAsOf(from, "--from");
  if ("before" in at) {
    const done = await db.get<{ n: unknown }>(
      "SELECT COUNT(*) AS n FROM syncs WHERE status = 'complete' AND finished_at IS NOT NULL AND finished_at <= ?",
      [at.before],
    );
    if (Number(done?.n ?? 0) === 0) return { id: 0, finishedAt: "" };
  }
  return resolveAsOf(db, from, "--from");
}

async function lastComplete(db: Queryable) {
  const row = await db.get<{ id: unknown }>("SELECT MAX(id) AS id FROM syncs WHERE status = 'complete'");
  if (row?.id === null || row?.id === undefined)
    throw new LibraryError("library_not_kept", "--from: the library holds no complete sync", {
      hints: ["Run `pep sync` while online to fill it."],
    });
  return resolveAsOf(db, String(row.id));
}
