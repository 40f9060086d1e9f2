/** A small test client for the sandbox over real HTTP (global fetch on loopback). */
import type { Sandbox } from "../../src/sandbox/index.js";

export interface Reply {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface GetOptions {
  key?: string;
  /** How the key is sent; default bearer. */
  header?: "bearer" | "x-api-key";
  headers?: Record<string, string>;
  method?: string;
}

export async function get(sb: Sandbox, path: string, opts: GetOptions = {}): Promise<Reply> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key !== undefined) {
    if (opts.header === "x-api-key") headers["X-API-Key"] = opts.key;
    else headers.Authorization = `Bearer ${opts.key}`;
  }
  const res = await fetch(sb.baseUrl + path, { headers, method: opts.method ?? "GET" });
  const text = await res.text();
  let body: any;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

export const FULL = "sbx_full_key";

/** Every item of a paginated listing, following next_cursor. */
export async function collect(
  sb: Sandbox,
  path: string,
  opts: GetOptions = {},
): Promise<{ items: any[]; pages: number }> {
  const items: any[] = [];
  let pages = 0;
  let cursor: string | null = null;
  const sep = path.includes("?") ? "&" : "?";
  do {
    const r: Reply = await get(sb, cursor === null ? path : `${path}${sep}cursor=${encodeURIComponent(cursor)}`, opts);
    if (r.status !== 200) throw new Error(`${path}: HTTP ${r.status} ${r.text}`);
    items.push(...r.body.data);
    pages++;
    cursor = r.body.pagination.next_cursor;
    if (r.body.pagination.has_more !== (cursor !== null)) throw new Error("has_more disagrees with next_cursor");
    if (pages > 10_000) throw new Error("endless pagination");
  } while (cursor !== null);
  return { items, pages };
}
