/**
 * How `--offline` answers an endpoint from the local library, a fact of the endpoint's
 * descriptor (`offline` in ./endpoints.ts; docs/offline.md). offline/routes.ts reads
 * the routes from it and offline/refusals.ts the flags a command keeps offline; the
 * library takes from it which endpoint answers each kept detail. An endpoint without it
 * is refused offline.
 */
import type { DetailKind, DetailResource, LibraryResource } from "./enums.js";

/** How a query parameter's value turns into a filter on the stored items. */
export type ParamRule =
  /** The item's field at `path` equals the value. */
  | { kind: "equals"; path: readonly string[] }
  /** The item's array at `path` holds the value. */
  | { kind: "holds"; path: readonly string[] }
  /** The item's field at `path` is one of the comma-separated values. */
  | { kind: "one-of"; path: readonly string[] }
  /** The item's number at `path` is at least / at most the value (a missing one is left out). */
  | { kind: "at-least" | "at-most"; path: readonly string[] }
  /** A peptide (id, name or alias), resolved in the library: its cited studies, or items whose `path` is its id. */
  | { kind: "peptide"; path?: readonly string[] }
  /** The API's default order, the one the library keeps: this value is accepted, every other refused. */
  | { kind: "default-sort"; value: string };

export type OfflineAnswer =
  /**
   * A list the library keeps whole (`pep sync <resource>`), in the API's default order,
   * and the query parameters whose rule it reproduces exactly (by their API names); any
   * other parameter is refused.
   */
  | { list: LibraryResource; params?: Readonly<Record<string, ParamRule>> }
  /**
   * The answer the library keeps per item of `of` as `detail` (the path parameter names
   * the item): a get's answer, or, for a list under a path parameter, the whole list,
   * paged by position.
   */
  | { detail: DetailKind; of: DetailResource };

/** The rule of a parameter that must equal the item's field at `path`. */
export const equals = (...path: string[]): ParamRule => ({ kind: "equals", path });
