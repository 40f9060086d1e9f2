/** `pep prices` and `pep products`: offers and products (keys with pricing:read / products:read); each is its endpoint alone (shared/endpoint-command.ts). */
import type { CommandDef } from "../../core/command.js";
import { PRICE_OPTIONS, PRODUCT_OPTIONS } from "../../api/params/price-options.js";

const MONEY =
  "Prices are the API's decimal strings in the listed currency, printed exactly as received: never converted, never summed across currencies.";

export const defs: CommandDef[] = [
  {
    path: ["prices"],
    summary: "List current vendor offers with listed prices, last-seen dates and product links",
    description: [
      "Needs an API key with the pricing:read scope (`pep auth login`).",
      "Offers come in the API's order, which commissions never affect; each offer was seen on the vendor's site within the last 30 days (prices are checked about once a day).",
      MONEY,
      "Links may be affiliate links: the API's affiliate disclosure is printed under the table, or on stderr for json, ndjson, csv and tsv.",
    ].join("\n"),
    calls: "prices",
    list: true,
    options: PRICE_OPTIONS,
    examples: [
      "pep prices --peptide bpc-157 --currency usd  # real API",
      "pep --sandbox prices --peptide brevritarin-81  # synthetic data, no key",
      "pep prices --peptide bpc-157 --ships-to GB -o csv --file offers.csv  # real API",
      "pep prices --param in_stock=true",
    ],
  },
  {
    path: ["products"],
    summary: "List products (compound x form) with price ranges per currency",
    description: [
      "Needs an API key with the products:read scope (`pep auth login`).",
      "The path /products is assumed: the API documents the resource but not its address.",
      MONEY,
    ].join("\n"),
    calls: "products",
    list: true,
    options: PRODUCT_OPTIONS,
    examples: [
      "pep products --peptide bpc-157  # real API",
      "pep --sandbox products --peptide brevritarin-81  # synthetic data, no key",
      "pep products --form capsules --currency EUR -o json",
    ],
  },
];
