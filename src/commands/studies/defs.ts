/**
 * `pep studies …`: the studies the profiles cite, de-duplicated: list, look up one,
 * export every page for spreadsheets and reference managers.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { STUDY_FIELDS } from "../../api/enums.js";
import { RESEARCH_NOTICE } from "../../core/research-notice.js";
import type { CommandDef } from "../../core/command.js";
import { EXPORT_OPTIONS, STUDY_FILTER_OPTIONS } from "../../api/params/study-options.js";
import { STUDY_ID_FORMS } from "../../api/study-id.js";
import { BATCH_HELP, BATCH_OPTIONS } from "../shared/batch-options.js";
import { printsPage, WEB_OPTIONS } from "../shared/web-options.js";

const fieldsLine = `--fields chooses the fields requested and the columns shown, from: ${STUDY_FIELDS.join(", ")} (id is always included).`;

export const defs: CommandDef[] = [
  {
    path: ["studies", "list"],
    isDefault: true,
    summary: "List studies cited by the profiles, with filters",
    description: [
      "Newest first unless --sort says otherwise. -o bibtex, ris or csl-json writes citations for a reference manager.",
      fieldsLine,
      RESEARCH_NOTICE,
    ].join("\n\n"),
    options: STUDY_FILTER_OPTIONS,
    list: true,
    extraFormats: ["bibtex", "ris", "csl-json"],
    calls: "studies",
    examples: [
      "pep --sandbox studies list --peptide brevritarin-81 --year-from 2015  # synthetic data, no key",
      "pep studies --evidence-classification human_controlled_trial,human_study --sort oldest",
      "pep studies list --search 'tendon healing' --fields id,title,publication_year -o csv",
    ],
  },
  {
    path: ["studies", "get"],
    summary: "Show one study with each citing profile's summary",
    description: [
      `<id> may be any of: ${STUDY_ID_FORMS.join("; ")}. A DOI or NCT number is turned into the API's id form (10.1000/x becomes doi-10.1000--x).`,
      "-o bibtex, ris or csl-json writes its citation.",
      BATCH_HELP,
      "--web opens the study's page in the browser instead (one id): PubMed for a PMID, else doi.org, else ClinicalTrials.gov.",
      RESEARCH_NOTICE,
    ].join("\n\n"),
    args: [
      {
        name: "id",
        description: "study id, PMID, DOI or NCT number; several, or - to read them from standard input",
        required: true,
        variadic: true,
      },
    ],
    options: [...BATCH_OPTIONS, ...WEB_OPTIONS],
    printsText: printsPage,
    extraFormats: ["bibtex", "ris", "csl-json"],
    calls: "study",
    examples: [
      "pep studies get 12345678  # real API",
      "pep --sandbox studies get pmid-90001067 -o bibtex  # synthetic data",
      "pep studies get NCT01234567 -o ris  # real API",
    ],
  },
  {
    path: ["studies", "export"],
    summary: "Export every matching study as CSV, or as citations for a reference manager",
    description: [
      `Takes every page (${ENDPOINTS.studies.maxLimit} studies a request) unless --limit is given, and writes CSV unless -o or PEP_OUTPUT says otherwise: bibtex, ris and csl-json suit reference managers.`,
      "The filters are those of `pep studies list`. A run cut short prints the command that resumes it.",
      fieldsLine,
      RESEARCH_NOTICE,
    ].join("\n\n"),
    options: EXPORT_OPTIONS,
    fields: true,
    defaultFormat: "csv",
    extraFormats: ["bibtex", "ris", "csl-json"],
    calls: "studies",
    callsNote: "every page",
    examples: [
      "pep studies export --peptide bpc-157 -o bibtex --file refs.bib  # real API",
      "pep studies export --year-from 2020 --file studies.csv",
      "pep studies export --evidence-classification human_controlled_trial --limit 500 -o ris > trials.ris",
    ],
  },
];
