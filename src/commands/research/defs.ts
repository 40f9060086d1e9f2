/**
 * `pep categories`, `pep research-areas` and `pep search`: ways into the research
 * profiles.
 */
import { ENDPOINTS } from "../../api/endpoints.js";
import { CATEGORIES, LIMITS } from "../../api/enums.js";
import { RESEARCH_NOTICE } from "../../core/research-notice.js";
import type { CommandDef } from "../../core/command.js";
import { AREA_OPTIONS, SEARCH_OPTIONS } from "../../api/params/research-options.js";

export const defs: CommandDef[] = [
  {
    path: ["categories"],
    summary: "List the research categories with every profile in each",
    description: [
      `Category ids (for \`pep peptides list --category\`): ${CATEGORIES.join(", ")}.`,
      RESEARCH_NOTICE,
    ].join("\n\n"),
    list: true,
    calls: "categories",
    examples: ["pep categories", "pep categories -o json | jq '.[].id'"],
  },
  {
    path: ["research-areas"],
    aliases: ["areas"],
    summary: "List studied research areas, most-studied first, with their peptides",
    description: ["An area's name is what `pep peptides list --research-area` takes.", RESEARCH_NOTICE].join("\n\n"),
    options: AREA_OPTIONS,
    list: true,
    calls: "researchAreas",
    examples: ["pep research-areas", "pep areas --search repair", "pep research-areas --all -o csv --file areas.csv"],
  },
  {
    path: ["search"],
    summary: "Search peptide profiles and educational content (FAQs, articles, courses)",
    description: [
      `The words of the query are joined with spaces, so quotes are optional: \`pep search growth factor\` is \`pep search "growth factor"\`. The query is 1 to ${LIMITS.searchMaxLength} characters.`,
      `One request, not a paginated list: --limit is 1 to ${ENDPOINTS.search.maxLimit}. Dosing and commerce content is never returned.`,
      "-o csv and tsv write one row a hit, profiles first, then content, with the columns kind (peptide or content), id, title, type, url, score and excerpt.",
      RESEARCH_NOTICE,
    ].join("\n\n"),
    args: [{ name: "query", description: "words to search for", required: true, variadic: true }],
    options: SEARCH_OPTIONS,
    calls: "search",
    examples: [
      "pep search growth factor",
      "pep search semaglutide --types content --limit 25",
      "pep search growth factor -o csv --file hits.csv",
    ],
  },
];
