/** `pep vendors list|get|shipping|compare`: the vendor directory (key with vendors:read). */
import { LIMITS, PRODUCT_CATEGORIES, VENDOR_FIELDS, VENDOR_SORTS } from "../../api/enums.js";
import type { CommandDef, OptionDef } from "../types.js";

const KEY_NOTE =
  "Needs an API key with the vendors:read scope (`pep auth login`); without one it exits 3 before sending anything. Vendor order never depends on commissions or affiliate status.";

const SHIPS_TO: OptionDef = {
  flags: "--ships-to <code>",
  description: "destination: a two-letter country code, optionally with a subdivision (US, US-CA; case does not matter)",
  param: "ships_to",
};

export const defs: CommandDef[] = [
  {
    path: ["vendors", "list"],
    isDefault: true,
    summary: "List vendors, filtered by name, location, destination, products or rating",
    description: [
      KEY_NOTE,
      "Vendors come in the API's order (best match) unless --sort asks for another.",
      "--ships-to leaves out vendors whose coverage is unknown.",
      `--fields chooses from: ${VENDOR_FIELDS.join(", ")} (id is always included).`,
    ].join("\n"),
    endpoint: "GET /vendors",
    list: true,
    defaultLimit: LIMITS.pageDefault,
    options: [
      { flags: "--search <text>", description: `vendor name or alias (at most ${LIMITS.searchMaxLength} characters)`, param: "search" },
      { flags: "--country <code>", description: "where the vendor is based: a two-letter country code (ISO 3166-1 alpha-2, such as US)", param: "country" },
      SHIPS_TO,
      { flags: "--product-category <category>", description: "vendors with live listings of this type", choices: PRODUCT_CATEGORIES, param: "product_category" },
      { flags: "--min-rating <rating>", description: `minimum average rating, ${LIMITS.ratingMin} to ${LIMITS.ratingMax}`, param: "min_rating" },
      { flags: "--peptide <peptide>", description: "vendors with live listings of this peptide (id, name or alias)", param: "peptide" },
      { flags: "--sort <order>", description: "order of the vendors", choices: VENDOR_SORTS, default: "best_match", param: "sort" },
    ],
    examples: [
      "pep vendors --ships-to us-ca --min-rating 4",
      "pep vendors list --peptide bpc-157 --sort rating -o json",
      "pep vendors list --country DE --fields id,name,rating -o csv",
    ],
    load: () => import("./list.js"),
  },
  {
    path: ["vendors", "get"],
    summary: "Show one vendor: description, location, catalog, shipping and reviews, each fact with its source",
    description: KEY_NOTE,
    endpoint: "GET /vendors/{id}",
    args: [{ name: "id", description: "vendor id or slug", required: true }],
    options: [SHIPS_TO],
    examples: ["pep vendors get acme-labs", "pep vendors get acme-labs --ships-to GB -o json"],
    load: () => import("./get.js"),
  },
  {
    path: ["vendors", "shipping"],
    summary: "Show a vendor's shipping facts: destinations, exclusions, methods, free shipping, returns",
    description: `${KEY_NOTE}\nWith --ships-to each result says whether the vendor ships there; "unknown" is never taken as "ships".`,
    endpoint: "GET /vendors/{id}/shipping",
    args: [{ name: "id", description: "vendor id or slug", required: true }],
    options: [SHIPS_TO],
    examples: ["pep vendors shipping acme-labs", "pep vendors shipping acme-labs --ships-to US-NY"],
    load: () => import("./shipping.js"),
  },
  {
    path: ["vendors", "compare"],
    summary: `Compare ${LIMITS.compareMin} to ${LIMITS.compareMax} vendors side by side: ratings, catalog size, shipping`,
    description: `${KEY_NOTE}\nIds may be given as separate words or comma-separated.`,
    endpoint: "GET /vendors/compare",
    args: [{ name: "ids", description: `${LIMITS.compareMin} to ${LIMITS.compareMax} vendor ids or slugs`, required: true, variadic: true }],
    options: [SHIPS_TO],
    examples: ["pep vendors compare acme-labs peptide-co", "pep vendors compare a b c d --ships-to CA -o json"],
    load: () => import("./compare.js"),
  },
];
