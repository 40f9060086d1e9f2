/**
 * `pep peptides …`: research profiles, their cited studies, research summaries and
 * regulatory status.
 */
import { LIMITS, PEPTIDE_FIELDS } from "../../api/enums.js";
import { RESEARCH_NOTICE } from "../../core/research-notice.js";
import type { CommandDef } from "../../core/command.js";
import { BATCH_HELP, BATCH_OPTIONS } from "../shared/batch-options.js";
import { printsPage, WEB_OPTIONS } from "../shared/web-options.js";
import { PEPTIDE_LIST_OPTIONS } from "../../api/params/peptide-options.js";

const slugArg = {
  name: "slug",
  description:
    "peptide id, name, synonym or alias (aliases resolve to the canonical profile); several, or - to read them from standard input",
  required: true,
  variadic: true,
};

export const defs: CommandDef[] = [
  {
    path: ["peptides", "list"],
    isDefault: true,
    summary: "List peptide research profiles, with filters",
    description: [
      "Without --search the profiles come in name order; with it, most relevant first.",
      `--fields chooses the fields requested and the columns shown, from: ${PEPTIDE_FIELDS.join(", ")} (id is always included).`,
      RESEARCH_NOTICE,
    ].join("\n\n"),
    options: PEPTIDE_LIST_OPTIONS,
    list: true,
    calls: "peptides",
    examples: [
      "pep peptides list --category cognitive --evidence-level clinical-trial",
      "pep peptides --search semaglutide --limit 5",
      "pep peptides list --all --fields id,name,evidence,regulatory_status -o csv --file peptides.csv",
    ],
  },
  {
    path: ["peptides", "get"],
    summary: "Show a peptide's research profile: mechanism, evidence, safety, regulatory status",
    description: [
      "Human and preclinical evidence are shown apart. Dose figures are never part of a profile.",
      BATCH_HELP,
      "--web opens the profile's page in the browser instead (one slug; pep browse does the same).",
      RESEARCH_NOTICE,
    ].join("\n\n"),
    args: [slugArg],
    options: [...BATCH_OPTIONS, ...WEB_OPTIONS],
    printsText: printsPage,
    calls: "peptide",
    examples: [
      "pep peptides get bpc-157  # real API",
      "pep --sandbox peptides get brevritarin-81  # synthetic data, no key",
      "pep peptides list --category glp1-metabolic --jq '.[].id' --jq-raw | pep peptides get - -o ndjson",
    ],
  },
  {
    path: ["peptides", "studies"],
    summary: `List the studies and sources a profile cites (at most ${LIMITS.peptideStudiesMax})`,
    description: [
      "Each study with its evidence classification, identifiers and the editors' finding summary.",
      "-o bibtex, ris or csl-json writes the citations for a reference manager.",
      "Several slugs (or - for slugs from standard input) print their lists one after another, in the order given.",
      RESEARCH_NOTICE,
    ].join("\n\n"),
    args: [slugArg],
    options: BATCH_OPTIONS,
    list: true,
    extraFormats: ["bibtex", "ris", "csl-json"],
    calls: "peptideStudies",
    examples: [
      "pep peptides studies bpc-157  # real API",
      "pep --sandbox peptides studies brevritarin-81  # synthetic data, no key",
      "pep peptides studies semaglutide -o bibtex --file semaglutide.bib  # real API",
    ],
  },
  {
    path: ["peptides", "research"],
    summary: "Show a profile's research summary: mechanisms, human and preclinical evidence, gaps",
    description: [
      "Mechanisms under investigation, clinical (human) evidence, preclinical evidence, secondary reports, safety information, known limitations, research gaps and source references.",
      BATCH_HELP,
      RESEARCH_NOTICE,
    ].join("\n\n"),
    args: [slugArg],
    options: BATCH_OPTIONS,
    calls: "peptideResearch",
    examples: [
      "pep peptides research bpc-157  # real API",
      "pep --sandbox peptides research brevritarin-81  # synthetic data, no key",
      "pep peptides research semaglutide -o json | jq .clinical_evidence.human_trials  # real API",
    ],
  },
  {
    path: ["peptides", "regulatory"],
    summary: "Show a peptide's regulatory status: FDA, WADA, availability, development stage",
    description: ["As recorded in the profile, with the date it was reviewed.", BATCH_HELP, RESEARCH_NOTICE].join(
      "\n\n",
    ),
    args: [slugArg],
    options: BATCH_OPTIONS,
    calls: "regulatoryStatus",
    examples: [
      "pep peptides regulatory semaglutide  # real API",
      "pep --sandbox peptides regulatory brevritarin-81  # synthetic data, no key",
      "pep peptides regulatory bpc-157 -o json | jq .wada_status  # real API",
    ],
  },
];
