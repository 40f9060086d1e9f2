/**
 * Cursor pagination as an async iterator over one request function (the octokit
 * plugin-paginate shape). Items stream page by page; a `limit` stops fetching as soon as
 * enough items are out, and a consumer's `break` fetches nothing more.
 *
 * With a `limit`, the last request asks for only the items still wanted, so the run
 * ends on a page boundary and `state.nextCursor` resumes exactly where it stopped.
 */
import { InterruptedError, PaginationLoopError, ResponseError, withResumeCursor } from "../core/errors.js";
import type { ApiResponse, PageState, PaginateOptions, Paginator, RequestOptions } from "./client-types.js";
import { LIMITS } from "../api/enums.js";

export type RequestFn = (path: string, options?: RequestOptions) => Promise<ApiResponse<unknown>>;

/** The page size to ask for: the caller's, else `min(limit, 100)`, else 100. */
export function pageSizeFor(options: Pick<PaginateOptions, "limit" | "pageSize">): number {
  if (options.pageSize !== undefined) return options.pageSize;
  if (options.limit !== undefined) return Math.max(1, Math.min(options.limit, LIMITS.pageMax));
  return LIMITS.pageMax;
}

/** Empty pages in a row, each with a new cursor and "more to come", before giving up. */
export const MAX_EMPTY_PAGES = 10;

function freshState(): PageState {
  return {
    pages: 0,
    items: 0,
    currentCursor: undefined,
    pageStart: 0,
    nextCursor: undefined,
    meta: undefined,
    pageLeft: 0,
  };
}

/**
 * One page: the request, checked to hold a list. A failure carries the cursor to resume
 * from and, with a `limit`, how many items were still wanted.
 */
async function fetchPage(
  request: RequestFn,
  path: string,
  options: PaginateOptions,
  page: { cursor: string | undefined; ask: number; remaining: number | undefined },
): Promise<ApiResponse<unknown[]>> {
  const { signal } = options;
  try {
    if (signal?.aborted) throw new InterruptedError();
    const query = { ...options.query, limit: page.ask, cursor: page.cursor };
    const res = await request(path, signal ? { query, signal } : { query });
    if (!Array.isArray(res.data)) {
      throw new ResponseError(`expected a list from ${path}, got ${res.data === null ? "null" : typeof res.data}`, {
        status: res.status,
        requestId: res.requestId,
      });
    }
    return res as ApiResponse<unknown[]>;
  } catch (err) {
    throw withResumeCursor(err, page.cursor, page.remaining);
  }
}

/** A last page that says more remain, while more are wanted: ending quietly would pass an incomplete list for a whole one. */
function checkLastPage(res: ApiResponse<unknown>, wanted: boolean): void {
  if (res.pagination?.has_more === true && wanted) {
    throw new ResponseError("the API said more items remain but sent no next cursor; the list is incomplete", {
      status: res.status,
      requestId: res.requestId,
    });
  }
}

/** Empty pages in a row with fresh cursors and "more to come": stops short of an endless loop. */
function checkEmptyPages(emptyPages: number, res: ApiResponse<unknown>): void {
  if (emptyPages < MAX_EMPTY_PAGES) return;
  throw new ResponseError(
    `${MAX_EMPTY_PAGES} pages in a row came back empty while the API said more remain; stopping to avoid an endless loop`,
    {
      status: res.status,
      requestId: res.requestId,
    },
  );
}

/**
 * Items of every page of `path`, following `pagination.next_cursor` while `has_more`.
 * Errors carry the cursor of the page that failed (`resumeCursorOf(err)`) and, with a
 * `limit`, how many items were still wanted (`resumeRemainingOf(err)`), except a cursor
 * loop, where resuming would only loop again. A server that says more remain but sends
 * no cursor, or sends empty pages with fresh cursors without end, stops the run too.
 */
export function paginate<T = unknown>(request: RequestFn, path: string, options: PaginateOptions = {}): Paginator<T> {
  const state = freshState();
  const { limit } = options;
  const pageSize = pageSizeFor(options);
  if (!Number.isInteger(pageSize) || pageSize < 1)
    throw new RangeError(`page size must be a positive integer, got ${pageSize}`);
  if (limit !== undefined && (!Number.isInteger(limit) || limit < 0))
    throw new RangeError(`limit must be a whole number, got ${limit}`);
  const remaining = () => (limit === undefined ? undefined : limit - state.items);
  const enough = () => limit !== undefined && state.items >= limit;

  async function* run(): AsyncGenerator<T, void, undefined> {
    Object.assign(state, freshState());
    const seen = new Set<string>();
    let emptyPages = 0;
    let cursor = options.cursor;
    if (cursor !== undefined) seen.add(cursor);
    for (;;) {
      if (enough()) return;
      state.currentCursor = cursor;
      state.pageStart = state.items;
      const ask = limit === undefined ? pageSize : Math.min(pageSize, limit - state.items);
      const res = await fetchPage(request, path, options, { cursor, ask, remaining: remaining() });
      state.pages += 1;
      state.meta = res.meta;
      state.synced = res.synced;
      const next = res.pagination?.has_more ? (res.pagination.next_cursor ?? undefined) : undefined;
      if (next !== undefined && seen.has(next)) throw new PaginationLoopError(next);

      const items = res.data as T[];
      state.pageLeft = limit === undefined ? items.length : Math.min(items.length, limit - state.items);
      for (let i = 0; i < items.length; i++) {
        if (enough()) {
          // The server sent more than asked: the rest of this page has no cursor of its own.
          state.nextCursor = undefined;
          return;
        }
        state.items += 1;
        state.pageLeft -= 1;
        yield items[i] as T;
      }
      if (next === undefined) {
        state.nextCursor = undefined;
        checkLastPage(res, !enough());
        return;
      }
      emptyPages = items.length === 0 ? emptyPages + 1 : 0;
      checkEmptyPages(emptyPages, res);
      if (enough()) {
        state.nextCursor = next;
        return;
      }
      seen.add(next);
      cursor = next;
    }
  }

  return {
    state,
    [Symbol.asyncIterator]: () => run(),
  };
}
