/**
 * Filters of `GET /studies`, shared by `pep studies list` and `pep studies export`, each
 * naming the parameter it fills.
 */
import { EVIDENCE_CLASSIFICATION_SYNONYMS, EVIDENCE_CLASSIFICATIONS, LIMITS, STUDY_SORTS } from "../enums.js";
import { options } from "../options.js";

export const STUDY_FILTER_OPTIONS = options([
  {
    key: "peptide",
    long: "peptide",
    value: "slug",
    param: "peptide",
    description: "only studies cited by this peptide (id, name or alias)",
  },
  {
    key: "evidenceClassification",
    long: "evidence-classification",
    value: "a,b",
    param: "evidence_classification",
    description: "only studies of these classifications, comma-separated",
    choices: EVIDENCE_CLASSIFICATIONS,
    synonyms: EVIDENCE_CLASSIFICATION_SYNONYMS,
  },
  {
    key: "yearFrom",
    long: "year-from",
    value: "year",
    param: "year_from",
    description: `earliest publication year, ${LIMITS.yearMin} to ${LIMITS.yearMax}`,
  },
  {
    key: "yearTo",
    long: "year-to",
    value: "year",
    param: "year_to",
    description: `latest publication year, ${LIMITS.yearMin} to ${LIMITS.yearMax}, not before --year-from`,
  },
  {
    key: "search",
    long: "search",
    value: "words",
    param: "search",
    description: `words in the title, 1 to ${LIMITS.searchMaxLength} characters`,
  },
  {
    key: "sort",
    long: "sort",
    value: "order",
    param: "sort",
    description: "order of the results",
    choices: STUDY_SORTS,
    default: "newest",
  },
]);

/** The list options, with export's own default: every page. */
const EXPORT_PAGING_OPTIONS = options([
  { key: "limit", long: "limit", value: "n", description: "export at most this many studies instead of all" },
  { key: "all", long: "all", description: "export every page (the default unless --limit is given)" },
  {
    key: "pageSize",
    long: "page-size",
    value: "n",
    description: `studies per request, 1 to ${LIMITS.pageMax} (default: ${LIMITS.pageMax}, or --limit when smaller)`,
  },
  {
    key: "cursor",
    long: "cursor",
    value: "cursor",
    description: "start from this cursor (as told by a run cut short)",
  },
]);

/** Options of `pep studies export`: the filters, and paging with its own defaults. */
export const EXPORT_OPTIONS = options([...STUDY_FILTER_OPTIONS, ...EXPORT_PAGING_OPTIONS]);
