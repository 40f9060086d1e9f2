/**
 * A key in a URL (docs/security.md): the query names under which one would travel, and
 * the advice given wherever one is refused. Read by the HTTP layer (a request's URL, the
 * base URL), the options (`--param`, `-F`), the config and the manifest's masking.
 */

/** Names under which an API key would travel in a URL's query. */
const KEY_NAMES = /^(api[_-]?key|apikey|key|token|access[_-]?token|auth[_-]?token|secret)$/i;

export function isKeyParam(name: string): boolean {
  return KEY_NAMES.test(name);
}

/** The advice given wherever a key is refused in a URL. */
export const KEY_IN_URL_HINT =
  "pep sends the key in a header: store it with `pep auth login`, or give --api-key-file <path|-> or PEP_API_KEY.";
