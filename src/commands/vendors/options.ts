/** Options of the vendor commands, each naming the parameter it fills. */
import { LIMITS, PRODUCT_CATEGORIES, VENDOR_SORTS } from "../../api/enums.js";
import { upperCode } from "../shared/codes.js";
import type { OptionDef } from "../types.js";
import { minRating } from "./params.js";

export const SHIPS_TO: OptionDef = {
  flags: "--ships-to <code>",
  description: "destination: a two-letter country code, optionally with a subdivision (US, US-CA; case does not matter)",
  param: "ships_to",
  transform: upperCode,
};

export const VENDOR_LIST_OPTIONS: readonly OptionDef[] = [
  { flags: "--search <text>", description: `vendor name or alias (at most ${LIMITS.searchMaxLength} characters)`, param: "search" },
  {
    flags: "--country <code>",
    description: "where the vendor is based: a two-letter country code (ISO 3166-1 alpha-2, such as US)",
    param: "country",
    transform: upperCode,
  },
  SHIPS_TO,
  { flags: "--product-category <category>", description: "vendors with live listings of this type", choices: PRODUCT_CATEGORIES, param: "product_category" },
  { flags: "--min-rating <rating>", description: `minimum average rating, ${LIMITS.ratingMin} to ${LIMITS.ratingMax}`, param: "min_rating", transform: minRating },
  { flags: "--peptide <peptide>", description: "vendors with live listings of this peptide (id, name or alias)", param: "peptide" },
  { flags: "--sort <order>", description: "order of the vendors", choices: VENDOR_SORTS, default: "best_match", param: "sort" },
];
