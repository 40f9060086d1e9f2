/**
 * The offline reader over the library's SQL tables (docs/library.md), the same
 * statements on SQLite and PostgreSQL: a resource's items by their place in the API's
 * order (`ord`), the study -> citing peptide link, the detail answers, the last finished
 * sync and the `meta` the answers came with. Only stored text is returned (PostgreSQL's
 * `*_text` columns: its jsonb would not keep the number text).
 */
import type { LibraryResource } from "../api/enums.js";
import type { Meta } from "../http/client-types.js";
import { LIBRARY } from "../library/schema.js";
import { lastWalks } from "../library/status.js";
import type { LibraryReader, StoredDetail, StoredItem, StudyIdField, SyncInfo } from "./reader.js";

/** The part of the library's store this reader uses (library/db.ts). */
export interface SqlSource {
  readonly dialect: "sqlite" | "postgres";
  readonly location: string;
  all<T = Record<string, unknown>>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** A resource's table (library/schema.ts). */
const tableOf = (resource: LibraryResource): string => LIBRARY[resource].table;

const text = (v: unknown): string | undefined => (v === null || v === undefined ? undefined : String(v));

/** A stored `meta` object, or undefined when none is kept or it does not parse. */
function parseMeta(raw: unknown): Meta | undefined {
  if (typeof raw !== "string") return undefined;
  try {
    const v: unknown = JSON.parse(raw);
    return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Meta) : undefined;
  } catch {
    return undefined;
  }
}

type Row = { ord: unknown; item: unknown };

const toItem = (r: Row): StoredItem => ({ ord: Number(r.ord), text: String(r.item) });

/** A stored `meta` value by key, from the `meta` table. */
async function storedMeta(db: SqlSource, key: string): Promise<Meta | undefined> {
  const rows = await db.all<{ value: unknown }>("SELECT value FROM meta WHERE key = ?", [key]);
  return parseMeta(rows[0]?.value);
}

/** Whether the resource's items came from the sandbox (its data stays marked synthetic). */
async function synthetic(db: SqlSource, resource: LibraryResource): Promise<boolean> {
  const rows = await db.all<{ s: unknown }>(`SELECT synthetic AS s FROM "${tableOf(resource)}" LIMIT 1`);
  return rows.length > 0 && Number(rows[0]!.s) === 1;
}

/** Whether a finished sync took the resource (it may have found it empty). */
async function everSynced(db: SqlSource, resource: LibraryResource): Promise<boolean> {
  const some = await db.all(`SELECT 1 AS one FROM "${tableOf(resource)}" LIMIT 1`);
  if (some.length > 0) return true;
  const syncs = await db.all<{ r: unknown }>("SELECT resources AS r FROM syncs WHERE status <> 'running'");
  return syncs.some((s) => {
    const words: string[] = String(s.r ?? "").match(/[a-z-]+/g) ?? [];
    return words.includes(resource);
  });
}

/** `meta` as the answers came with it, without their request id, marked when synthetic. */
async function answerMeta(db: SqlSource, resource: LibraryResource, key: string, fallback?: Meta): Promise<Meta> {
  const meta: Meta = { ...((await storedMeta(db, key)) ?? fallback) };
  delete meta.request_id;
  if (await synthetic(db, resource)) meta.sandbox = true;
  return meta;
}

async function lastSync(db: SqlSource): Promise<SyncInfo | undefined> {
  const rows = await db.all<Record<string, unknown>>(
    "SELECT id, finished_at, base_url, api_version FROM syncs WHERE status <> 'running' AND finished_at IS NOT NULL ORDER BY id DESC LIMIT 1",
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: String(r.id),
    finishedAt: String(r.finished_at),
    baseUrl: text(r.base_url),
    apiVersion: text(r.api_version),
  };
}

/** The item with `id`: exactly, else the one id equal to it ignoring case. */
async function oneItem(db: SqlSource, itemCol: string, resource: LibraryResource, id: string) {
  const table = `"${tableOf(resource)}"`;
  const exact = await db.all<Row>(`SELECT ord, ${itemCol} AS item FROM ${table} WHERE id = ?`, [id]);
  if (exact[0]) return toItem(exact[0]);
  const loose = await db.all<Row>(`SELECT ord, ${itemCol} AS item FROM ${table} WHERE lower(id) = lower(?) LIMIT 2`, [
    id,
  ]);
  return loose.length === 1 ? toItem(loose[0]!) : undefined;
}

/** The study with this identifier: exactly (its index), else the one equal to it ignoring case. */
async function studyBy(db: SqlSource, itemCol: string, field: StudyIdField, value: string) {
  const exact = await db.all<Row>(`SELECT ord, ${itemCol} AS item FROM studies WHERE ${field} = ? LIMIT 2`, [value]);
  if (exact.length === 1) return toItem(exact[0]!);
  if (exact.length > 1) return undefined;
  const loose = await db.all<Row>(
    `SELECT ord, ${itemCol} AS item FROM studies WHERE lower(${field}) = lower(?) LIMIT 2`,
    [value],
  );
  return loose.length === 1 ? toItem(loose[0]!) : undefined;
}

export function sqlReader(db: SqlSource): LibraryReader {
  const pg = db.dialect === "postgres";
  const itemCol = pg ? "item_text" : "item";
  const bodyCol = pg ? "body_text" : "body";
  const metaCache = new Map<LibraryResource, Promise<Meta | undefined>>();
  const listMeta = (resource: LibraryResource) => {
    let p = metaCache.get(resource);
    if (!p) {
      p = everSynced(db, resource).then((yes) => (yes ? answerMeta(db, resource, `list:${resource}`) : undefined));
      metaCache.set(resource, p);
    }
    return p;
  };
  return {
    where: db.location,
    lastSync: () => lastSync(db),
    async walk(resource) {
      const w = (await lastWalks(db)).get(resource);
      return w && { syncId: w.sync_id, finishedAt: w.finished_at, items: w.items };
    },
    listMeta,
    async items(resource, { after, limit, citedBy }) {
      const table = `"${tableOf(resource)}"`;
      const rows =
        citedBy === undefined
          ? await db.all<Row>(`SELECT ord, ${itemCol} AS item FROM ${table} WHERE ord > ? ORDER BY ord LIMIT ?`, [
              after,
              limit,
            ])
          : await db.all<Row>(
              `SELECT t.ord AS ord, t.${itemCol} AS item FROM ${table} t JOIN study_cited_by c ON c.study_id = t.id WHERE c.peptide_id = ? AND t.ord > ? ORDER BY t.ord LIMIT ?`,
              [citedBy, after, limit],
            );
      return rows.map(toItem);
    },
    item: (resource, id) => oneItem(db, itemCol, resource, id),
    study: (field, value) => studyBy(db, itemCol, field, value),
    async detail(resource, kind, id): Promise<StoredDetail | undefined> {
      const rows = await db.all<{ body: unknown }>(
        `SELECT ${bodyCol} AS body FROM details WHERE resource = ? AND id = ? AND kind = ?`,
        [resource, id, kind],
      );
      const body = rows[0]?.body;
      if (body === undefined || body === null) return undefined;
      const meta = await answerMeta(db, resource, `detail:${resource}:${kind}`, await listMeta(resource));
      return { text: String(body), meta };
    },
    close: () => db.close(),
  };
}
