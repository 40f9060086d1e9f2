/** A list of rows a command holds or reads as it goes, for the output pipeline (no module beyond the types). */
import type { ListResult } from "../../core/command.js";

/**
 * Rows the command holds (the library's status, tables) or reads as they are asked for
 * (the change log) as a list through the usual output: one page, no cursor.
 */
export function rowsList(
  rows: readonly unknown[] | AsyncIterable<unknown>,
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
