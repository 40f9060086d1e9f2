/**
 * The library entry: `import { createClient } from "pepcli"`.
 *
 * ```ts
 * const client = createClient({ baseUrl: "https://api.example.org/v1", apiKey: process.env.PEP_API_KEY });
 * for await (const study of client.paginate("/studies", { query: { peptide: "x" }, limit: 500 })) handle(study);
 * await client.close();
 * ```
 */
export { createClient } from "./http/client.js";
export { createFileCache, cacheKey } from "./http/cache.js";
export type {
  ApiResponse,
  CacheStore,
  Client,
  ClientEvent,
  ClientOptions,
  Clock,
  Meta,
  PageState,
  Paginator,
  PaginateOptions,
  Pagination,
  Query,
  RateLimitInfo,
  RequestOptions,
  Timers,
} from "./http/client-types.js";
export {
  ApiError,
  AuthError,
  ConfigError,
  EXIT,
  InterruptedError,
  NetworkError,
  PaginationLoopError,
  PepError,
  ResponseError,
  UsageError,
  exitCodeFor,
} from "./core/errors.js";
export { ENDPOINTS, expandPath, type Endpoint, type EndpointName } from "./api/endpoints.js";
export { checkQuery } from "./api/query-schemas.js";
export * from "./api/enums.js";
