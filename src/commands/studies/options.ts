/**
 * Filters of `GET /studies`, shared by `pep studies list` and `pep studies export`, each
 * naming the parameter it fills.
 */
import { EVIDENCE_CLASSIFICATIONS, LIMITS, STUDY_SORTS } from "../../api/enums.js";
import type { OptionDef } from "../types.js";

export const STUDY_FILTER_OPTIONS: readonly OptionDef[] = [
  { flags: "--peptide <slug>", param: "peptide", description: "only studies cited by this peptide (id, name or alias)" },
  {
    flags: "--evidence-classification <a,b>",
    param: "evidence_classification",
    description: "only studies of these classifications, comma-separated",
    choices: EVIDENCE_CLASSIFICATIONS,
  },
  {
    flags: "--year-from <year>",
    param: "year_from",
    description: `earliest publication year, ${LIMITS.yearMin} to ${LIMITS.yearMax}`,
  },
  {
    flags: "--year-to <year>",
    param: "year_to",
    description: `latest publication year, ${LIMITS.yearMin} to ${LIMITS.yearMax}, not before --year-from`,
  },
  { flags: "--search <words>", param: "search", description: `words in the title, 1 to ${LIMITS.searchMaxLength} characters` },
  { flags: "--sort <order>", param: "sort", description: "order of the results", choices: STUDY_SORTS, default: "newest" },
];
