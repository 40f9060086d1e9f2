/**
 * Which rate limit a request counts against (docs/api.md#rate-limits): the API meters
 * vendor, product and price requests per account against the plan, and limits research,
 * study and meta requests apart (anonymous ones per address; keyed ones are not metered).
 * So a spent window of one scope does not hold requests of the other.
 */
import { ENDPOINTS } from "./endpoints.js";

export type RateScope = "metered" | "research";

/** The first path segment of each metered endpoint (`vendors`, `products`, `prices`). */
let meteredRoots: ReadonlySet<string> | undefined;

/** The scope of a request to `path` (below the base URL, such as `/vendors/acme`). */
export function rateScopeOfPath(path: string): RateScope {
  meteredRoots ??= new Set(
    Object.values(ENDPOINTS)
      .filter((e) => e.metered)
      .map((e) => e.path.split("/")[1]!),
  );
  const root = path.replace(/^\/+/, "").split(/[/?#]/)[0] ?? "";
  return meteredRoots.has(root) ? "metered" : "research";
}

/** The scope of a request to `url` under the API base `baseUrl` (its path after the base). */
export function rateScopeOf(baseUrl: string, url: string): RateScope {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  const path = new URL(url).pathname;
  return rateScopeOfPath(path.startsWith(basePath) ? path.slice(basePath.length) : path);
}
