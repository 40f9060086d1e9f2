/** Rate limits on an injected clock: Remaining reaches 0 first, then 429 with Retry-After, then a new window. */
import { afterEach, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FULL, get } from "./helpers.js";

let sb: Sandbox | undefined;
afterEach(async () => {
  await sb?.close();
  sb = undefined;
});

describe("rate limits", () => {
  it("under rateLimit counts anonymous requests per IP and metered ones per key, and answers 429 past it", async () => {
    let now = 1_000_000_000_000; // on a 2 s window boundary
    sb = await startSandbox({ rateLimit: { requests: 20, seconds: 2 }, now: () => now });
    const remaining: number[] = [];
    for (let i = 0; i < 20; i++) {
      const path = i % 3 === 0 ? "/peptides?limit=1" : i % 3 === 1 ? "/nowhere" : "/vendors";
      const r = await get(sb, path);
      expect(r.status).not.toBe(429);
      expect(r.headers.get("ratelimit-limit")).toBe("20");
      remaining.push(Number(r.headers.get("ratelimit-remaining")));
    }
    expect(remaining).toEqual(Array.from({ length: 20 }, (_, i) => 19 - i));
    now += 500;
    const over = await get(sb, "/peptides?limit=1");
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe("rate_limited");
    expect(over.body.error.request_id).toBe(over.headers.get("x-request-id"));
    expect(over.headers.get("retry-after")).toBe("2");
    expect(over.headers.get("ratelimit-remaining")).toBe("0");
    expect(over.headers.get("ratelimit-reset")).toBe("2");
    // Scoped as the service scopes its limits: a key's metered requests are counted apart
    // from the IP, and its research requests are not metered.
    expect((await get(sb, "/vendors?limit=1", { key: FULL })).headers.get("ratelimit-remaining")).toBe("19");
    for (let i = 0; i < 25; i++) {
      const research = await get(sb, "/peptides?limit=1", { key: FULL });
      expect(research.status).toBe(200);
      expect(research.headers.get("ratelimit-remaining")).toBe("20");
    }
    expect((await get(sb, "/prices?limit=1", { key: FULL })).headers.get("ratelimit-remaining")).toBe("18");
    now += 1500; // the next window
    const again = await get(sb, "/peptides?limit=1");
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit-remaining")).toBe("19");
    expect(again.headers.get("ratelimit-reset")).toBe("2");
  });

  it("limits anonymous requests per IP at 300 a minute by default", async () => {
    let now = 1_700_000_040_000;
    sb = await startSandbox({ now: () => now });
    const first = await get(sb, "/peptides?limit=1");
    expect(first.headers.get("ratelimit-limit")).toBe("300");
    expect(first.headers.get("ratelimit-remaining")).toBe("299");
    expect(first.headers.get("ratelimit-reset")).toBe("60");
    now += 15_000;
    expect((await get(sb, "/health")).headers.get("ratelimit-reset")).toBe("45");
  });

  it("counts keyed metered requests per key a minute and a month", async () => {
    let now = Date.UTC(2025, 0, 31, 23, 59, 0);
    sb = await startSandbox({ now: () => now, limits: { keyPerMinute: 5, keyPerMonth: 7 } });
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(sb, "/vendors?limit=1", { key: FULL })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    now += 60_000; // 2025-02-01: a new minute and a new month
    const r = await get(sb, "/vendors?limit=1", { key: FULL });
    expect(r.status).toBe(200);
    expect(r.headers.get("ratelimit-remaining")).toBe("4");
    // Another key has its own windows.
    const other = await get(sb, "/vendors?limit=1", { key: "sbx_vendors_key" });
    expect(other.headers.get("ratelimit-remaining")).toBe("4");
  });

  it("reports the monthly window when it runs out first", async () => {
    const now = Date.UTC(2025, 4, 31, 23, 0, 0);
    sb = await startSandbox({ now: () => now, limits: { keyPerMinute: 100, keyPerMonth: 2 } });
    const a = await get(sb, "/prices?limit=1", { key: FULL });
    expect(a.headers.get("ratelimit-remaining")).toBe("1");
    expect(a.headers.get("ratelimit-limit")).toBe("2");
    await get(sb, "/prices?limit=1", { key: FULL });
    const over = await get(sb, "/prices?limit=1", { key: FULL });
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBe(3600);
    // Research and study requests are not metered against the month.
    expect((await get(sb, "/studies?limit=1", { key: FULL })).status).toBe(200);
  });
});
