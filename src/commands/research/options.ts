/** Options of `pep research-areas` and `pep search`, each naming the parameter it fills. */
import { LIMITS, SEARCH_TYPES } from "../../api/enums.js";
import type { OptionDef } from "../types.js";

export const AREA_OPTIONS: readonly OptionDef[] = [
  { flags: "--search <text>", param: "search", description: `part of an area name, 1 to ${LIMITS.areaSearchMaxLength} characters` },
];

export const SEARCH_OPTIONS: readonly OptionDef[] = [
  {
    flags: "--types <list>",
    param: "types",
    description: "what to search, comma-separated (default: both)",
    choices: SEARCH_TYPES,
  },
  {
    flags: "--limit <n>",
    param: "limit",
    description: `most results, 1 to ${LIMITS.searchLimitMax}`,
    default: LIMITS.searchLimitDefault,
  },
];
