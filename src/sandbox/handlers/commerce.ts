/**
 * Prices and products. Only listed offers appear (shareable prices, matched to a profile,
 * seen within 30 days of the data's "now"); prices are decimal strings in their own
 * currency, never converted, in API order (never by commission).
 */
import { paginate, type Handler, type HandlerContext } from "../request-context.js";
import { FORMS } from "../data/offers.js";
import type { Offer, Peptide, Vendor } from "../data/records.js";
import { shipsTo } from "../data/vendor-generator.js";
import { peptideFromSlug } from "./research-handlers.js";

function formMatches(form: string, wanted: unknown): boolean {
  if (typeof wanted !== "string") return true;
  const w = wanted.trim().toLowerCase();
  const label = FORMS.find((f) => f.id === form)?.label;
  return form === w || label === w;
}

function peptideFilter(ctx: HandlerContext): Peptide | undefined {
  return typeof ctx.query.peptide === "string" ? peptideFromSlug(ctx, ctx.query.peptide) : undefined;
}

export const listPrices: Handler = (ctx) => {
  const q = ctx.query;
  const peptide = peptideFilter(ctx);
  const currency = typeof q.currency === "string" ? q.currency.toUpperCase() : undefined;
  const items = ctx.data.listedOffers.filter((o) => {
    if (peptide && o.peptideId !== peptide.id) return false;
    if (!formMatches(o.form, q.form)) return false;
    if (currency && o.currency !== currency) return false;
    if (typeof q.ships_to === "string" && shipsTo(ctx.data.vendorById.get(o.vendorId) as Vendor, q.ships_to) !== "yes")
      return false;
    return true;
  });
  const page = paginate(ctx, items);
  return { data: page.items.map((o) => offerItem(ctx, o)), pagination: page.pagination, affiliate: true };
};

function offerItem(ctx: HandlerContext, o: Offer) {
  const v = ctx.data.vendorById.get(o.vendorId);
  const p = ctx.data.peptideById.get(o.peptideId ?? "");
  return {
    id: o.id,
    peptide: p ? { id: p.id, name: p.name } : null,
    vendor: v ? { id: v.id, name: v.name, slug: v.slug } : null,
    product_name: o.productName,
    form: o.form,
    price: o.price,
    currency: o.currency,
    last_seen_at: o.lastSeenAt,
    product_page_url: v ? `https://${v.slug}.example/p/${o.productSlug}?ref=research-example&aff=sbx` : null,
    in_stock: o.inStock,
  };
}

export const listProducts: Handler = (ctx) => {
  const q = ctx.query;
  const peptide = peptideFilter(ctx);
  const currency = typeof q.currency === "string" ? q.currency.toUpperCase() : undefined;
  const items = ctx.data.products
    .filter(
      (p) =>
        (!peptide || p.peptideId === peptide.id) &&
        formMatches(p.form, q.form) &&
        (!currency || p.ranges.some((r) => r.currency === currency)),
    )
    .map((p) => {
      const pep = ctx.data.peptideById.get(p.peptideId) as Peptide;
      return {
        id: p.id,
        peptide: { id: pep.id, name: pep.name },
        form: p.form,
        name: p.name,
        product_category: FORMS.find((f) => f.id === p.form)?.category ?? "other",
        price_ranges: p.ranges
          .filter((r) => !currency || r.currency === currency)
          .map((r) => ({ currency: r.currency, min: r.min, max: r.max, offer_count: r.offerCount })),
        vendor_count: p.vendorCount,
      };
    });
  const page = paginate(ctx, items);
  return { data: page.items, pagination: page.pagination };
};
