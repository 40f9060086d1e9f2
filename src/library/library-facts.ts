/**
 * What a manifest says of the library an answer came from (docs/cli.md#manifests): its
 * identity (engine, name, schema version), its last finished sync, the API it was filled
 * from as the index named it, each resource's complete walk (the sync it belongs to, when
 * that sync started and when the walk ended), and the stored request of each list page
 * holding items the answer read. Read only with `--manifest`, through the reader's own
 * connection (its snapshot: the same state the answer read).
 */
import { LIBRARY_RESOURCES, type LibraryResource } from "../api/enums.js";
import type { FactsSource, LibraryFacts, StoredPage } from "./facts-types.js";
import { LIBRARY } from "./schema.js";
import { lastWalks } from "./status.js";

export type { FactsSource, LibraryFacts, StoredPage, WalkFacts } from "./facts-types.js";

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

/** The index the last sync that asked kept in `meta` (its name, when kept). */
async function indexName(db: FactsSource): Promise<string | undefined> {
  const rows = await db.all<{ value: unknown }>("SELECT value FROM meta WHERE key = 'index'");
  try {
    const v = JSON.parse(String(rows[0]?.value ?? "null")) as { name?: unknown } | null;
    return typeof v?.name === "string" ? v.name : undefined;
  } catch {
    return undefined;
  }
}

export async function libraryFacts(db: FactsSource, resources?: readonly LibraryResource[]): Promise<LibraryFacts> {
  const version = await db.all<{ v: unknown }>("SELECT MAX(version) AS v FROM schema_migrations");
  const syncs = await db.all<Record<string, unknown>>(
    "SELECT id, started_at, finished_at, status, base_url, api_version, synthetic FROM syncs WHERE status <> 'running' AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1",
  );
  const s = syncs[0];
  const walks = await lastWalks(db);
  const wanted = (resources ?? LIBRARY_RESOURCES).filter((r) => walks.has(r));
  const ids = [...new Set(wanted.map((r) => walks.get(r)!.sync_id))];
  const starts = new Map<number, string>();
  if (ids.length > 0) {
    const rows = await db.all<{ id: unknown; started_at: unknown }>(
      `SELECT id, started_at FROM syncs WHERE id IN (${ids.map(() => "?").join(", ")})`,
      ids,
    );
    for (const r of rows) starts.set(Number(r.id), String(r.started_at));
  }
  return {
    dialect: db.dialect,
    location: db.location,
    schemaVersion: version[0]?.v === null || version[0]?.v === undefined ? undefined : Number(version[0].v),
    lastSync: s && {
      id: Number(s.id),
      startedAt: String(s.started_at),
      finishedAt: String(s.finished_at),
      status: String(s.status),
      baseUrl: text(s.base_url),
      apiVersion: text(s.api_version),
      synthetic: Number(s.synthetic) === 1,
    },
    apiName: await indexName(db),
    walks: wanted.map((resource) => {
      const w = walks.get(resource)!;
      return {
        resource,
        syncId: w.sync_id,
        startedAt: starts.get(w.sync_id),
        finishedAt: w.finished_at,
        items: w.items,
      };
    }),
  };
}

/** The stored pages of `resource`'s last walk that hold any of `ids`, in the walk's order. */
export async function storedPages(
  db: FactsSource,
  resource: LibraryResource,
  ids: ReadonlySet<string>,
): Promise<StoredPage[]> {
  const rows = await db.all<Record<string, unknown>>(
    "SELECT query, cursor, etag, next_cursor, item_ids, fetched_at FROM _pep_pages WHERE resource = ?",
    [resource],
  );
  // A walk's pages are a chain from the empty cursor, each naming the next.
  const byCursor = new Map(rows.map((r) => [String(r.cursor), r]));
  const out: StoredPage[] = [];
  const seen = new Set<string>();
  const chained = [...rows].sort((a, b) => String(a.fetched_at).localeCompare(String(b.fetched_at)));
  const order: Record<string, unknown>[] = [];
  for (let r = byCursor.get(""); r && !seen.has(String(r.cursor)); r = byCursor.get(String(r.next_cursor ?? ""))) {
    seen.add(String(r.cursor));
    order.push(r);
    if (r.next_cursor === null || r.next_cursor === undefined) break;
  }
  for (const r of chained) if (!seen.has(String(r.cursor))) order.push(r);
  for (const r of order) {
    let itemIds: string[];
    try {
      itemIds = (JSON.parse(String(r.item_ids)) as unknown[]).map(String);
    } catch {
      continue;
    }
    if (!itemIds.some((id) => ids.has(id))) continue;
    const cursor = String(r.cursor);
    out.push({
      resource,
      path: LIBRARY[resource].endpoint.path,
      query: `${String(r.query)}${cursor === "" ? "" : `&${new URLSearchParams({ cursor }).toString()}`}`,
      cursor,
      etag: text(r.etag),
      fetchedAt: String(r.fetched_at),
      itemIds,
    });
  }
  return out;
}

/**
 * The facts, read inside a PostgreSQL reader's snapshot in a savepoint of it (a library
 * missing a table then leaves the snapshot usable, as pep sql's synthetic-data notice does).
 */
export async function libraryFactsHeld(
  db: FactsSource & { run(sql: string): Promise<unknown> },
  resources?: readonly LibraryResource[],
): Promise<LibraryFacts> {
  if (db.dialect !== "postgres") return libraryFacts(db, resources);
  await db.run("SAVEPOINT pep_facts");
  try {
    const facts = await libraryFacts(db, resources);
    await db.run("RELEASE SAVEPOINT pep_facts");
    return facts;
  } catch (err) {
    await db.run("ROLLBACK TO SAVEPOINT pep_facts").catch(() => undefined);
    throw err;
  }
}
