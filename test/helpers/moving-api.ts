/**
 * A loopback API whose data the test changes between runs: `/v1/studies` lists its studies
 * newest first, in pages with offset cursors (`o<offset>`), as many real APIs do, so an
 * item inserted at the front moves every later page by one (or keyset cursors, `k<id>`). The test can insert items,
 * make a page fail or refuse a cursor (400, 404, 410, 422), hold a page until released,
 * or send an item on two pages.
 *
 *   const api = await startMovingApi(30);
 *   api.insertNewest(5);          // five new studies at the front
 *   api.refuse("o10", 410);       // that cursor is gone
 *   api.failAt("o20", 503);       // that page fails (once per call)
 */
import type { ServerResponse } from "node:http";
import { sendJson, startServer, type TestServer } from "./server.js";

export interface MovingStudy {
  id: string;
  title: string;
  publication_year: number;
}

export interface MovingApi extends TestServer {
  baseUrl: string;
  /** Newest first: what a fresh run lists. */
  studies: MovingStudy[];
  insertNewest(n: number): void;
  appendOldest(n: number): void;
  /** Renames a study (its title), so a page holding it changes. */
  retitle(index: number, title: string): void;
  /** The next request for `cursor` is refused with `status` (a cursor expired since). */
  refuse(cursor: string, status: number): void;
  /** The next `times` requests for `cursor` ("" for the first page) fail with `status`. */
  failAt(cursor: string, status: number, times?: number): void;
  /** The page at `cursor` also repeats the item before it (the API's pages overlap). */
  overlapAt(cursor: string): void;
  /** Requests for `cursor` wait until `release()`. */
  holdAt(cursor: string): { release(): void };
  heal(): void;
  /** The cursors asked for, in order ("" for the first page). */
  asked(): string[];
}

let made = 0;
const study = (n: number): MovingStudy => ({
  id: `pmid-${70000000 + n}`,
  title: `Study number ${n}`,
  publication_year: 2000 + (n % 25),
});

/**
 * `keyset`: cursors name the last item sent (`k<id>`: the items after it), as keyset
 * paging does, instead of an offset: an item inserted at the front moves no later page.
 */
export async function startMovingApi(total: number, options: { keyset?: boolean } = {}): Promise<MovingApi> {
  const studies: MovingStudy[] = [];
  for (let i = 0; i < total; i++) studies.unshift(study(++made));
  const refused = new Map<string, number>();
  const failing = new Map<string, { status: number; left: number }>();
  const overlaps = new Set<string>();
  const held = new Map<string, Promise<void>>();
  const asked: string[] = [];

  const envelope = (res: ServerResponse, status: number, code: string, id: number) =>
    sendJson(res, status, { error: { code, message: `${code} (test)`, request_id: `req_m${id}` } });

  const server = await startServer({
    "/v1/studies": async (req, res) => {
      const cursor = req.query.get("cursor") ?? "";
      asked.push(cursor);
      const hold = held.get(cursor);
      if (hold) await hold;
      const refusal = refused.get(cursor);
      if (refusal !== undefined) {
        refused.delete(cursor);
        return envelope(res, refusal, "invalid_cursor", req.index);
      }
      const fail = failing.get(cursor);
      if (fail && fail.left > 0) {
        fail.left -= 1;
        return envelope(res, fail.status, "service_unavailable", req.index);
      }
      const offset =
        cursor === ""
          ? 0
          : cursor.startsWith("k")
            ? studies.findIndex((s) => s.id === cursor.slice(1)) + 1
            : Number(cursor.slice(1));
      const limit = Number(req.query.get("limit") ?? 20);
      const data = studies.slice(offset, offset + limit);
      if (overlaps.has(cursor) && offset > 0) data.unshift(studies[offset - 1]!);
      const end = offset + limit;
      const more = end < studies.length;
      const next = !more ? null : options.keyset ? `k${studies[end - 1]!.id}` : `o${end}`;
      sendJson(res, 200, {
        data,
        pagination: { next_cursor: next, has_more: more },
        meta: { total: studies.length },
      });
    },
  });
  return {
    ...server,
    baseUrl: `${server.url}/v1`,
    studies,
    insertNewest(n) {
      for (let i = 0; i < n; i++) studies.unshift(study(++made));
    },
    appendOldest(n) {
      for (let i = 0; i < n; i++) studies.push({ ...study(++made), id: `pmid-6${String(made).padStart(7, "0")}` });
    },
    retitle(index, title) {
      studies[index] = { ...studies[index]!, title };
    },
    refuse: (cursor, status) => void refused.set(cursor, status),
    failAt: (cursor, status, times = 1) => void failing.set(cursor, { status, left: times }),
    overlapAt: (cursor) => void overlaps.add(cursor),
    holdAt(cursor) {
      let release = () => {};
      held.set(
        cursor,
        new Promise<void>((resolve) => {
          release = resolve;
        }),
      );
      return { release: () => release() };
    },
    heal() {
      refused.clear();
      failing.clear();
      overlaps.clear();
      for (const c of [...held.keys()]) held.delete(c);
      asked.length = 0;
    },
    asked: () => [...asked],
  };
}
