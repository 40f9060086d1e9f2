/** Vendor, price and product endpoints: shapes, filters, ships_to, order, money as strings. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VENDOR_FIELDS } from "../../src/api/enums.js";
import { DATA_NOW_ISO, buildDataset, startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { FULL, collect, get } from "./helpers.js";

let sb: Sandbox;
const data = buildDataset(1, 1);
beforeAll(async () => {
  sb = await startSandbox();
});
afterAll(() => sb.close());
const opts = { key: FULL };

describe("vendors", () => {
  it("lists vendors with the spec field names, ratings with verified counts apart, .example sites", async () => {
    const { items } = await collect(sb, "/vendors?limit=10", opts);
    expect(items).toHaveLength(data.vendors.length);
    for (const v of items) {
      expect(Object.keys(v).sort()).toEqual([...VENDOR_FIELDS].sort());
      expect(Object.keys(v.rating).sort()).toEqual(["average", "count", "verified_count"]);
      expect(v.rating.verified_count).toBeLessThanOrEqual(v.rating.count);
      expect(new URL(v.website_url).hostname.endsWith(".example")).toBe(true);
    }
    expect(items.some((v) => v.rating.average === null)).toBe(true);
    expect(items.some((v) => v.logo_url === null || v.region === null)).toBe(true);
  });

  it("filters by country, min_rating, product_category, peptide and search", async () => {
    const home = data.vendors[0]!;
    const byCountry = await collect(sb, `/vendors?country=${home.country.toLowerCase()}&limit=100`, opts);
    expect(byCountry.items.map((v) => v.id)).toContain(home.id);
    for (const v of byCountry.items) expect(v.country).toBe(home.country);
    for (const v of (await collect(sb, "/vendors?min_rating=4.2&limit=100", opts)).items)
      expect(v.rating.average).toBeGreaterThanOrEqual(4.2);
    const five = await collect(sb, "/vendors?min_rating=5&limit=100", opts);
    expect(five.items.length).toBeGreaterThan(0);
    for (const v of (await collect(sb, "/vendors?product_category=sprays&limit=100", opts)).items)
      expect(v.product_categories).toContain("sprays");
    const offer = data.listedOffers[0]!;
    const byPeptide = await collect(sb, `/vendors?peptide=${offer.peptideId}&limit=100`, opts);
    expect(byPeptide.items.map((v) => v.id)).toContain(offer.vendorId);
    const named = data.vendors[5]!;
    const found = await get(sb, `/vendors?search=${encodeURIComponent(named.name.toLowerCase())}`, opts);
    expect(found.body.data[0].id).toBe(named.id);
  });

  it("ships_to keeps only vendors that ship there, never unknown coverage", async () => {
    const unknown = data.vendors.filter((v) => v.shipping.destinations === null).map((v) => v.id);
    expect(unknown.length).toBeGreaterThan(0);
    for (const dest of ["US", "US-CA", "DE", "AU-TAS"]) {
      const { items } = await collect(sb, `/vendors?ships_to=${dest}&limit=100`, opts);
      for (const v of items) {
        expect(unknown).not.toContain(v.id);
        expect(v.ships_to).toBe("yes");
      }
    }
    const v = data.vendors.find((x) => x.shipping.destinations === null)!;
    const detail = await get(sb, `/vendors/${v.slug}?ships_to=US`, opts);
    expect(detail.body.data.ships_to).toBe("unknown");
  });

  it("sorts by name, -name, rating, reviews, popular and products", async () => {
    const list = async (sort: string) =>
      (await collect(sb, `/vendors?sort=${encodeURIComponent(sort)}&limit=100`, opts)).items;
    const names = (await list("name")).map((v) => v.name.toLowerCase());
    expect(names).toEqual([...names].sort());
    expect((await list("-name")).map((v) => v.name.toLowerCase())).toEqual([...names].sort().reverse());
    const ratings = (await list("rating")).map((v) => v.rating.average ?? -1);
    expect(ratings).toEqual([...ratings].sort((a, b) => b - a));
    const reviews = (await list("reviews")).map((v) => v.rating.count);
    expect(reviews).toEqual([...reviews].sort((a, b) => b - a));
    const products = (await list("products")).map((v) => v.catalog.product_count);
    expect(products).toEqual([...products].sort((a, b) => b - a));
    const popular = (await list("popular")).map((v) => data.vendors.find((x) => x.id === v.id)!.popularity);
    expect(popular).toEqual([...popular].sort((a, b) => b - a));
    const best = (await list("best_match")).map((v) => v.id);
    const byCommission = [...data.vendors]
      .sort((a, b) => b.affiliateCommissionPct - a.affiliateCommissionPct)
      .map((v) => v.id);
    expect(best).not.toEqual(byCommission);
  });

  it("serves a vendor by id or slug, with sources, and its shipping facts", async () => {
    const v = data.vendors[0]!;
    const byId = await get(sb, `/vendors/${v.id}`, opts);
    const bySlug = await get(sb, `/vendors/${v.slug}`, opts);
    expect(byId.body.data).toEqual(bySlug.body.data);
    const d = byId.body.data;
    for (const key of ["description", "location", "catalog", "shipping", "reviews"]) expect(d).toHaveProperty(key);
    for (const key of ["location", "catalog", "shipping", "reviews"]) expect(d[key].source).toHaveProperty("type");
    expect(d.ships_to).toBeUndefined();
    const ship = (await get(sb, `/vendors/${v.slug}/shipping?ships_to=US-CA`, opts)).body.data;
    for (const key of ["destinations", "exclusions", "methods", "free_shipping", "returns"]) {
      expect(ship[key]).toHaveProperty("value");
      expect(ship[key].source).toHaveProperty("checked_at");
    }
    expect(["yes", "no", "unknown"]).toContain(ship.ships_to);
    expect((await get(sb, "/vendors/nobody/shipping", opts)).status).toBe(404);
  });

  it("compares two to four vendors side by side", async () => {
    const ids = data.vendors.slice(0, 3).map((v, i) => (i === 1 ? v.slug : v.id));
    const r = await get(sb, `/vendors/compare?ids=${ids.join(",")}&ships_to=US`, opts);
    expect(r.status).toBe(200);
    expect(r.body.data.vendors.map((v: { id: string }) => v.id)).toEqual(data.vendors.slice(0, 3).map((v) => v.id));
    for (const v of r.body.data.vendors) {
      expect(v).toHaveProperty("rating.average");
      expect(v).toHaveProperty("catalog.product_count");
      expect(v).toHaveProperty("shipping.destinations");
      expect(["yes", "no", "unknown"]).toContain(v.ships_to);
    }
    expect(typeof r.body.meta.affiliate_disclosure).toBe("string");
    const dup = await get(sb, `/vendors/compare?ids=${data.vendors[0]!.id},${data.vendors[0]!.slug}`, opts);
    expect(dup.status).toBe(400);
  });
});

describe("prices and products", () => {
  it("lists only shareable, matched, fresh offers, with money as decimal strings", async () => {
    const { items } = await collect(sb, "/prices?limit=100", opts);
    expect(items.length).toBe(data.listedOffers.length);
    const now = Date.parse(DATA_NOW_ISO);
    const hidden = new Set(data.offers.filter((o) => !data.listedOffers.includes(o)).map((o) => o.id));
    expect(hidden.size).toBeGreaterThan(0);
    for (const o of items) {
      expect(hidden.has(o.id)).toBe(false);
      expect(typeof o.price).toBe("string");
      expect(o.price).toMatch(/^\d+(\.\d+)?$/);
      expect(o.peptide).toHaveProperty("name");
      expect(o.vendor).toEqual(
        expect.objectContaining({ id: expect.any(String), name: expect.any(String), slug: expect.any(String) }),
      );
      expect(now - Date.parse(o.last_seen_at)).toBeLessThanOrEqual(30 * 86_400_000);
      expect(new URL(o.product_page_url).hostname.endsWith(".example")).toBe(true);
    }
    const raw = (await get(sb, "/prices?limit=100&currency=EUR", opts)).text;
    expect(raw).toContain('"price":"1000000.00000001"');
    expect((await collect(sb, "/prices?limit=100", opts)).items.map((o) => o.price)).toEqual(
      expect.arrayContaining(["0.10", "1249.00"]),
    );
    expect(new Set(items.map((o) => o.currency)).size).toBeGreaterThanOrEqual(3);
  });

  it("filters offers by peptide, form, currency and ships_to", async () => {
    const o = data.listedOffers[0]!;
    const p = data.peptideById.get(o.peptideId!)!;
    const byPeptide = await collect(sb, `/prices?peptide=${encodeURIComponent(p.name)}&limit=100`, opts);
    expect(byPeptide.items.length).toBeGreaterThan(0);
    for (const x of byPeptide.items) expect(x.peptide.id).toBe(p.id);
    for (const x of (await collect(sb, "/prices?form=capsule&currency=usd&limit=100", opts)).items) {
      expect(x.form).toBe("capsule");
      expect(x.currency).toBe("USD");
    }
    const shipped = await collect(sb, "/prices?ships_to=US&limit=100", opts);
    const unknown = new Set(data.vendors.filter((v) => v.shipping.destinations === null).map((v) => v.id));
    for (const x of shipped.items) expect(unknown.has(x.vendor.id)).toBe(false);
  });

  it("lists products with price ranges per currency, never converted", async () => {
    const { items } = await collect(sb, "/products?limit=100", opts);
    expect(items.length).toBe(data.products.length);
    for (const p of items) {
      expect(Object.keys(p)).toEqual(expect.arrayContaining(["id", "peptide", "form", "name", "price_ranges"]));
      const currencies = p.price_ranges.map((r: { currency: string }) => r.currency);
      expect(new Set(currencies).size).toBe(currencies.length);
      for (const r of p.price_ranges) {
        expect(typeof r.min).toBe("string");
        expect(typeof r.max).toBe("string");
      }
    }
    const gbp = await collect(sb, "/products?currency=gbp&limit=100", opts);
    for (const p of gbp.items) expect(p.price_ranges.map((r: { currency: string }) => r.currency)).toEqual(["GBP"]);
  });
});
