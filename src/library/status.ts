/**
 * How fresh and how big the library is: its size, its schema version, and per resource
 * the items it holds and the last complete walk of its listing (`walks`), with that
 * walk's age. `pep sync --status` prints it; `--max-age` refuses a resource whose last
 * complete walk is older than asked (library/freshness.ts).
 */
import type { Queryable } from "./db.js";
import { schemaVersion } from "./migrations.js";
import type { Library } from "./open.js";
import { LIBRARY_RESOURCES, type LibraryResource } from "../api/enums.js";
import { LIBRARY } from "./schema.js";

/** One resource's row of the status. */
export interface ResourceStatus {
  resource: LibraryResource;
  /** Items its table holds now. */
  items: number;
  /** The sync whose complete walk last read its listing; null when none ever did. */
  sync_id: number | null;
  /** When that walk ended (ISO 8601). */
  synced_at: string | null;
  /** Seconds since then, at `now`. */
  age_seconds: number | null;
  /** The same, for people: `3d 4h`, `12m`, or `never`. */
  age: string;
}

export interface LibraryStatus {
  library: string;
  dialect: "sqlite" | "postgres";
  schema_version: number;
  /** The database's size: SQLite's pages (not counting a write-ahead log not yet folded in), or PostgreSQL's tables with their indexes. */
  size_bytes: number;
  resources: ResourceStatus[];
}

/** A span of seconds for people: its largest unit and the next one when not zero (`3d 4h`, `3d`, `5m 2s`). */
export function humanAge(seconds: number): string {
  const units: [string, number][] = [
    ["d", 86400],
    ["h", 3600],
    ["m", 60],
    ["s", 1],
  ];
  const whole = Math.max(0, Math.floor(seconds));
  const i = units.findIndex(([, size]) => whole >= size);
  if (i === -1) return "0s";
  const [unit, size] = units[i]!;
  const first = `${Math.floor(whole / size)}${unit}`;
  const next = units[i + 1];
  if (!next) return first;
  const n = Math.floor((whole % size) / next[1]);
  return n > 0 ? `${first} ${n}${next[0]}` : first;
}

async function sizeOf(db: Queryable, dialect: "sqlite" | "postgres"): Promise<number> {
  const row =
    dialect === "sqlite"
      ? await db.get<{ n: unknown }>("SELECT page_count * page_size AS n FROM pragma_page_count(), pragma_page_size()")
      : await db.get<{ n: unknown }>(
          `SELECT COALESCE(SUM(pg_total_relation_size(c.oid)), 0) AS n FROM pg_class c
           JOIN pg_namespace s ON s.oid = c.relnamespace
           WHERE s.nspname = current_schema() AND c.relkind IN ('r', 'p')`,
        );
  return Number(row?.n ?? 0);
}

/** The last complete walk of each resource that has one. */
export async function lastWalks(
  db: Pick<Queryable, "all">,
): Promise<Map<LibraryResource, { sync_id: number; finished_at: string; items: number }>> {
  const rows = await db.all<{ resource: string; sync_id: unknown; finished_at: string; items: unknown }>(
    "SELECT resource, sync_id, finished_at, items FROM walks",
  );
  const out = new Map<LibraryResource, { sync_id: number; finished_at: string; items: number }>();
  for (const r of rows) {
    if ((LIBRARY_RESOURCES as readonly string[]).includes(r.resource))
      out.set(r.resource as LibraryResource, {
        sync_id: Number(r.sync_id),
        finished_at: r.finished_at,
        items: Number(r.items),
      });
  }
  return out;
}

/** The ISO time `t` as seconds before `now` (never negative: a clock a little behind the syncer's). */
export const ageAt = (t: string, now: number): number => Math.max(0, Math.round((now - Date.parse(t)) / 1000));

export async function libraryStatus(lib: Library, now: number): Promise<LibraryStatus> {
  const { db } = lib;
  const walks = await lastWalks(db);
  const resources: ResourceStatus[] = [];
  for (const r of LIBRARY_RESOURCES) {
    const count = await db.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM "${LIBRARY[r].table}"`);
    const walk = walks.get(r);
    const age = walk ? ageAt(walk.finished_at, now) : null;
    resources.push({
      resource: r,
      items: Number(count?.n ?? 0),
      sync_id: walk?.sync_id ?? null,
      synced_at: walk?.finished_at ?? null,
      age_seconds: age,
      age: age === null ? "never" : humanAge(age),
    });
  }
  return {
    library: lib.location,
    dialect: lib.dialect,
    schema_version: await schemaVersion(db),
    size_bytes: await sizeOf(db, lib.dialect),
    resources,
  };
}
