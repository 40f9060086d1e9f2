/** Options of the vendor commands, each naming the parameter it fills. */
import { LIMITS, PRODUCT_CATEGORIES, VENDOR_SORTS } from "../enums.js";
import { upperCode } from "./codes.js";
import { option, options } from "../options.js";
import { minRating } from "./vendor-values.js";

export const SHIPS_TO = option({
  key: "shipsTo",
  long: "ships-to",
  value: "code",
  description:
    "destination: a two-letter country code, optionally with a subdivision (US, US-CA; case does not matter)",
  param: "ships_to",
  transform: upperCode,
});

/** Options of get, shipping and compare. */
export const SHIPS_TO_OPTIONS = options([SHIPS_TO]);

export const VENDOR_LIST_OPTIONS = options([
  {
    key: "search",
    long: "search",
    value: "text",
    description: `vendor name or alias (at most ${LIMITS.searchMaxLength} characters)`,
    param: "search",
  },
  {
    key: "country",
    long: "country",
    value: "code",
    description: "where the vendor is based: a two-letter country code (ISO 3166-1 alpha-2, such as US)",
    param: "country",
    transform: upperCode,
  },
  SHIPS_TO,
  {
    key: "productCategory",
    long: "product-category",
    value: "category",
    description: "vendors with live listings of this type",
    choices: PRODUCT_CATEGORIES,
    param: "product_category",
  },
  {
    key: "minRating",
    long: "min-rating",
    value: "rating",
    description: `minimum average rating, ${LIMITS.ratingMin} to ${LIMITS.ratingMax}`,
    param: "min_rating",
    transform: minRating,
  },
  {
    key: "peptide",
    long: "peptide",
    value: "peptide",
    description: "vendors with live listings of this peptide (id, name or alias)",
    param: "peptide",
  },
  {
    key: "sort",
    long: "sort",
    value: "order",
    description: "order of the vendors",
    choices: VENDOR_SORTS,
    default: "best_match",
    param: "sort",
  },
]);
