/**
 * Options of `pep peptides list`, each naming the `GET /peptides` parameter it fills.
 * Kept apart from the definitions so the command code and tests can read them without
 * loading the program tree.
 */
import { CATEGORIES, EVIDENCE_LEVELS, LIMITS, PEPTIDE_SORTS, REGULATORY_STATUSES } from "../enums.js";
import { options } from "../options.js";

export const PEPTIDE_LIST_OPTIONS = options([
  {
    key: "search",
    long: "search",
    value: "text",
    param: "search",
    description: `match names, synonyms and aliases (fuzzy), 1 to ${LIMITS.searchMaxLength} characters`,
  },
  {
    key: "category",
    long: "category",
    value: "id",
    param: "category",
    description: "only profiles in this research category",
    choices: CATEGORIES,
  },
  {
    key: "researchArea",
    long: "research-area",
    value: "area",
    param: "research_area",
    description: `only profiles studied for this area, as listed by \`pep research-areas\`, 1 to ${LIMITS.researchAreaMaxLength} characters`,
  },
  {
    key: "evidenceLevel",
    long: "evidence-level",
    value: "level",
    param: "evidence_level",
    description: "only profiles with this evidence level",
    choices: EVIDENCE_LEVELS,
  },
  {
    key: "regulatoryStatus",
    long: "regulatory-status",
    value: "status",
    param: "regulatory_status",
    description: "only profiles with this regulatory status",
    choices: REGULATORY_STATUSES,
  },
  {
    key: "sort",
    long: "sort",
    value: "order",
    param: "sort",
    description: "order of the results (default: relevance with --search, name otherwise)",
    choices: PEPTIDE_SORTS,
  },
]);
