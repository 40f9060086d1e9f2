/** A list of rows a command already holds, for the output pipeline (no module beyond the types). */
import type { ListResult } from "../../core/command.js";

/**
 * Rows the command already holds (the library's status, tables, change log) as a list
 * through the usual output: one page, no cursor.
 */
export function rowsList(
  rows: readonly unknown[],
  options: { fields?: string[]; resource?: ListResult["resource"] } = {},
): ListResult {
  async function* each() {
    yield* rows;
  }
  return {
    kind: "list",
    resource: options.resource ?? "generic",
    items: each(),
    meta: () => undefined,
    nextCursor: () => undefined,
    ...(options.fields ? { fields: options.fields } : {}),
  };
}
