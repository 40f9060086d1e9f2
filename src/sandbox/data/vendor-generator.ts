/**
 * Synthetic vendor directory. Vendors live on `.example` domains; some have unknown
 * shipping coverage (never treated as "ships"), some have prices that may not be shared,
 * some have no reviews. Unknown facts are `null`.
 */
import { daysBeforeNow } from "./data-now.js";
import { slugify, vendorName } from "./word-stock.js";
import { createRng, type Rng } from "./prng.js";
import type { Vendor } from "./records.js";

/** Home countries: region and the currencies their listings use. */
const COUNTRIES: { code: string; region: string; currency: string }[] = [
  { code: "US", region: "North America", currency: "USD" },
  { code: "CA", region: "North America", currency: "CAD" },
  { code: "GB", region: "Europe", currency: "GBP" },
  { code: "DE", region: "Europe", currency: "EUR" },
  { code: "NL", region: "Europe", currency: "EUR" },
  { code: "PL", region: "Europe", currency: "PLN" },
  { code: "SE", region: "Europe", currency: "SEK" },
  { code: "CH", region: "Europe", currency: "CHF" },
  { code: "AU", region: "Oceania", currency: "AUD" },
  { code: "NZ", region: "Oceania", currency: "NZD" },
  { code: "JP", region: "Asia", currency: "JPY" },
  { code: "SG", region: "Asia", currency: "SGD" },
];
const EXCLUSIONS = ["US-HI", "US-AK", "AU-TAS", "CA-NU", "KP", "IR", "BR"];
const METHODS = [
  { name: "Standard", carrier: "Example Post", estimated_days: "5-8" },
  { name: "Express", carrier: "Sandbox Courier", estimated_days: "2-3" },
  { name: "Tracked economy", carrier: null, estimated_days: null },
];

export interface VendorWithCurrencies extends Vendor {
  currencies: string[];
}

type Country = (typeof COUNTRIES)[number];

/** A name whose slug no earlier vendor has, and a fresh random id. */
function vendorIdentity(rng: Rng, names: Set<string>, ids: Set<string>): { name: string; slug: string; id: string } {
  let attempt = 0;
  let name = vendorName(rng);
  while (names.has(slugify(name))) name = vendorName(rng, ++attempt);
  const slug = slugify(name);
  names.add(slug);
  let id = "";
  do
    id = `vnd_${Math.floor(rng.next() * 0xffffffff)
      .toString(16)
      .padStart(8, "0")}`;
  while (ids.has(id));
  ids.add(id);
  return { name, slug, id };
}

/** Where it ships: unknown (pinned for vendor 2), worldwide (pinned for vendor 0) or a list from home; and where not. */
function coverage(rng: Rng, i: number, home: Country) {
  const kind =
    i === 2 ? "unknown" : i === 0 ? "worldwide" : rng.chance(0.12) ? "unknown" : rng.chance(0.4) ? "worldwide" : "list";
  const others = COUNTRIES.filter((c) => c.code !== home.code).map((c) => c.code);
  const destinations: Vendor["shipping"]["destinations"] =
    kind === "unknown"
      ? null
      : kind === "worldwide"
        ? "worldwide"
        : [home.code, ...rng.sample(others, rng.int(0, 6))].sort();
  const exclusions =
    destinations === null
      ? []
      : rng.sample(EXCLUSIONS, destinations === "worldwide" ? rng.int(1, 4) : rng.int(0, 2)).sort();
  return { destinations, exclusions };
}

/** Free shipping: unknown, above a threshold in the home currency, or none. */
function freeShippingOf(rng: Rng, home: Country): Vendor["shipping"]["freeShipping"] {
  if (rng.chance(0.25)) return null;
  return rng.chance(0.7)
    ? {
        available: true,
        threshold: { amount: rng.pick(["75.00", "100.00", "150.00", "200.00"]), currency: home.currency },
      }
    : { available: false, threshold: null };
}

export function generateVendors(seed: number, count: number): VendorWithCurrencies[] {
  const rng = createRng(seed, "vendors");
  const names = new Set<string>();
  const ids = new Set<string>();
  const out: VendorWithCurrencies[] = [];
  for (let i = 0; i < count; i++) {
    const { name, slug, id } = vendorIdentity(rng, names, ids);
    const home = COUNTRIES[i < COUNTRIES.length ? i : rng.int(0, COUNTRIES.length - 1)] as Country;
    const shortName = name.split(" ")[0] as string;
    const aliases = names.has(slugify(shortName)) ? [] : [shortName];
    const ratingCount = i === 3 || rng.chance(0.08) ? 0 : rng.int(1, 400);
    const ratingAverage = ratingCount === 0 ? null : i === 4 ? 5 : Math.round((2 + rng.next() * 3) * 10) / 10;
    const { destinations, exclusions } = coverage(rng, i, home);
    const currencies = rng.chance(0.3) && home.currency !== "USD" ? [home.currency, "USD"] : [home.currency];
    const free = freeShippingOf(rng, home);
    out.push({
      id,
      slug,
      name,
      aliases,
      description: `${name} is a synthetic sandbox vendor based in ${home.code}, listed for directory testing only.`,
      logoUrl: rng.chance(0.2) ? null : `https://${slug}.example/logo.svg`,
      country: home.code,
      region: rng.chance(0.1) ? null : home.region,
      websiteUrl: `https://${slug}.example/`,
      ratingAverage,
      ratingCount,
      verifiedCount: ratingCount === 0 ? 0 : rng.int(0, ratingCount),
      popularity: rng.int(10, 50_000),
      pricesShareable: i === 1 ? false : i === 0 ? true : rng.chance(0.85),
      affiliateCommissionPct: rng.int(0, 30),
      shipping: {
        destinations,
        exclusions,
        methods: rng.chance(0.15) ? null : rng.sample(METHODS, rng.int(1, 3)),
        freeShipping: free,
        returns: rng.chance(0.3)
          ? null
          : {
              accepted: rng.chance(0.7),
              window_days: rng.pick([14, 30, null]),
              conditions: rng.pick(["Unopened items only", null]),
            },
        checkedAt: daysBeforeNow(rng.int(1, 60)),
      },
      catalogCheckedAt: daysBeforeNow(rng.int(0, 6)),
      currencies,
    });
  }
  return out;
}

/**
 * Whether a vendor ships to a country (`US`) or subdivision (`US-CA`). Unknown coverage
 * answers "unknown", which never counts as shipping.
 */
export function shipsTo(v: Vendor, target: string): "yes" | "no" | "unknown" {
  const dest = v.shipping.destinations;
  if (dest === null) return "unknown";
  const code = target.toUpperCase();
  const country = code.slice(0, 2);
  const excluded = v.shipping.exclusions.some((x) => x === country || x === code);
  if (excluded) return "no";
  if (dest === "worldwide") return "yes";
  return dest.includes(country) ? "yes" : "no";
}
