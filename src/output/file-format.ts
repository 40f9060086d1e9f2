/**
 * The format a `--file` name asks for when `-o` is not given (docs/cli.md#files):
 * `.csv .tsv .json .ndjson .jsonl .bib .bibtex .ris .csl.json`, case aside. `.csl.json`
 * is read before `.json`. Any other name is refused unless `-o` (or `--jq`) says what to
 * write (cli/format-choice.ts): a `.txt` or `.xlsx` must not quietly get CSV.
 */
import type { OutputFormat } from "../api/enums.js";

const BY_ENDING: ReadonlyArray<readonly [string, OutputFormat]> = [
  [".csl.json", "csl-json"],
  [".ndjson", "ndjson"],
  [".jsonl", "ndjson"],
  [".json", "json"],
  [".csv", "csv"],
  [".tsv", "tsv"],
  [".bib", "bibtex"],
  [".bibtex", "bibtex"],
  [".ris", "ris"],
];

/** The endings pep reads, for messages and docs. */
export const FILE_ENDINGS = BY_ENDING.map(([ending]) => ending);

export function formatOfFileName(file: string): OutputFormat | undefined {
  const name = file.trim().toLowerCase();
  return BY_ENDING.find(([ending]) => name.endsWith(ending))?.[1];
}
