/**
 * Synthetic offers (listed prices). Prices are decimal strings in the vendor's currency,
 * never converted. The set deliberately holds offers that must NOT be listed, one kind per
 * listing rule (docs/api.md#content-rules): a vendor whose prices may not be shared, an
 * offer not matched to a profile, and an offer not seen for more than 30 days.
 */
import { DAY_MS, daysBeforeNow } from "./data-now.js";
import { slugify } from "./word-stock.js";
import { createRng, type Rng } from "./prng.js";
import type { Offer, Peptide, ProductForm } from "./records.js";
import type { VendorWithCurrencies } from "./vendor-generator.js";

export const FORMS: {
  id: ProductForm;
  label: string;
  category: "peptides" | "sprays" | "capsules" | "other";
  weight: number;
}[] = [
  { id: "lyophilized-powder", label: "lyophilized powder", category: "peptides", weight: 4 },
  { id: "solution", label: "solution", category: "peptides", weight: 2 },
  { id: "nasal-spray", label: "nasal spray", category: "sprays", weight: 1.5 },
  { id: "capsule", label: "capsules", category: "capsules", weight: 1.5 },
  { id: "topical", label: "topical cream", category: "other", weight: 1 },
];

function pickForm(rng: Rng): (typeof FORMS)[number] {
  const total = FORMS.reduce((s, f) => s + f.weight, 0);
  let r = rng.next() * total;
  for (const f of FORMS) {
    r -= f.weight;
    if (r < 0) return f;
  }
  return FORMS[0] as (typeof FORMS)[number];
}

function randomPrice(rng: Rng, currency: string): string {
  if (currency === "JPY") return String(rng.int(8, 600) * 100);
  const cents = rng.int(500, 45_000);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** Prices pinned on the first offers so clients meet tiny, round and high-precision values. */
const PINNED_PRICES: Record<number, { price: string; currency: string }> = {
  0: { price: "0.10", currency: "USD" },
  2: { price: "1249.00", currency: "GBP" },
  3: { price: "1000000.00000001", currency: "EUR" },
};

/** A short base-36 suffix; one that would read as a dose ("1iu", "2ml") is written in decimal after an "n". */
function slugSuffix(n: number): string {
  const short = n.toString(36);
  return /^\d+(mg|mcg|iu|ml)$/.test(short) ? `n${n}` : short;
}

export function generateOffers(
  seed: number,
  count: number,
  vendors: VendorWithCurrencies[],
  peptides: Peptide[],
): Offer[] {
  const rng = createRng(seed, "offers");
  const shareable = vendors.filter((v) => v.pricesShareable);
  const hidden = vendors.find((v) => !v.pricesShareable);
  const out: Offer[] = [];
  for (let i = 0; i < count; i++) {
    const pinned = PINNED_PRICES[i];
    const pool = shareable.length > 0 ? shareable : vendors;
    const vendor = pinned
      ? (pool.find((v) => v.currencies.includes(pinned.currency)) ?? rng.pick(pool))
      : i === 1 || i === 4
        ? rng.pick(pool)
        : i === 5 && hidden
          ? hidden
          : rng.pick(vendors);
    const unmatched = i === 1 || (i > 5 && rng.chance(0.06));
    const peptide = unmatched ? null : rng.pick(peptides);
    const form = pickForm(rng);
    const stale = i === 4 || (i > 5 && rng.chance(0.08));
    const lastSeenAt = stale
      ? daysBeforeNow(rng.int(31, 120))
      : daysBeforeNow(rng.int(0, 29), rng.int(0, 23) * 3_600_000);
    const currency = pinned?.currency ?? rng.pick(vendor.currencies);
    const productName = peptide
      ? `${peptide.name} ${form.label}`
      : `House research blend SBX-${String(i + 1).padStart(4, "0")}`;
    out.push({
      id: `off_${String(i + 1).padStart(6, "0")}`,
      peptideId: peptide?.id ?? null,
      vendorId: vendor.id,
      productName,
      form: form.id,
      price: pinned?.price ?? randomPrice(rng, currency),
      currency,
      lastSeenAt,
      productSlug: `${slugify(productName)}-${slugSuffix(i + 1)}`,
      inStock: rng.chance(0.1) ? null : rng.chance(0.83),
    });
  }
  return out;
}

/** An offer is listed when its vendor's prices may be shared, it is matched, and it is fresh. */
export function isListed(o: Offer, vendor: { pricesShareable: boolean }, nowMs: number): boolean {
  return vendor.pricesShareable && o.peptideId !== null && Date.parse(o.lastSeenAt) >= nowMs - 30 * DAY_MS;
}
