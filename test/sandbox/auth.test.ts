/** Keys and scopes: 401 for missing or unknown keys, 403 for a known key lacking the scope. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SANDBOX_KEYS, startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { get } from "./helpers.js";

let sb: Sandbox;
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());

const PATHS = {
  research: "/peptides?limit=1",
  studies: "/studies?limit=1",
  vendors: "/vendors?limit=1",
  products: "/products?limit=1",
  prices: "/prices?limit=1",
} as const;

/** Expected status per key and area. */
const MATRIX: [label: string, key: string | undefined, expected: Record<keyof typeof PATHS, number>][] = [
  ["no key", undefined, { research: 200, studies: 200, vendors: 401, products: 401, prices: 401 }],
  ["unknown key", "sbx_made_up", { research: 401, studies: 401, vendors: 401, products: 401, prices: 401 }],
  ["full key", SANDBOX_KEYS.full, { research: 200, studies: 200, vendors: 200, products: 200, prices: 200 }],
  ["research key", SANDBOX_KEYS.research, { research: 200, studies: 200, vendors: 403, products: 403, prices: 403 }],
  ["vendors key", SANDBOX_KEYS.vendors, { research: 200, studies: 200, vendors: 200, products: 403, prices: 403 }],
];

describe("auth matrix", () => {
  for (const header of ["bearer", "x-api-key"] as const) {
    for (const [label, key, expected] of MATRIX) {
      it(`${label} via ${header}`, async () => {
        for (const [area, path] of Object.entries(PATHS) as [keyof typeof PATHS, string][]) {
          const r = await get(sb, path, key === undefined ? {} : { key, header });
          expect(r.status, `${area} ${r.text}`).toBe(expected[area]);
          if (r.status === 401)
            expect(r.body.error.code).toBe(key === undefined ? "missing_api_key" : "invalid_api_key");
          if (r.status === 403) {
            expect(r.body.error.code).toBe("insufficient_scope");
            expect(r.body.error.message).toContain(
              area === "vendors" ? "vendors:read" : area === "products" ? "products:read" : "pricing:read",
            );
          }
        }
      });
    }
  }

  it("refuses a malformed Authorization header", async () => {
    const r = await get(sb, "/peptides", { headers: { Authorization: "Basic abc" } });
    expect(r.status).toBe(401);
    expect(r.body.error.code).toBe("invalid_api_key");
  });

  it("checks the key on every vendor endpoint", async () => {
    for (const path of ["/vendors/compare?ids=a,b", "/vendors/x", "/vendors/x/shipping"]) {
      expect((await get(sb, path)).status).toBe(401);
      expect((await get(sb, path, { key: SANDBOX_KEYS.research })).status).toBe(403);
    }
  });

  it("exposes the three fixed sample keys", () => {
    expect(sb.keys).toEqual({ full: "sbx_full_key", research: "sbx_research_key", vendors: "sbx_vendors_key" });
  });
});
