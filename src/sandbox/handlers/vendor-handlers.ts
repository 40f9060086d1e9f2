/**
 * Vendor endpoints: directory, one vendor, its shipping facts and a comparison. Order
 * never depends on commissions or affiliate status: no sort reads them.
 */
import { SandboxError, notFound } from "../sandbox-error.js";
import { paginate, pickFields, SITE_URL, type Handler, type HandlerContext } from "../request-context.js";
import type { Dataset } from "../data/index.js";
import { FORMS } from "../data/offers.js";
import type { Source, Vendor } from "../data/records.js";
import { shipsTo, type VendorWithCurrencies } from "../data/vendor-generator.js";
import { matchScore } from "../fuzzy.js";
import { peptideFromSlug } from "./research-handlers.js";

const profileUrl = (v: Vendor) => `${SITE_URL}/vendors/${v.slug}`;
const byName = (a: Vendor, b: Vendor) =>
  a.name.toLowerCase() < b.name.toLowerCase() ? -1 : a.name.toLowerCase() > b.name.toLowerCase() ? 1 : 0;

function productCategories(data: Dataset, v: Vendor): string[] {
  const live = data.liveOffersByVendor.get(v.id) ?? [];
  const cats = new Set(live.map((o) => FORMS.find((f) => f.id === o.form)?.category ?? "other"));
  return ["peptides", "sprays", "capsules", "other"].filter((c) => cats.has(c as never));
}

function catalog(data: Dataset, v: Vendor) {
  const live = data.liveOffersByVendor.get(v.id) ?? [];
  return {
    product_count: live.length,
    peptide_count: new Set(live.map((o) => o.peptideId)).size,
    last_checked_at: v.catalogCheckedAt,
  };
}

function coverage(v: Vendor) {
  const d = v.shipping.destinations;
  return {
    coverage: d === null ? null : d === "worldwide" ? "worldwide" : "listed",
    destinations: d === null ? null : d === "worldwide" ? [] : d,
    exclusions: d === null ? null : v.shipping.exclusions,
  };
}

function rating(v: Vendor) {
  return { average: v.ratingAverage, count: v.ratingCount, verified_count: v.verifiedCount };
}

/** Item of `GET /vendors`: a vendor's listed fields (docs/api.md#resources). */
export function vendorItem(ctx: HandlerContext, v: Vendor) {
  return {
    id: v.id,
    slug: v.slug,
    name: v.name,
    description: v.description,
    logo_url: v.logoUrl,
    country: v.country,
    region: v.region,
    website_url: v.websiteUrl,
    profile_url: profileUrl(v),
    product_categories: productCategories(ctx.data, v),
    rating: rating(v),
    catalog: catalog(ctx.data, v),
    shipping: {
      ...coverage(v),
      free_shipping: v.shipping.freeShipping,
      returns_accepted: v.shipping.returns?.accepted ?? null,
    },
    api_url: `${ctx.baseUrl}/vendors/${v.id}`,
  };
}

function vendorFromParam(ctx: HandlerContext): VendorWithCurrencies {
  const id = ctx.route.params.id ?? "";
  const v = ctx.data.resolveVendor(id);
  if (!v) throw notFound("vendor", id);
  return v;
}

const shipsToField = (ctx: HandlerContext, v: Vendor) =>
  typeof ctx.query.ships_to === "string" ? { ships_to: shipsTo(v, ctx.query.ships_to) } : {};

/** A Bayesian-style score: many good reviews beat a few perfect ones. */
function bestMatch(v: Vendor): number {
  const prior = 3.5;
  const weight = 20;
  return (
    ((v.ratingAverage ?? prior) * v.ratingCount + prior * weight) / (v.ratingCount + weight) +
    Math.min(v.verifiedCount, 200) / 1000
  );
}

export const listVendors: Handler = (ctx) => {
  const q = ctx.query;
  const search = q.search as string | undefined;
  const peptide = typeof q.peptide === "string" ? peptideFromSlug(ctx, q.peptide) : undefined;
  const scores = new Map<Vendor, number>();
  const items = ctx.data.vendors.filter((v) => {
    if (typeof q.country === "string" && v.country !== q.country.toUpperCase()) return false;
    if (typeof q.ships_to === "string" && shipsTo(v, q.ships_to) !== "yes") return false;
    if (typeof q.product_category === "string" && !productCategories(ctx.data, v).includes(q.product_category))
      return false;
    if (typeof q.min_rating === "number" && (v.ratingAverage === null || v.ratingAverage < q.min_rating)) return false;
    if (peptide && !(ctx.data.liveOffersByVendor.get(v.id) ?? []).some((o) => o.peptideId === peptide.id)) return false;
    if (search !== undefined) {
      const s = matchScore(search, [v.name, v.slug, ...v.aliases]);
      if (s === 0) return false;
      scores.set(v, s);
    }
    return true;
  });
  const sort = (q.sort as string | undefined) ?? "best_match";
  const live = (v: Vendor) => (ctx.data.liveOffersByVendor.get(v.id) ?? []).length;
  const comparators: Record<string, (a: Vendor, b: Vendor) => number> = {
    best_match: (a, b) => (scores.get(b) ?? 0) - (scores.get(a) ?? 0) || bestMatch(b) - bestMatch(a) || byName(a, b),
    rating: (a, b) =>
      (b.ratingAverage ?? -1) - (a.ratingAverage ?? -1) || b.ratingCount - a.ratingCount || byName(a, b),
    reviews: (a, b) => b.ratingCount - a.ratingCount || b.verifiedCount - a.verifiedCount || byName(a, b),
    popular: (a, b) => b.popularity - a.popularity || byName(a, b),
    products: (a, b) => live(b) - live(a) || byName(a, b),
    name: byName,
    "-name": (a, b) => byName(b, a),
  };
  items.sort(comparators[sort] ?? byName);
  const page = paginate(ctx, items);
  return {
    data: page.items.map((v) => ({ ...pickFields(vendorItem(ctx, v), q.fields), ...shipsToField(ctx, v) })),
    pagination: page.pagination,
    affiliate: true,
  };
};

const source = (type: Source["type"], url: string | null, checkedAt: string): Source => ({
  type,
  url,
  checked_at: checkedAt,
});

export const getVendor: Handler = (ctx) => {
  const v = vendorFromParam(ctx);
  const item = vendorItem(ctx, v);
  const site = source("vendor_site", v.websiteUrl, v.shipping.checkedAt);
  return {
    data: {
      ...item,
      aliases: v.aliases,
      location: {
        country: v.country,
        region: v.region,
        source: source("vendor_site", `${v.websiteUrl}about`, v.catalogCheckedAt),
      },
      catalog: {
        ...item.catalog,
        product_categories: item.product_categories,
        source: source("catalog_crawl", v.websiteUrl, v.catalogCheckedAt),
      },
      shipping: { ...item.shipping, source: site },
      reviews: {
        ...rating(v),
        unverified_count: v.ratingCount - v.verifiedCount,
        source: source("moderated_reviews", `${profileUrl(v)}#reviews`, v.catalogCheckedAt),
      },
      ...shipsToField(ctx, v),
    },
    affiliate: true,
  };
};

function shippingFacts(v: Vendor) {
  const site = source("vendor_site", `${v.websiteUrl}shipping`, v.shipping.checkedAt);
  const returns = source("vendor_site", `${v.websiteUrl}returns`, v.shipping.checkedAt);
  const c = coverage(v);
  return {
    destinations: {
      value: c.coverage === null ? null : { coverage: c.coverage, countries: c.destinations },
      source: site,
    },
    exclusions: { value: c.exclusions, source: site },
    methods: { value: v.shipping.methods, source: site },
    free_shipping: { value: v.shipping.freeShipping, source: site },
    returns: { value: v.shipping.returns, source: returns },
  };
}

export const getVendorShipping: Handler = (ctx) => {
  const v = vendorFromParam(ctx);
  return {
    data: {
      vendor: { id: v.id, slug: v.slug, name: v.name, profile_url: profileUrl(v), website_url: v.websiteUrl },
      ...shippingFacts(v),
      ...shipsToField(ctx, v),
    },
    affiliate: true,
  };
};

export const compareVendors: Handler = (ctx) => {
  const ids = String(ctx.query.ids)
    .split(",")
    .map((s) => s.trim());
  const vendors = ids.map((id) => {
    const v = ctx.data.resolveVendor(id);
    if (!v) throw notFound("vendor", id);
    return v;
  });
  if (new Set(vendors.map((v) => v.id)).size !== vendors.length) {
    throw new SandboxError(
      400,
      "invalid_parameter",
      "ids must name distinct vendors (an id and its slug are the same vendor)",
    );
  }
  return {
    data: {
      ships_to: typeof ctx.query.ships_to === "string" ? ctx.query.ships_to.toUpperCase() : null,
      vendors: vendors.map((v) => {
        const item = vendorItem(ctx, v);
        return {
          id: v.id,
          slug: v.slug,
          name: v.name,
          country: v.country,
          profile_url: item.profile_url,
          website_url: v.websiteUrl,
          rating: item.rating,
          catalog: item.catalog,
          product_categories: item.product_categories,
          shipping: shippingFacts(v),
          ...shipsToField(ctx, v),
        };
      }),
    },
    affiliate: true,
  };
};
