/**
 * Whether a sync keeps each study's own answer (`GET /studies/{id}`: the study with each
 * citing profile's summary, what `pep studies get` prints). One request a study, so it
 * is the library's choice, made with `pep sync --study-details` and kept (meta key
 * `study-details`) until `--no-study-details`: every later sync of studies brings the
 * answers up to date (a 304 each when unchanged), so `--offline` never answers from one
 * older than the last sync of studies. A library that does not keep them holds none.
 *
 * A sync cut short goes on where it stopped: an answer written by a sync after the last
 * complete one is not asked again (unless --full).
 */
import type { Db } from "../db.js";

const KEY = "study-details";

/** Records the choice the command line made, when it made one. */
export async function chooseStudyDetails(db: Db, keep: boolean | undefined): Promise<void> {
  if (keep === undefined) return;
  if (keep)
    await db.run(
      "INSERT INTO meta (key, value) VALUES (?, 'all') ON CONFLICT (key) DO UPDATE SET value = excluded.value",
      [KEY],
    );
  else await db.run("DELETE FROM meta WHERE key = ?", [KEY]);
}

/** Whether the library keeps every study's own answer. */
export async function keepsStudyDetails(db: Db): Promise<boolean> {
  const row = await db.get<{ value: string }>("SELECT value FROM meta WHERE key = ?", [KEY]);
  return row?.value === "all";
}

/** The ids of the studies whose own answer this sync asks, in the API's order. */
export async function studyDetailIds(db: Db, full: boolean): Promise<string[]> {
  if (full) return (await db.all<{ id: string }>("SELECT id FROM studies ORDER BY ord")).map((r) => String(r.id));
  const last = await db.get<{ id: number | string | null }>(
    "SELECT MAX(id) AS id FROM syncs WHERE status = 'complete'",
  );
  const rows = await db.all<{ id: string }>(
    `SELECT s.id AS id FROM studies s LEFT JOIN details d ON d.resource = 'studies' AND d.kind = 'profile' AND d.id = s.id
     WHERE d.sync_id IS NULL OR d.sync_id <= ? ORDER BY s.ord`,
    [Number(last?.id ?? 0)],
  );
  return rows.map((r) => String(r.id));
}

/** Drops every study's own answer (the library no longer keeps them); resolves to how many. */
export async function dropStudyDetails(db: Db): Promise<number> {
  return db.run("DELETE FROM details WHERE resource = 'studies' AND kind = 'profile'");
}
