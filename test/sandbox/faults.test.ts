/** Injected faults: database down, random 503s (seeded), latency. */
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FULL, get } from "./helpers.js";

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe("faults", () => {
  it("dbDown: /health and data endpoints answer 503 database_unavailable; the index still answers", async () => {
    sb = await startSandbox({ dbDown: true });
    const h = await get(sb, "/health");
    expect(h.status).toBe(503);
    expect(h.body.error.code).toBe("database_unavailable");
    expect(h.body.error.request_id).toBe(h.headers.get("x-request-id"));
    for (const path of ["/peptides", "/studies", "/search?q=x", "/categories"])
      expect((await get(sb, path)).status).toBe(503);
    expect((await get(sb, "/vendors", { key: FULL })).status).toBe(503);
    expect((await get(sb, "/vendors")).status).toBe(401);
    expect((await get(sb, "/")).status).toBe(200);
  });

  it("failRate 1 answers every request with 503 service_unavailable", async () => {
    sb = await startSandbox({ failRate: 1 });
    for (const path of ["/", "/health", "/peptides"]) {
      const r = await get(sb, path);
      expect(r.status).toBe(503);
      expect(r.body.error.code).toBe("service_unavailable");
    }
  });

  it("failRate draws from the seed: the same seed fails the same requests", async () => {
    const pattern = async (seed: number) => {
      const s = await startSandbox({ failRate: 0.5, seed });
      const out: number[] = [];
      for (let i = 0; i < 24; i++) out.push((await get(s, "/health")).status);
      await s.close();
      return out;
    };
    const a = await pattern(3);
    expect(await pattern(3)).toEqual(a);
    expect(a).toContain(503);
    expect(a).toContain(200);
  });

  it("latencyMs delays responses", async () => {
    sb = await startSandbox({ latencyMs: 60 });
    const t = performance.now();
    expect((await get(sb, "/health")).status).toBe(200);
    expect(performance.now() - t).toBeGreaterThanOrEqual(55);
  });

  it("closes while a delayed response is pending", async () => {
    sb = await startSandbox({ latencyMs: 5000 });
    const pending = get(sb, "/health").catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 30));
    const t = performance.now();
    await sb.close();
    sb = undefined;
    expect(performance.now() - t).toBeLessThan(1000);
    expect(await pending).toBeInstanceOf(Error);
  });
});
