/**
 * The synthetic-data notice (docs/cli.md#the-sandbox): printed once a run, as soon as an answer
 * says `meta.sandbox: true`, whoever started the sandbox (`--sandbox` in this process, or
 * `pep sandbox` elsewhere behind PEP_BASE_URL). Errors carry no `meta`, so an answer with
 * no data prints none.
 */
import type { paginate as paginatePages } from "../http/paginate.js";
import type { ApiResponse, Client, RequestOptions } from "../http/client-types.js";

export const SANDBOX_NOTICE = "sandbox data, synthetic: not real research ({url})";

/**
 * `client`, calling `seen(baseUrl)` on every answer marked as sandbox data, pages
 * included, and `onMeta` with every answer's `meta` when given (a manifest's API version).
 */
export function watchForSandbox(
  client: Client,
  paginate: typeof paginatePages,
  seen: (baseUrl: string) => void,
  onMeta?: (meta: ApiResponse["meta"]) => void,
): Client {
  const watched: Client = {
    baseUrl: client.baseUrl,
    async request<T = unknown>(path: string, options?: RequestOptions): Promise<ApiResponse<T>> {
      const res = await client.request<T>(path, options);
      if (res.meta?.sandbox === true) seen(client.baseUrl);
      onMeta?.(res.meta);
      return res;
    },
    paginate: (path, options) => paginate(watched.request, path, options),
    close: () => client.close(),
  };
  return watched;
}
