/** Envelope, headers, ETag and 304, unknown paths and methods, the sandbox flag. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FULL, get } from "./helpers.js";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

describe("HTTP behaviour", () => {
  it("serves under /v1 on loopback and counts requests", async () => {
    expect(sb.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/);
    const before = sb.requestCount();
    await get(sb, "/");
    await get(sb, "/nowhere");
    expect(sb.requestCount()).toBe(before + 2);
  });

  it("puts the success headers and meta on every success", async () => {
    for (const path of ["/", "/health", "/peptides", "/studies", "/categories", "/search?q=repair"]) {
      const r = await get(sb, path);
      expect(r.status).toBe(200);
      expect(r.headers.get("content-type")).toBe("application/json; charset=utf-8");
      expect(r.headers.get("etag")).toMatch(/^"[^"]+"$/);
      const id = r.headers.get("x-request-id");
      expect(id).toBeTruthy();
      expect(r.body.meta.request_id).toBe(id);
      expect(r.body.meta.sandbox).toBe(true);
      for (const h of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"])
        expect(Number(r.headers.get(h))).toBeGreaterThanOrEqual(0);
    }
  });

  it("keeps the ETag stable across requests and answers 304 to If-None-Match", async () => {
    const a = await get(sb, "/peptides?limit=3");
    const b = await get(sb, "/peptides?limit=3");
    expect(a.body.meta.request_id).not.toBe(b.body.meta.request_id);
    expect(a.headers.get("etag")).toBe(b.headers.get("etag"));
    const other = await get(sb, "/peptides?limit=4");
    expect(other.headers.get("etag")).not.toBe(a.headers.get("etag"));
    const etag = a.headers.get("etag")!;
    const c = await get(sb, "/peptides?limit=3", { headers: { "If-None-Match": etag } });
    expect(c.status).toBe(304);
    expect(c.text).toBe("");
    expect(c.headers.get("etag")).toBe(etag);
    expect(c.headers.get("x-request-id")).toBeTruthy();
    expect(c.headers.get("ratelimit-remaining")).not.toBeNull();
    expect((await get(sb, "/peptides?limit=3", { headers: { "If-None-Match": `W/${etag}` } })).status).toBe(304);
    expect((await get(sb, "/peptides?limit=3", { headers: { "If-None-Match": '"other"' } })).status).toBe(200);
  });

  it("answers unknown paths with 404 and other methods with 405, in the error envelope", async () => {
    const nf = await get(sb, "/nowhere");
    expect(nf.status).toBe(404);
    expect(nf.body.error).toEqual({
      code: "not_found",
      message: expect.stringContaining("/v1/nowhere"),
      request_id: nf.headers.get("x-request-id"),
    });
    const post = await get(sb, "/peptides", { method: "POST" });
    expect(post.status).toBe(405);
    expect(post.body.error.code).toBe("method_not_allowed");
    expect(post.headers.get("allow")).toContain("GET");
    expect((await get(sb, "/peptides/no-such-thing")).status).toBe(404);
    expect((await get(sb, "/studies/pmid-1")).status).toBe(404);
    expect((await get(sb, "/vendors/no-such-vendor", { key: FULL })).status).toBe(404);
  });

  it("adds the affiliate disclosure only where vendor or offer links are served", async () => {
    for (const path of ["/vendors", "/prices"]) {
      const r = await get(sb, path, { key: FULL });
      expect(typeof r.body.meta.affiliate_disclosure).toBe("string");
      expect(r.body.meta.affiliate_disclosure.length).toBeGreaterThan(20);
    }
    expect((await get(sb, "/peptides")).body.meta.affiliate_disclosure).toBeUndefined();
  });

  it("answers the index with the endpoints of the spec", async () => {
    const r = await get(sb, "/");
    const paths = r.body.data.endpoints.map((e: { path: string }) => e.path);
    for (const p of [
      "/",
      "/health",
      "/peptides",
      "/peptides/{slug}",
      "/studies/{id}",
      "/vendors/compare",
      "/vendors/{id}/shipping",
      "/prices",
      "/products",
    ]) {
      expect(paths).toContain(p);
    }
    expect((await get(sb, "/health")).body.data).toMatchObject({ status: "ok", database: "ok" });
  });
});
