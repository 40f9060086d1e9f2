/**
 * The API fetched directly (plain `fetch`, no pep code), so tests can compare what the
 * CLI printed with what the server holds.
 */
export interface Envelope {
  data: unknown;
  pagination?: { next_cursor: string | null; has_more: boolean };
  meta?: Record<string, unknown>;
  error?: { code: string; message: string; request_id: string };
}

export async function getJson(
  baseUrl: string,
  p: string,
  query: Record<string, string | number> = {},
): Promise<{ status: number; body: Envelope }> {
  const url = new URL(baseUrl.replace(/\/+$/, "") + p);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, String(v));
  const res = await fetch(url);
  return { status: res.status, body: (await res.json()) as Envelope };
}

/** Every item of a paginated list, following the cursors. */
export async function fetchAll(
  baseUrl: string,
  p: string,
  query: Record<string, string | number> = {},
  pageSize = 100,
): Promise<unknown[]> {
  const items: unknown[] = [];
  let cursor: string | undefined;
  for (let guard = 0; guard < 10_000; guard++) {
    const { status, body } = await getJson(baseUrl, p, { ...query, limit: pageSize, ...(cursor ? { cursor } : {}) });
    if (status !== 200) throw new Error(`GET ${p}: HTTP ${status} ${JSON.stringify(body)}`);
    items.push(...(body.data as unknown[]));
    if (!body.pagination?.has_more || !body.pagination.next_cursor) return items;
    cursor = body.pagination.next_cursor;
  }
  throw new Error("too many pages");
}

export const ids = (items: unknown[]): string[] => items.map((i) => String((i as { id: unknown }).id));
