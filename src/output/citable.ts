/** Which results can be written as citations (`-o bibtex|ris|csl-json`): studies, listed or one. */
import type { Result } from "../core/command.js";

export function isCitable(result: Result): boolean {
  return (
    (result.kind === "list" || result.kind === "item" || result.kind === "batch") &&
    (result.resource === "study" || result.resource === "cited-study" || result.resource === "study-detail")
  );
}
