/**
 * What a handler gets (the data set, the validated query, path parameters, the base URL)
 * and returns (data, optional pagination, and whether the response carries vendor or
 * offer links, which adds the affiliate disclosure to `meta`).
 */
import { LIMITS } from "../api/enums.js";
import { fingerprint, type CursorCodec } from "./cursor.js";
import type { Dataset } from "./data/index.js";
import type { Route } from "./router.js";

export interface HandlerContext {
  data: Dataset;
  route: Route;
  /** The query as parsed (coerced) by the endpoint's zod schema. */
  query: Record<string, unknown>;
  /** The sandbox base URL, ending in `/v1`, for `api_url` links. */
  baseUrl: string;
  cursors: CursorCodec;
}

export interface PaginationBody {
  next_cursor: string | null;
  has_more: boolean;
}

export interface HandlerResult {
  data: unknown;
  pagination?: PaginationBody;
  affiliate?: boolean;
}

export type Handler = (ctx: HandlerContext) => HandlerResult;

/** One page of `items` from the request's `cursor` and `limit`. */
export function paginate<T>(
  ctx: HandlerContext,
  items: readonly T[],
  defaultLimit: number = LIMITS.pageDefault,
): { items: T[]; pagination: PaginationBody } {
  const fp = fingerprint(ctx.route.name, ctx.route.params, ctx.query);
  const cursor = ctx.query.cursor;
  const offset = typeof cursor === "string" ? ctx.cursors.decode(cursor, fp) : 0;
  const limit = typeof ctx.query.limit === "number" ? ctx.query.limit : defaultLimit;
  const slice = items.slice(offset, offset + limit);
  const end = offset + slice.length;
  const hasMore = end < items.length;
  return { items: slice, pagination: { next_cursor: hasMore ? ctx.cursors.encode(end, fp) : null, has_more: hasMore } };
}

/**
 * Keeps the requested `fields` (comma-separated), `id` always first. Without `fields`
 * the item is returned whole.
 */
export function pickFields<T extends Record<string, unknown>>(item: T, fields: unknown): Partial<T> {
  if (typeof fields !== "string") return item;
  const wanted = ["id", ...fields.split(",").map((f) => f.trim())];
  const out: Record<string, unknown> = {};
  // Own names only: `fields=constructor` picks nothing rather than a function off the prototype.
  for (const f of wanted) if (Object.hasOwn(item, f) && !Object.hasOwn(out, f)) out[f] = item[f];
  return out as Partial<T>;
}

/** Site of the canonical pages items link to. */
export const SITE_URL = "https://research.example";

export const AFFILIATE_DISCLOSURE =
  "Links to vendors may be affiliate links: the site may earn a commission. Commissions never affect which vendors or offers are listed or their order.";
