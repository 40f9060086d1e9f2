/** Seeds and scale over HTTP: same seed, same answers (and ETags); scale multiplies the data. */
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { collect, get } from "./helpers.js";

describe("seed and scale", () => {
  it("answers identically for the same seed and differently for another", async () => {
    const [a, b, c] = await Promise.all([
      startSandbox({ seed: 5 }),
      startSandbox({ seed: 5 }),
      startSandbox({ seed: 6 }),
    ]);
    try {
      const [ra, rb, rc] = await Promise.all([a, b, c].map((s) => get(s, "/studies?limit=20")));
      expect(ra!.body.data).toEqual(rb!.body.data);
      expect(ra!.headers.get("etag")).toBe(rb!.headers.get("etag"));
      expect(ra!.body.data).not.toEqual(rc!.body.data);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });

  it("multiplies the counts with scale", async () => {
    const s = await startSandbox({ scale: 3 });
    try {
      expect((await collect(s, "/peptides?limit=100")).items).toHaveLength(120);
      expect((await collect(s, "/vendors?limit=100", { key: "sbx_full_key" })).items).toHaveLength(75);
    } finally {
      await s.close();
    }
  });

  it("starts at scale 100 (about 30,000 studies) within a few seconds", async () => {
    const t = performance.now();
    const s = await startSandbox({ scale: 100 });
    const ms = performance.now() - t;
    try {
      expect(ms).toBeLessThan(20_000); // a loose bound that only catches a gross slowdown: timings belong in the benchmarks
      const r = await get(s, "/studies?limit=100&sort=title");
      expect(r.status).toBe(200);
      expect(r.body.pagination.has_more).toBe(true);
      const last = await get(s, "/studies?year_from=2025&limit=100");
      expect(last.status).toBe(200);
    } finally {
      await s.close();
    }
  });
});
