/**
 * What an export hands to its writer, watched on the way: an item whose id was already
 * handed out (on an earlier page, or kept in the partial this run finishes) is skipped
 * and counted, so no export repeats an item when the API's pages overlap; and the first and
 * last whole pages are remembered (the cursor that fetched each, its ids, a digest of its items),
 * for a partial's state (output/partial.ts) to check on resuming that the data still
 * lines up.
 */
import type { Hash } from "node:crypto";
import type { ListResult } from "../core/command.js";
import type { LastPage } from "../output/partial.js";

export interface PageWatch {
  /** Ids handed out, those of the partial first. */
  readonly ids: string[];
  /** Items handed out by this run. */
  handed: number;
  /** Items skipped: their id was handed out already. */
  duplicates: number;
  /** The last whole page received (before any skipping), when one ended. */
  lastPage: LastPage | null;
  /** The export's first whole page (the partial's, when finishing one). */
  firstPage: LastPage | null;
}

/** An item's id as a string, when it has one. */
export function idOf(item: unknown): string | undefined {
  const id = (item as { id?: unknown } | null)?.id;
  if (typeof id === "string") return id;
  if (typeof id === "number" || typeof id === "bigint") return String(id);
  // An exact number kept as its source text (JSON that JavaScript cannot hold exactly).
  if (id !== null && typeof id === "object" && typeof (id as { text?: unknown }).text === "string")
    return (id as { text: string }).text;
  return undefined;
}

/**
 * `result` with its items de-duplicated by id and its pages watched. `seed`: what the
 * partial this run finishes holds already.
 */
export function watchPages(
  result: ListResult,
  seed: { ids: readonly string[]; lastPage: LastPage | null; firstPage: LastPage | null } = {
    ids: [],
    lastPage: null,
    firstPage: null,
  },
  /**
   * Records the pages for a partial's state (a `--file` export) with this hash (node:crypto's
   * createHash, loaded by the caller only then: a run to stdout only de-duplicates).
   */
  createHash?: (algorithm: string) => Hash,
): { result: ListResult; watch: PageWatch } {
  const record = createHash !== undefined;
  const watch: PageWatch = {
    ids: [...seed.ids],
    handed: 0,
    duplicates: 0,
    lastPage: seed.lastPage,
    firstPage: seed.firstPage,
  };
  const seen = new Set(seed.ids);
  const pageEnded = result.pageEnded;
  const pageCursor = result.pageCursor;
  let handedEndsPage = true;
  async function* items(): AsyncGenerator<unknown> {
    let hash: Hash | undefined;
    let pageIds: string[] = [];
    let cursor: string | null = null;
    for await (const item of result.items) {
      const id = idOf(item);
      const ended = pageEnded?.() ?? false;
      if (record) {
        if (hash === undefined) {
          hash = createHash("sha256");
          pageIds = [];
          cursor = pageCursor?.() ?? null;
        }
        hash.update(`${JSON.stringify(item)}\n`);
        if (id !== undefined) pageIds.push(id);
        if (ended) {
          watch.lastPage = { cursor, ids: pageIds, digest: hash.digest("hex") };
          watch.firstPage ??= watch.lastPage;
          hash = undefined;
        }
      }
      if (id !== undefined && seen.has(id)) {
        watch.duplicates += 1;
        continue;
      }
      if (id !== undefined) {
        seen.add(id);
        if (record) watch.ids.push(id);
      }
      watch.handed += 1;
      handedEndsPage = pageEnded === undefined || ended;
      yield item;
    }
  }
  const watched: ListResult = {
    ...result,
    items: items(),
    ...(pageEnded === undefined ? {} : { pageEnded: () => handedEndsPage }),
  };
  return { result: watched, watch };
}
