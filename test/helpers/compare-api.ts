/**
 * A loopback API that answers `/v1/vendors/compare` with vendors a layout can trip on:
 * a name longer than a narrow terminal, links longer than any column, a return policy
 * in a long sentence, a vendor with most fields missing and others null, fields the
 * spec never names, and a pair of short, plain vendors that fit side by side.
 */
import { envelope, sendJson, startServer, type TestServer } from "./server.js";

export const LONG_NAME = "The Extraordinarily Long-Named International Peptide Research Materials Cooperative";
export const LONG_PROFILE_URL =
  "https://directory.example.test/vendors/the-extraordinarily-long-named-international-peptide-research-materials-cooperative";
export const LONG_SITE_URL = "https://shop.extraordinarily-long-named-cooperative.example.test/en-gb/research-only/";
export const LONG_TERMS =
  "Unopened vials only, within 30 days of delivery, with the original lot certificate; the buyer pays return postage unless the item arrived damaged";
export const POLICY_URL =
  "https://shop.extraordinarily-long-named-cooperative.example.test/policies/returns-and-refunds";

const site = (url: string) => ({ type: "vendor_site", url, checked_at: "2025-05-26T00:00:00Z" });

const LONG = {
  id: "vnd_long",
  slug: "long-named-cooperative",
  name: LONG_NAME,
  country: "GB",
  profile_url: LONG_PROFILE_URL,
  website_url: LONG_SITE_URL,
  rating: { average: 4.8, count: 1204, verified_count: null },
  catalog: { product_count: 212, peptide_count: 64, last_checked_at: "2025-05-28T00:00:00Z" },
  shipping: {
    destinations: { value: { coverage: "regional", countries: ["GB", "IE", "FR", "DE"] }, source: site(POLICY_URL) },
    methods: {
      value: [
        { name: "Next day", carrier: "Royal Example Mail", estimated_days: "1" },
        { name: "Economy", carrier: null, estimated_days: "3-5" },
      ],
      source: site(POLICY_URL),
    },
    free_shipping: {
      value: { available: true, threshold: { amount: "99.00", currency: "GBP" } },
      source: site(POLICY_URL),
    },
    returns: { value: { accepted: true, window_days: 30, conditions: LONG_TERMS }, source: site(POLICY_URL) },
  },
};

/** Most fields missing, the rest null. */
const SPARSE = {
  id: "vnd_sparse",
  name: "Ax",
  country: null,
  rating: null,
  shipping: { destinations: { value: null, source: site("https://ax.example.test/shipping") } },
};

/** Fields the spec never names. */
const ODD = {
  id: "vnd_odd",
  slug: "odd-labs",
  name: "Odd Labs",
  country: "NZ",
  certifications: ["ISO 9001", "GMP"],
  lab_tested: true,
  notes: "Ships only on weekdays",
  payment: { methods: ["card", "bank transfer"], crypto_only: false },
};

const PLAIN = {
  id: "vnd_plain",
  slug: "plain-supply",
  name: "Plain Supply",
  country: "US",
  rating: { average: 4.1, count: 88, verified_count: 40 },
  catalog: { product_count: 9, peptide_count: 7, last_checked_at: "2025-05-30T00:00:00Z" },
};

/** Two vendors whose every value is short: they fit side by side from 80 columns. */
const SHORT = [
  { id: "v1", name: "Alpha", country: "US", rating: { average: 4.5, count: 10 }, ships_to: "yes" },
  { id: "v2", name: "Beta", country: "DE", rating: { average: 3.9, count: 7 }, ships_to: "unknown" },
];

export const VENDORS: Record<string, Record<string, unknown>> = {
  [LONG.id]: LONG,
  [SPARSE.id]: SPARSE,
  [ODD.id]: ODD,
  [PLAIN.id]: PLAIN,
  ...Object.fromEntries(SHORT.map((v) => [v.id, v])),
};

/** The comparison of the vendors asked for, as the API shapes it (`ships_to` echoed, null when not asked). */
export function startCompareApi(): Promise<TestServer> {
  return startServer({
    "/v1/vendors/compare": (req, res) => {
      const ids = (req.query.get("ids") ?? "").split(",");
      const shipsTo = req.query.get("ships_to");
      const vendors = ids.map((id) => {
        const { ships_to, ...v } = VENDORS[id] ?? { id, name: id };
        return shipsTo ? { ...v, ships_to: ships_to ?? "unknown" } : v;
      });
      sendJson(
        res,
        200,
        envelope(
          { ships_to: shipsTo ? shipsTo.toUpperCase() : null, vendors },
          { meta: { affiliate_disclosure: "Links may be affiliate links." } },
        ),
      );
    },
  });
}
