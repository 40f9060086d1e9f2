/**
 * A library filled from a server for offline tests: every list resource walked in the
 * API's default order, each item kept as its JSON text, the detail answers of peptides,
 * vendors and studies, the study -> citing peptide link, the page `meta` and one finished
 * sync, in the tables of docs/library.md. Needs node:sqlite (Node 22.5 and later).
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { parseJsonExact, stringifyExact } from "../../src/core/exact-number.js";
import { createClient } from "../../src/http/client.js";
import type { Client } from "../../src/http/types.js";

export const HAS_SQLITE = process.getBuiltinModule?.("node:sqlite") !== undefined;

interface Db {
  exec(sql: string): void;
  prepare(sql: string): { run(...p: unknown[]): unknown };
  close(): void;
}

const LISTS: Record<string, string> = {
  peptides: "/peptides",
  studies: "/studies",
  vendors: "/vendors",
  products: "/products",
  prices: "/prices",
  categories: "/categories",
  "research-areas": "/research-areas",
};

async function walk(client: Client, p: string): Promise<{ items: unknown[]; meta: Record<string, unknown> }> {
  const items: unknown[] = [];
  let meta: Record<string, unknown> = {};
  for (let cursor: string | undefined; ; ) {
    const res = await client.request<unknown[]>(p, { query: { limit: 100, cursor }, noCache: true });
    const body = parseJsonExact(res.text) as { data: unknown[]; meta: Record<string, unknown> };
    items.push(...body.data);
    meta = body.meta;
    cursor = res.pagination?.next_cursor ?? undefined;
    if (!res.pagination?.has_more || !cursor) return { items, meta };
  }
}

async function dataText(client: Client, p: string): Promise<string> {
  const res = await client.request(p, { noCache: true });
  return stringifyExact((parseJsonExact(res.text) as { data: unknown }).data)!;
}

function schema(db: Db): void {
  for (const r of Object.keys(LISTS))
    db.exec(
      `CREATE TABLE "${r.replace(/-/g, "_")}" (id TEXT PRIMARY KEY, item TEXT NOT NULL, ord INTEGER NOT NULL, synthetic INTEGER NOT NULL DEFAULT 0)`,
    );
  db.exec(`CREATE TABLE details (resource TEXT, id TEXT, kind TEXT, body TEXT NOT NULL, PRIMARY KEY (resource, id, kind));
CREATE TABLE study_cited_by (study_id TEXT, peptide_id TEXT, position INTEGER, PRIMARY KEY (study_id, peptide_id));
CREATE TABLE syncs (id INTEGER PRIMARY KEY, started_at TEXT, finished_at TEXT, base_url TEXT, api_version TEXT, resources TEXT, status TEXT);
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);`);
}

/** Fills `<dataDir>/library/default.sqlite` from `baseUrl`; resolves to the sync's finish time. */
export async function fillLibrary(
  baseUrl: string,
  dataDir: string,
  options: { apiKey?: string; finishedAt?: string } = {},
): Promise<string> {
  const { DatabaseSync } = process.getBuiltinModule("node:sqlite") as { DatabaseSync: new (p: string) => Db };
  const folder = path.join(dataDir, "library");
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const db = new DatabaseSync(path.join(folder, "default.sqlite"));
  const client = createClient({ baseUrl, apiKey: options.apiKey ?? "sbx_full_key", cache: false });
  try {
    schema(db);
    const put = (sql: string, ...p: unknown[]) => db.prepare(sql).run(...p);
    const ids: Record<string, string[]> = {};
    let apiVersion: unknown;
    for (const [resource, p] of Object.entries(LISTS)) {
      const { items, meta } = await walk(client, p);
      const synthetic = meta.sandbox === true ? 1 : 0;
      apiVersion ??= meta.api_version;
      const { request_id: _r, ...kept } = meta;
      put("INSERT INTO meta (key, value) VALUES (?, ?)", `list:${resource}`, JSON.stringify(kept));
      ids[resource] = [];
      items.forEach((item, ord) => {
        const id = String((item as { id: unknown }).id);
        ids[resource]!.push(id);
        const table = resource.replace(/-/g, "_");
        put(
          `INSERT INTO "${table}" (id, item, ord, synthetic) VALUES (?, ?, ?, ?)`,
          id,
          stringifyExact(item),
          ord,
          synthetic,
        );
        if (resource === "studies")
          ((item as { cited_by?: string[] }).cited_by ?? []).forEach((pid, i) =>
            put("INSERT INTO study_cited_by (study_id, peptide_id, position) VALUES (?, ?, ?)", id, pid, i),
          );
      });
    }
    const detail = async (resource: string, id: string, kind: string, p: string) =>
      put(
        "INSERT INTO details (resource, id, kind, body) VALUES (?, ?, ?, ?)",
        resource,
        id,
        kind,
        await dataText(client, p),
      );
    for (const id of ids.peptides!) {
      const e = encodeURIComponent(id);
      await detail("peptides", id, "profile", `/peptides/${e}`);
      await detail("peptides", id, "research", `/peptides/${e}/research`);
      await detail("peptides", id, "regulatory", `/regulatory-status/${e}`);
      const cited = await walk(client, `/peptides/${e}/studies`);
      put(
        "INSERT INTO details (resource, id, kind, body) VALUES (?, ?, ?, ?)",
        "peptides",
        id,
        "studies",
        stringifyExact(cited.items),
      );
    }
    for (const id of ids.vendors!) await detail("vendors", id, "profile", `/vendors/${encodeURIComponent(id)}`);
    for (const id of ids.studies!) await detail("studies", id, "profile", `/studies/${encodeURIComponent(id)}`);
    const finishedAt = options.finishedAt ?? "2026-11-27T07:00:00.000Z";
    put(
      "INSERT INTO syncs (id, started_at, finished_at, base_url, api_version, resources, status) VALUES (1, ?, ?, ?, ?, ?, 'finished')",
      finishedAt,
      finishedAt,
      baseUrl,
      String(apiVersion ?? ""),
      Object.keys(LISTS).join(","),
    );
    return finishedAt;
  } finally {
    db.close();
    await client.close();
  }
}
