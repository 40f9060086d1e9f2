/**
 * A library filled from a server for offline tests: every list resource walked in the
 * API's default order, each item kept as its JSON text, the detail answers of peptides,
 * vendors and studies, the study -> citing peptide link, the page `meta` and one finished
 * sync, in the tables of docs/library.md. Needs node:sqlite (Node 22.5 and later).
 */
import path from "node:path";
import { parseJsonExact, stringifyExact } from "../../src/core/exact-number.js";
import { createClient } from "../../src/http/client.js";
import type { Client } from "../../src/http/client-types.js";
import type { LibraryTarget } from "../../src/library/location.js";
import { openLibraryAt } from "../../src/library/open.js";

export const HAS_SQLITE = process.getBuiltinModule?.("node:sqlite") !== undefined;

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

/**
 * Fills the library at `target` (made with the library's own migrations) from `baseUrl`;
 * resolves to the sync's finish time.
 */
export async function fillLibraryAt(
  baseUrl: string,
  target: LibraryTarget,
  options: { apiKey?: string; finishedAt?: string } = {},
): Promise<string> {
  const lib = await openLibraryAt(target, { write: true });
  const client = createClient({ baseUrl, apiKey: options.apiKey ?? "sbx_full_key", cache: false });
  const finishedAt = options.finishedAt ?? "2026-11-27T07:00:00.000Z";
  const pg = lib.dialect === "postgres";
  try {
    const put = (sql: string, ...p: unknown[]) => lib.db.run(sql, p);
    const ids: Record<string, string[]> = {};
    let apiVersion: unknown;
    let synthetic = 0;
    for (const [resource, p] of Object.entries(LISTS)) {
      const { items, meta } = await walk(client, p);
      synthetic = meta.sandbox === true ? 1 : 0;
      apiVersion ??= meta.api_version;
      const { request_id: _r, ...kept } = meta;
      await put("INSERT INTO meta (key, value) VALUES (?, ?)", `list:${resource}`, JSON.stringify(kept));
      // Each listing read whole, as a sync's complete walk records it.
      await put(
        "INSERT INTO walks (resource, sync_id, finished_at, items) VALUES (?, 1, ?, ?)",
        resource,
        finishedAt,
        items.length,
      );
      ids[resource] = [];
      const table = resource.replace(/-/g, "_");
      const itemCols = pg ? "item, item_text" : "item";
      const itemMarks = pg ? "?, ?" : "?";
      for (const [ord, item] of items.entries()) {
        const id = String((item as { id: unknown }).id);
        ids[resource]!.push(id);
        const text = stringifyExact(item);
        await put(
          `INSERT INTO "${table}" (id, ${itemCols}, ord, first_seen, last_seen, last_sync, synthetic) VALUES (?, ${itemMarks}, ?, ?, ?, 1, ?)`,
          id,
          ...(pg ? [text, text] : [text]),
          ord,
          finishedAt,
          finishedAt,
          synthetic,
        );
        if (resource === "studies")
          for (const [i, pid] of ((item as { cited_by?: string[] }).cited_by ?? []).entries())
            await put("INSERT INTO study_cited_by (study_id, peptide_id, position) VALUES (?, ?, ?)", id, pid, i);
      }
    }
    const store = (resource: string, id: string, kind: string, text: string) =>
      put(
        `INSERT INTO details (resource, id, kind, ${pg ? "body, body_text" : "body"}, fetched_at, sync_id) VALUES (?, ?, ?, ${pg ? "?, ?" : "?"}, ?, 1)`,
        resource,
        id,
        kind,
        ...(pg ? [text, text] : [text]),
        finishedAt,
      );
    const detail = async (resource: string, id: string, kind: string, p: string) =>
      store(resource, id, kind, await dataText(client, p));
    for (const id of ids.peptides!) {
      const e = encodeURIComponent(id);
      await detail("peptides", id, "profile", `/peptides/${e}`);
      await detail("peptides", id, "research", `/peptides/${e}/research`);
      await detail("peptides", id, "regulatory", `/regulatory-status/${e}`);
      await store("peptides", id, "studies", stringifyExact((await walk(client, `/peptides/${e}/studies`)).items)!);
    }
    for (const id of ids.vendors!) await detail("vendors", id, "profile", `/vendors/${encodeURIComponent(id)}`);
    for (const id of ids.studies!) await detail("studies", id, "profile", `/studies/${encodeURIComponent(id)}`);
    await put(
      "INSERT INTO syncs (id, started_at, finished_at, base_url, api_version, pep_version, resources, status, synthetic) VALUES (1, ?, ?, ?, ?, '0.0.0-test', ?, 'complete', ?)",
      finishedAt,
      finishedAt,
      baseUrl,
      String(apiVersion ?? ""),
      Object.keys(LISTS).join(","),
      synthetic,
    );
    return finishedAt;
  } finally {
    await lib.close();
    await client.close();
  }
}

/** `fillLibraryAt` for the default SQLite file of the profile `default` under `dataDir`. */
export function fillLibrary(baseUrl: string, dataDir: string, options: { apiKey?: string; finishedAt?: string } = {}) {
  return fillLibraryAt(baseUrl, { kind: "sqlite", file: path.join(dataDir, "library", "default.sqlite") }, options);
}
