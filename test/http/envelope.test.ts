import { afterEach, describe, expect, it } from "vitest";
import { MAX_DEPTH, nestsDeeperThan, parseError, parseSuccess } from "../../src/http/envelope.js";
import { createClient } from "../../src/http/client.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

describe("success envelope", () => {
  it("keeps unknown fields and reads pagination", () => {
    const r = parseSuccess({
      data: [1, 2],
      pagination: { next_cursor: "c", has_more: true, total: 9 },
      meta: { x: 1 },
      extra: "y",
    });
    expect(r).toEqual({
      ok: true,
      value: { data: [1, 2], pagination: { next_cursor: "c", has_more: true, total: 9 }, meta: { x: 1 } },
    });
  });

  it("reads a missing or odd meta as {}", () => {
    expect(parseSuccess({ data: 1 })).toEqual({ ok: true, value: { data: 1, pagination: undefined, meta: {} } });
    expect(parseSuccess({ data: 1, meta: null })).toMatchObject({ ok: true, value: { meta: {} } });
    expect(parseSuccess({ data: 1, meta: "x" })).toMatchObject({ ok: true, value: { meta: {} } });
  });

  it("accepts data: null but not a missing data", () => {
    expect(parseSuccess({ data: null, meta: {} })).toMatchObject({ ok: true, value: { data: null } });
    const r = parseSuccess({ meta: {} });
    expect(r.ok).toBe(false);
    expect(!r.ok && r.reason).toMatch(/data/);
  });

  it("refuses arrays, strings and null", () => {
    for (const v of [[1], "x", null, 3]) expect(parseSuccess(v).ok).toBe(false);
  });

  it("derives has_more from the cursor when absent, and treats an empty cursor as none", () => {
    expect(parseSuccess({ data: [], pagination: { next_cursor: "n" } })).toMatchObject({
      value: { pagination: { next_cursor: "n", has_more: true } },
    });
    expect(parseSuccess({ data: [], pagination: { next_cursor: "", has_more: true } })).toMatchObject({
      value: { pagination: { next_cursor: null, has_more: true } },
    });
    expect(parseSuccess({ data: [], pagination: {} })).toMatchObject({
      value: { pagination: { next_cursor: null, has_more: false } },
    });
  });
});

describe("error envelope", () => {
  it("reads code, message and request_id, keeping unknown fields", () => {
    expect(parseError({ error: { code: "bad", message: "m", request_id: "r1", details: [1] }, extra: 2 })).toEqual({
      error: { code: "bad", message: "m", request_id: "r1", details: [1] },
      extra: 2,
    });
  });

  it("is tolerant of missing or numeric fields and refuses what is not one", () => {
    expect(parseError({ error: { code: 42 } })).toEqual({ error: { code: "42" } });
    expect(parseError({ error: "boom" })).toBeUndefined();
    expect(parseError({ message: "x" })).toBeUndefined();
    expect(parseError("x")).toBeUndefined();
  });
});

describe("client parsing", () => {
  let srv: TestServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });

  it("returns data, meta, pagination and the whole body, unknown fields included", async () => {
    srv = await startServer((_req, res) =>
      sendJson(
        res,
        200,
        envelope([{ id: "a", future_field: true }], {
          pagination: { next_cursor: null, has_more: false },
          meta: { affiliate_disclosure: "d", new: 1 },
          extra: "kept",
        }),
        {
          "x-request-id": "req_1",
          etag: '"e1"',
          "ratelimit-limit": "60",
          "ratelimit-remaining": "59",
          "ratelimit-reset": "30",
        },
      ),
    );
    const client = createClient({ baseUrl: `${srv.url}/v1` });
    try {
      const res = await client.request<{ id: string }[]>("/peptides");
      expect(res.status).toBe(200);
      expect(res.data).toEqual([{ id: "a", future_field: true }]);
      expect(res.meta).toEqual({ affiliate_disclosure: "d", new: 1 });
      expect(res.pagination).toEqual({ next_cursor: null, has_more: false });
      expect(res.body).toMatchObject({ extra: "kept" });
      expect(res.requestId).toBe("req_1");
      expect(res.etag).toBe('"e1"');
      expect(res.rateLimit).toEqual({ limit: 60, remaining: 59, reset: 30 });
      expect(res.fromCache).toBe(false);
      expect(res.bytes).toBe(Buffer.byteLength(JSON.stringify(res.body)));
    } finally {
      await client.close();
    }
  });
});

describe("nesting depth", () => {
  const deep = (levels: number): unknown => {
    let v: unknown = "x";
    for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { v };
    return v;
  };
  it("counts objects and arrays, not scalars, without recursion", () => {
    expect(nestsDeeperThan("x", 0)).toBe(false);
    expect(nestsDeeperThan({ a: 1 }, 1)).toBe(false);
    expect(nestsDeeperThan({ a: [1] }, 1)).toBe(true);
    expect(nestsDeeperThan(deep(MAX_DEPTH), MAX_DEPTH)).toBe(false);
    expect(nestsDeeperThan(deep(MAX_DEPTH + 1), MAX_DEPTH)).toBe(true);
    expect(nestsDeeperThan(deep(200_000), MAX_DEPTH)).toBe(true);
  });
  it("a success or error envelope nested past the limit is not the API's", () => {
    const r = parseSuccess({ data: deep(MAX_DEPTH) });
    expect(r).toEqual({ ok: false, reason: `nested deeper than ${MAX_DEPTH} levels` });
    expect(parseSuccess({ data: deep(MAX_DEPTH - 1) }).ok).toBe(true);
    expect(parseError({ error: { code: "x", message: "y", detail: deep(MAX_DEPTH) } })).toBeUndefined();
  });
});
