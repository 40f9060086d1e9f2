/**
 * The format a `--file` name asks for when `-o` is not given (contract section 1):
 * `.csv .tsv .json .ndjson .jsonl .bib .ris .csl.json`, case aside. `.csl.json` is read
 * before `.json`. Any other name asks for nothing, and the command's machine default
 * applies: a file never gets a terminal table unless `-o table` says so.
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
  [".ris", "ris"],
];

/** The endings pep reads, for messages and docs. */
export const FILE_ENDINGS = BY_ENDING.map(([ending]) => ending);

export function formatOfFileName(file: string): OutputFormat | undefined {
  const name = file.trim().toLowerCase();
  return BY_ENDING.find(([ending]) => name.endsWith(ending))?.[1];
}
