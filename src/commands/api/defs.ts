/** `pep api <path>`: any GET of the API, printed raw (like `gh api`). */
import type { CommandDef } from "../../core/command.js";
import { API_OPTIONS } from "./api-options.js";

export const defs: CommandDef[] = [
  {
    path: ["api"],
    summary: "Send any GET request to the API and print the raw JSON",
    description: [
      "<path> is relative to the base URL (`peptides`, `/peptides` and `/v1/peptides` are the same), or a full URL.",
      "The key is sent only to the configured base URL's origin; a full URL elsewhere is fetched without it.",
      "The body is printed byte for byte as the API sent it (-o json, the default off a terminal); on a terminal it is indented, with -o ndjson on one line, every token kept as written, so numbers such as 9007199254740993 or 1.10 are never rounded; -o csv and tsv write the rows of the answer's data (a list's items, or the one object; a body without data is one row), such numbers as written.",
      "Query parameters come from the path's own ?a=b and from -F key=value; a name given twice is sent once with the values comma-separated.",
      "A key in the URL (api_key=, key=, token=) is refused: pep sends the configured key in a header.",
      "--paginate follows the cursors and prints the data items of every page, one JSON object a line; -F limit=<n> sets the page size.",
      "Errors exit as for any command (3 for 401/403, 4 for 404, 6 for 5xx).",
    ].join("\n"),
    args: [{ name: "path", description: "path relative to the base URL, or a full URL", required: true }],
    options: API_OPTIONS,
    examples: [
      "pep api /                                  # the API index",
      "pep api studies -F peptide=bpc-157 -F sort=oldest  # real API",
      "pep --sandbox api studies -F peptide=brevritarin-81 -F sort=oldest  # synthetic data, no key",
      "pep api /vendors --paginate -F limit=100 | jq -r .name",
    ],
  },
];
