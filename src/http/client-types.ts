/**
 * Types of the HTTP core, shared by the client, its wrappers, the commands and the
 * library entry. No runtime code here.
 */
import type { AuthHeader } from "../api/enums.js";

/** Which proxy each scheme goes through, and the hosts that go direct. */
export interface ProxySettings {
  /** Proxy for http:// URLs. */
  http: string | undefined;
  /** Proxy for https:// URLs. */
  https: string | undefined;
  /** The `NO_PROXY` list as given ("" for none). */
  noProxy: string;
}

export type QueryValue = string | number | boolean | undefined | null | readonly (string | number)[];
export type Query = Record<string, QueryValue>;

/** `RateLimit-*` headers as numbers (reset in seconds from now, already converted from an epoch). */
export interface RateLimitInfo {
  limit?: number | undefined;
  remaining?: number | undefined;
  /** Seconds until the window resets. */
  reset?: number | undefined;
}

export interface Pagination {
  next_cursor: string | null;
  has_more: boolean;
  [key: string]: unknown;
}

export type Meta = Record<string, unknown> & { affiliate_disclosure?: unknown; sandbox?: unknown };

export interface ApiResponse<T = unknown> {
  status: number;
  /** The envelope's `data`. */
  data: T;
  pagination: Pagination | undefined;
  meta: Meta;
  /** The whole parsed body as received (for `pep api`). */
  body: unknown;
  /** The body's text as received, byte for byte (for `pep api`, whose numbers stay as written). */
  text: string;
  requestId: string | undefined;
  etag: string | undefined;
  rateLimit: RateLimitInfo;
  /** Served from the ETag cache after a 304. */
  fromCache: boolean;
  /** Bytes of body received over the wire (0 for a 304). */
  bytes: number;
  /** Answered from the local library (`--offline`): when the walk that answered ended, ISO 8601 UTC. */
  synced?: string;
}

export interface RequestOptions {
  query?: Query;
  signal?: AbortSignal;
  /** Skip the ETag cache for this request. */
  noCache?: boolean;
  /**
   * Ask with this `If-None-Match` instead of the ETag cache's (which is skipped): a 304 then
   * resolves with status 304, no data and `fromCache` true. The library's sync keeps its
   * own ETags per page and per detail.
   */
  ifNoneMatch?: string | undefined;
}

/** Events for `-v` logging and notices. The key never appears in any of them. */
export type ClientEvent =
  | { type: "request"; method: "GET"; url: string; attempt: number; headers: Record<string, string> }
  | {
      type: "response";
      url: string;
      status: number;
      ms: number;
      requestId?: string | undefined;
      /** The answer's `ETag` (a 304's too), for a manifest of what was fetched. */
      etag?: string | undefined;
      fromCache: boolean;
      bytes: number;
    }
  | {
      type: "retry";
      url: string;
      reason: string;
      waitMs: number;
      attempt: number;
      retries: number;
      /** The wait is pep's assumption (a 429 without `Retry-After`: 60 s), not the server's word. */
      assumed?: boolean;
    }
  | { type: "pace"; url: string; waitMs: number }
  /** A successful answer holds the key itself (printed as sent; said once on stderr). */
  | { type: "key-echo"; url: string };

export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Jitter source in [0, 1). */
  random(): number;
}

/**
 * Timers for the transport's per-request timeout. Real time by default: the timeout guards
 * a real socket, whatever clock paces retries. Tests hand in timers they fire themselves,
 * so a timeout needs no real wait.
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface CacheStore {
  get(key: string): Promise<{ etag: string; body: string } | undefined>;
  set(key: string, entry: { etag: string; body: string }): Promise<void>;
}

export interface ClientOptions {
  /** API base, ending in `/v1`. */
  baseUrl: string;
  apiKey?: string | undefined;
  authHeader?: AuthHeader | undefined;
  /** Per request, milliseconds. Default 30000. */
  timeoutMs?: number | undefined;
  /** Retries of 429, 5xx and network errors. Default 3. */
  retries?: number | undefined;
  /** ETag store; omit or `false` for none. */
  cache?: CacheStore | false | undefined;
  userAgent?: string | undefined;
  clock?: Clock | undefined;
  /** Timers of the per-request timeout; the real ones by default. */
  timers?: Timers | undefined;
  onEvent?: ((e: ClientEvent) => void) | undefined;
  /** Connections in the keep-alive pool. Default 4. */
  connections?: number | undefined;
  /** Ask for compressed answers (gzip, br, deflate). Default true. */
  compress?: boolean | undefined;
  /** Most bytes of one answer's body, decompressed. Default 32 MiB. */
  maxResponseBytes?: number | undefined;
  /** Proxies per scheme and the `NO_PROXY` list; omit to connect directly. */
  proxy?: ProxySettings | undefined;
  /**
   * The rate limit a request's URL counts against, when the API keeps several: each has a
   * pacer of its own, so a spent window holds only its own requests. Omit for one window.
   */
  rateScopeOf?: ((url: string) => string) | undefined;
}

export interface PaginateOptions {
  query?: Query;
  /** Most items to yield in all; undefined = until the last page. */
  limit?: number | undefined;
  /** The API's `limit` per request (1..100). */
  pageSize?: number | undefined;
  /** Start cursor. */
  cursor?: string | undefined;
  signal?: AbortSignal;
}

/** State of a running pagination, readable while and after iterating. */
export interface PageState {
  pages: number;
  items: number;
  /** Cursor of the page being fetched now (to resume after a failure). */
  currentCursor: string | undefined;
  /** Items handed out before the page of `currentCursor`. */
  pageStart: number;
  /** The next cursor when the run stopped with more remaining, else undefined. */
  nextCursor: string | undefined;
  /** `meta` of the latest page. */
  meta: Meta | undefined;
  /** Items of the latest page not handed out yet: 0 once its last one is out. */
  pageLeft: number;
  /** The latest page's `synced` (an answer from the local library). */
  synced?: string | undefined;
}

export interface Paginator<T> extends AsyncIterable<T> {
  readonly state: PageState;
}

export interface Client {
  readonly baseUrl: string;
  /** One GET: a path relative to the base (`/peptides`), or a full URL. */
  request<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResponse<T>>;
  /** Items of every page, following `pagination.next_cursor`. */
  paginate<T = unknown>(path: string, options?: PaginateOptions): Paginator<T>;
  /** Closes the connection pool. */
  close(): Promise<void>;
}
