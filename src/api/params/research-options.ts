/** Options of `pep research-areas` and `pep search`, each naming the parameter it fills. */
import { LIMITS, SEARCH_TYPES } from "../enums.js";
import { options } from "../options.js";

export const AREA_OPTIONS = options([
  {
    key: "search",
    long: "search",
    value: "text",
    param: "search",
    description: `part of an area name, 1 to ${LIMITS.areaSearchMaxLength} characters`,
  },
]);

export const SEARCH_OPTIONS = options([
  {
    key: "types",
    long: "types",
    value: "list",
    param: "types",
    description: "what to search, comma-separated (default: both)",
    choices: SEARCH_TYPES,
  },
  {
    key: "limit",
    long: "limit",
    value: "n",
    param: "limit",
    // Its bound and default are the endpoint's, added where help is made (api/command-options.ts).
    description: "most results",
  },
]);
