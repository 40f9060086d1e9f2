/** `pep vendors list|get|shipping|compare`: the vendor directory (key with vendors:read). */
import { LIMITS, VENDOR_FIELDS } from "../../api/enums.js";
import type { CommandDef } from "../../core/command.js";
import { SHIPS_TO, VENDOR_LIST_OPTIONS } from "../../api/params/vendor-options.js";
import { BATCH_HELP, BATCH_OPTIONS } from "../shared/batch-options.js";
import { printsPage, WEB_OPTIONS } from "../shared/web-options.js";

const KEY_NOTE =
  "Needs an API key with the vendors:read scope (`pep auth login`); without one it exits 3 before sending anything. Vendor order never depends on commissions or affiliate status.";

/** The vendor ids of `get` and `shipping`: one or several, or - for stdin. */
const VENDOR_IDS = {
  name: "id",
  description: "vendor id or slug; several, or - to read them from standard input",
  required: true,
  variadic: true,
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
    calls: "vendors",
    list: true,
    options: VENDOR_LIST_OPTIONS,
    examples: [
      "pep vendors --ships-to us-ca --min-rating 4",
      "pep vendors list --peptide bpc-157 --sort rating -o json  # real API",
      "pep --sandbox vendors list --peptide brevritarin-81 --sort rating -o json  # synthetic data, no key",
      "pep vendors list --country DE --fields id,name,rating -o csv",
    ],
  },
  {
    path: ["vendors", "get"],
    summary: "Show one vendor: description, location, catalog, shipping and reviews, each fact with its source",
    description: `${KEY_NOTE}\n\n${BATCH_HELP}\n\n--web opens the vendor's page in the directory instead (one id).`,
    calls: "vendor",
    args: [VENDOR_IDS],
    options: [SHIPS_TO, ...BATCH_OPTIONS, ...WEB_OPTIONS],
    printsText: printsPage,
    examples: [
      "pep vendors get acme-labs  # real API",
      "pep vendors get acme-labs --ships-to GB -o json  # real API",
      "pep --sandbox vendors get vnd_9a826af2  # synthetic data, no key",
    ],
  },
  {
    path: ["vendors", "shipping"],
    summary: "Show a vendor's shipping facts: destinations, exclusions, methods, free shipping, returns",
    description: `${KEY_NOTE}\nWith --ships-to each result says whether the vendor ships there; "unknown" is never taken as "ships".\n\n${BATCH_HELP}`,
    calls: "vendorShipping",
    args: [VENDOR_IDS],
    options: [SHIPS_TO, ...BATCH_OPTIONS],
    examples: [
      "pep vendors shipping acme-labs  # real API",
      "pep vendors shipping acme-labs --ships-to US-NY  # real API",
    ],
  },
  {
    path: ["vendors", "compare"],
    summary: `Compare ${LIMITS.compareMin} to ${LIMITS.compareMax} vendors side by side: ratings, catalog size, shipping`,
    description: `${KEY_NOTE}\nIds may be given as separate words or comma-separated.`,
    calls: "vendorCompare",
    args: [
      {
        name: "ids",
        description: `${LIMITS.compareMin} to ${LIMITS.compareMax} vendor ids or slugs`,
        required: true,
        variadic: true,
      },
    ],
    options: [SHIPS_TO],
    examples: [
      "pep vendors compare acme-labs peptide-co  # real API",
      "pep vendors compare a b c d --ships-to CA -o json  # real API",
    ],
  },
];
