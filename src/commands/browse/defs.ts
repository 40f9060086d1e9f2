/** `pep browse`: a record's web page, opened in the browser or printed. */
import type { CommandDef } from "../../core/command.js";
import { NO_BROWSER, PAGE_HELP } from "../shared/web-options.js";

export const BROWSE_KINDS = ["peptide", "study", "vendor"] as const;

export const defs: CommandDef[] = [
  {
    path: ["browse"],
    summary: "Open a peptide's, study's or vendor's page in the browser (or print its address)",
    description: [
      "The kind is told by the id, as gh browse tells an issue number from a path: vnd_… is a vendor; a study id, PMID, DOI or NCT number (pmid-…, doi-…, nct-…, 12345678, 10.1000/x, NCT01234567) is a study; anything else is a peptide slug, name or alias. Name the kind first to say it outright, as a vendor's slug needs: pep browse vendor acme-labs.",
      "The record is fetched as its get command fetches it (same key and cache; exit 4 for an unknown id; vendors need a key with vendors:read), and its page is taken from it.",
      PAGE_HELP,
    ].join("\n\n"),
    args: [
      {
        name: "target",
        description:
          "a peptide slug, study id (PMID, DOI, NCT number) or vendor id (vnd_…); or peptide, study or vendor, followed by the id",
        required: true,
      },
      { name: "id", description: "the id, when <target> names the kind" },
    ],
    options: [NO_BROWSER],
    printsText: () => true,
    calls: "peptide",
    callsNote: "for a peptide; GET /studies/{id} for a study, GET /vendors/{id} for a vendor",
    examples: [
      "pep browse semaglutide  # real API: the profile page",
      "pep browse 10.1056/NEJMoa2032183  # real API: doi.org",
      "pep --sandbox browse vendor neskax-research-materials --no-browser",
    ],
  },
];
