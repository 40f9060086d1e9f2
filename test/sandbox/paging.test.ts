/** Opaque cursors: complete, gap-free listings; tampered, foreign or re-filtered cursors refused. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FULL, collect, get } from "./helpers.js";

let sb: Sandbox;
let other: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
  other = await startSandbox({ seed: 2 });
});
afterAll(async () => {
  await sb.close();
  await other.close();
});

const ids = (items: { id: string }[]) => items.map((i) => i.id);

describe("cursor pagination", () => {
  it("walks /studies at limit 7 to the same ids, in the same order, as at limit 100", async () => {
    const small = await collect(sb, "/studies?limit=7", { key: FULL });
    const big = await collect(sb, "/studies?limit=100", { key: FULL });
    expect(new Set(ids(small.items)).size).toBe(small.items.length);
    expect(ids(small.items)).toEqual(ids(big.items));
    expect(small.pages).toBe(Math.ceil(big.items.length / 7));
    expect(big.items.length).toBeGreaterThan(250);
  });

  it("allows changing the page size between pages", async () => {
    const first = await get(sb, "/peptides?limit=5");
    const next = await get(sb, `/peptides?limit=9&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    expect(next.status).toBe(200);
    const all = await get(sb, "/peptides?limit=14");
    expect([...ids(first.body.data), ...ids(next.body.data)]).toEqual(ids(all.body.data));
  });

  it("walks filtered listings to the end: vendors, prices, products, research areas", async () => {
    for (const path of [
      "/vendors?limit=4&sort=rating",
      "/prices?limit=30",
      "/products?limit=17",
      "/research-areas?limit=3",
      "/categories?limit=2",
    ]) {
      const { items } = await collect(sb, path, { key: FULL });
      expect(new Set(items.map((i) => i.id)).size, path).toBe(items.length);
    }
  });

  it("ends with next_cursor null and has_more false", async () => {
    const r = await get(sb, "/categories?limit=100");
    expect(r.body.pagination).toEqual({ next_cursor: null, has_more: false });
    expect(r.body.data).toHaveLength(7);
  });

  it("refuses a tampered cursor, a foreign one and one replayed with other filters", async () => {
    const r = await get(sb, "/studies?limit=5&sort=oldest");
    const cursor: string = r.body.pagination.next_cursor;
    expect(cursor).toMatch(/^[A-Za-z0-9_.-]+$/);
    const flip = cursor.slice(0, 3) + (cursor[3] === "A" ? "B" : "A") + cursor.slice(4);
    for (const bad of [flip, "garbage", `${cursor}x`, Buffer.from('{"o":0}').toString("base64url")]) {
      const t = await get(sb, `/studies?limit=5&sort=oldest&cursor=${encodeURIComponent(bad)}`);
      expect(t.status, bad).toBe(400);
      expect(t.body.error.code).toBe("invalid_cursor");
    }
    const refiltered = await get(sb, `/studies?limit=5&sort=newest&cursor=${encodeURIComponent(cursor)}`);
    expect(refiltered.status).toBe(400);
    const otherEndpoint = await get(sb, `/peptides?cursor=${encodeURIComponent(cursor)}`);
    expect(otherEndpoint.status).toBe(400);
    const foreign = await fetch(`${other.baseUrl}/studies?limit=5&sort=oldest&cursor=${encodeURIComponent(cursor)}`);
    expect(foreign.status).toBe(400);
    expect(((await foreign.json()) as { error: { code: string } }).error.code).toBe("invalid_cursor");
  });

  it("keeps /peptides/{slug}/studies to at most 12", async () => {
    const all = await collect(sb, "/peptides?limit=100");
    for (const p of all.items.slice(0, 10)) {
      const { items } = await collect(sb, `/peptides/${p.id}/studies?limit=5`);
      expect(items.length).toBeLessThanOrEqual(12);
      expect(items.length).toBe(
        p.evidence.human_studies + p.evidence.preclinical_studies + p.evidence.secondary_reports,
      );
    }
  });
});
