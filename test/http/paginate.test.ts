import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/http/client.js";
import { pageSizeFor } from "../../src/http/paginate.js";
import type { Client, Paginator } from "../../src/http/client-types.js";
import { ApiError, PaginationLoopError, exitCodeFor, resumeCursorOf } from "../../src/core/errors.js";
import { envelope, errorBody, sendJson, startServer, type Handler, type TestServer } from "../helpers/server.js";
import { FakeClock } from "./fake-clock.js";

/** Opaque cursors with the characters that break naive encoding. */
const cursorFor = (offset: number) => `c+${Buffer.from(`offset=${offset}`).toString("base64")}/==`;
const offsetOf = (cursor: string | null) => {
  if (!cursor) return 0;
  const m = /^c\+(.*)\/==$/.exec(cursor);
  if (!m) throw new Error(`bad cursor ${cursor}`);
  return Number(Buffer.from(m[1]!, "base64").toString().split("=")[1]);
};

/** A list endpoint over `total` items, honouring limit and cursor. */
function listOf(total: number, opts: { failAtOffset?: number } = {}): Handler {
  return (req, res) => {
    const offset = offsetOf(req.query.get("cursor"));
    if (offset === opts.failAtOffset) return sendJson(res, 500, errorBody("internal", "boom"));
    const limit = Number(req.query.get("limit") ?? 20);
    const items = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => ({ id: offset + i }));
    const end = offset + items.length;
    sendJson(
      res,
      200,
      envelope(items, {
        pagination: { next_cursor: end < total ? cursorFor(end) : null, has_more: end < total },
        meta: { page_offset: offset },
      }),
    );
  };
}

let srv: TestServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await srv?.close();
  client = undefined;
  srv = undefined;
});

async function setup(handler: Handler) {
  srv = await startServer({ "/v1/studies": handler });
  client = createClient({ baseUrl: `${srv.url}/v1`, retries: 0, clock: new FakeClock() });
  return { srv, client };
}

async function collect<T>(p: Paginator<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of p) out.push(x);
  return out;
}

const ids = (items: unknown[]) => items.map((x) => (x as { id: number }).id);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe("pagination", () => {
  it("follows the cursors to the end, with no duplicates and exact cursors", async () => {
    const { srv, client } = await setup(listOf(23));
    const p = client.paginate("/studies", { pageSize: 10, query: { sort: "newest" } });
    expect(ids(await collect(p))).toEqual(range(0, 23));
    expect(srv.requests.map((r) => [r.query.get("limit"), r.query.get("cursor"), r.query.get("sort")])).toEqual([
      ["10", null, "newest"],
      ["10", cursorFor(10), "newest"],
      ["10", cursorFor(20), "newest"],
    ]);
    expect(p.state).toEqual({
      pages: 3,
      items: 23,
      currentCursor: cursorFor(20),
      pageStart: 20,
      nextCursor: undefined,
      meta: { page_offset: 20 },
      pageLeft: 0,
    });
  });

  it("knows when the last item out ended its page (what --jq and a stopped run go by)", async () => {
    const { client } = await setup(listOf(23));
    const p = client.paginate("/studies", { pageSize: 10 });
    const ends: number[] = [];
    let n = 0;
    for await (const _ of p) {
      n++;
      if (p.state.pageLeft === 0) ends.push(n);
    }
    expect(ends).toEqual([10, 20, 23]);
    // A limit that cuts a page short ends it where the limit does.
    const cut = client.paginate("/studies", { pageSize: 10, limit: 15 });
    const cutEnds: number[] = [];
    n = 0;
    for await (const _ of cut) {
      n++;
      if (cut.state.pageLeft === 0) cutEnds.push(n);
    }
    expect(cutEnds).toEqual([10, 15]);
  });

  it("defaults the page size to 100, or min(limit, 100)", async () => {
    expect(pageSizeFor({})).toBe(100);
    expect(pageSizeFor({ limit: 30 })).toBe(30);
    expect(pageSizeFor({ limit: 500 })).toBe(100);
    expect(pageSizeFor({ limit: 500, pageSize: 7 })).toBe(7);
    const { srv, client } = await setup(listOf(250));
    expect(ids(await collect(client.paginate("/studies", { limit: 30 })))).toEqual(range(0, 30));
    expect(srv.requests.map((r) => r.query.get("limit"))).toEqual(["30"]);
  });

  it("stops at the limit across pages, asking only for what is left, and tells the next cursor", async () => {
    const { srv, client } = await setup(listOf(100));
    const p = client.paginate("/studies", { limit: 25, pageSize: 10 });
    expect(ids(await collect(p))).toEqual(range(0, 25));
    expect(srv.requests.map((r) => r.query.get("limit"))).toEqual(["10", "10", "5"]);
    expect(p.state.items).toBe(25);
    expect(p.state.nextCursor).toBe(cursorFor(25));
  });

  it("does not fetch another page once the limit is met on a page boundary", async () => {
    const { srv, client } = await setup(listOf(100));
    const p = client.paginate("/studies", { limit: 20, pageSize: 10 });
    await collect(p);
    expect(srv.requests).toHaveLength(2);
    expect(p.state.nextCursor).toBe(cursorFor(20));
  });

  it("the limit ending exactly at the last page leaves no next cursor", async () => {
    const { client } = await setup(listOf(20));
    const p = client.paginate("/studies", { limit: 20, pageSize: 10 });
    await collect(p);
    expect(p.state.nextCursor).toBeUndefined();
  });

  it("a consumer break sends no further request", async () => {
    const { srv, client } = await setup(listOf(100));
    const seen: number[] = [];
    for await (const item of client.paginate<{ id: number }>("/studies", { pageSize: 10 })) {
      seen.push(item.id);
      if (seen.length === 3) break;
    }
    await new Promise((r) => setTimeout(r, 50));
    expect(seen).toEqual([0, 1, 2]);
    expect(srv.requests).toHaveLength(1);
  });

  it("starts from a given cursor, sent byte for byte", async () => {
    const { srv, client } = await setup(listOf(35));
    const p = client.paginate("/studies", { cursor: cursorFor(20), pageSize: 10 });
    expect(ids(await collect(p))).toEqual(range(20, 35));
    expect(srv.requests[0]!.query.get("cursor")).toBe(cursorFor(20));
  });

  it("a server that sends more than asked still stops at the limit", async () => {
    const { client } = await setup((_req, res) =>
      sendJson(
        res,
        200,
        envelope(
          range(0, 10).map((id) => ({ id })),
          { pagination: { next_cursor: "more", has_more: true } },
        ),
      ),
    );
    const p = client.paginate("/studies", { limit: 4 });
    expect(ids(await collect(p))).toEqual([0, 1, 2, 3]);
    expect(p.state.nextCursor).toBeUndefined();
  });

  it("stops with PaginationLoopError when a cursor comes back", async () => {
    const { srv, client } = await setup((req, res) =>
      sendJson(
        res,
        200,
        envelope([{ id: req.index }], {
          pagination: { next_cursor: req.index === 0 ? "A" : req.index === 1 ? "B" : "A", has_more: true },
        }),
      ),
    );
    const p = client.paginate("/studies");
    const got: unknown[] = [];
    const err = await (async () => {
      for await (const x of p) got.push(x);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaginationLoopError);
    expect(exitCodeFor(err)).toBe(6);
    expect((err as PaginationLoopError).cursor).toBe("A");
    expect(srv.requests).toHaveLength(3);
    expect(ids(got)).toEqual([0, 1]);
  });

  it("a next cursor equal to the start cursor is a loop too", async () => {
    const { client } = await setup((_req, res) =>
      sendJson(res, 200, envelope([{ id: 1 }], { pagination: { next_cursor: "S", has_more: true } })),
    );
    await expect(collect(client.paginate("/studies", { cursor: "S" }))).rejects.toBeInstanceOf(PaginationLoopError);
  });

  it("an error mid-run carries the cursor of the page that failed", async () => {
    const { client } = await setup(listOf(50, { failAtOffset: 20 }));
    const got: unknown[] = [];
    const p = client.paginate("/studies", { pageSize: 10 });
    const err = await (async () => {
      for await (const x of p) got.push(x);
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(resumeCursorOf(err)).toBe(cursorFor(20));
    expect(p.state.currentCursor).toBe(cursorFor(20));
    expect(ids(got)).toEqual(range(0, 20));
  });

  it("an error on the first page has no resume cursor", async () => {
    const { client } = await setup(listOf(50, { failAtOffset: 0 }));
    const err = await collect(client.paginate("/studies")).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(resumeCursorOf(err)).toBeUndefined();
  });

  it("a page whose data is not a list is a ResponseError", async () => {
    const { client } = await setup((_req, res) => sendJson(res, 200, envelope({ not: "a list" })));
    await expect(collect(client.paginate("/studies"))).rejects.toThrow(/expected a list/);
  });

  it("an abort between pages stops with the resume cursor", async () => {
    const { srv, client } = await setup(listOf(100));
    const ac = new AbortController();
    const got: number[] = [];
    const err = await (async () => {
      for await (const x of client.paginate<{ id: number }>("/studies", { pageSize: 10, signal: ac.signal })) {
        got.push(x.id);
        if (got.length === 10) ac.abort();
      }
    })().catch((e: unknown) => e);
    expect(exitCodeFor(err)).toBe(130);
    expect(resumeCursorOf(err)).toBe(cursorFor(10));
    expect(srv.requests).toHaveLength(1);
  });
});
