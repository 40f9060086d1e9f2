/**
 * What `pep api <path>` asks for: the path (relative to the base, or a full URL) and its
 * query, gathered from the path's own `?…` and the `-F key=value` pairs. A key in the
 * URL is refused before anything is sent.
 */
import { ENDPOINTS, type Endpoint } from "../../api/endpoints.js";
import { UsageError } from "../../core/errors.js";
import type { Query } from "../../http/client-types.js";
import { isKeyParam, KEY_IN_URL_HINT } from "../../core/key-in-url.js";
import { keyInUrlError, splitPair } from "../../api/pairs.js";
import { hideUrlCredentials } from "../../core/credentials.js";

export interface Target {
  /** A full URL (`https://…`, without its query) or a path relative to the base (`/peptides`). */
  path: string;
  absolute: boolean;
  query: Record<string, string | string[]>;
}

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The query is a null-prototype map: a parameter named `constructor`, `toString` or
 * `__proto__` is sent as given, never read from (or written into) Object.prototype.
 */
const emptyQuery = <T>(): Record<string, T> => Object.create(null) as Record<string, T>;

function add(query: Target["query"], name: string, value: string): void {
  const prev = Object.hasOwn(query, name) ? query[name] : undefined;
  query[name] = prev === undefined ? value : Array.isArray(prev) ? [...prev, value] : [prev, value];
}

/**
 * Parses the argument and the `-F` pairs. Names given more than once are sent once,
 * their values comma-separated (the API's way of listing values, as in `types=a,b`).
 */
export function parseTarget(raw: string | undefined, fields: unknown): Target {
  const text = (raw ?? "").trim();
  if (text === "") throw new UsageError("<path> must not be empty, e.g. `pep api peptides` or `pep api /studies`");
  const absolute = ABSOLUTE.test(text);
  const query: Target["query"] = emptyQuery();
  let path: string;
  if (absolute) {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      const masked = hideUrlCredentials(text);
      throw new UsageError(`<path> is not a valid URL: ${masked}`, masked === text ? {} : { hints: [KEY_IN_URL_HINT] });
    }
    if (url.protocol !== "http:" && url.protocol !== "https:")
      throw new UsageError(`only http and https URLs can be requested, not ${url.protocol.replace(/:$/, "")}`);
    if (url.username || url.password) throw keyInUrlError("a user name or password in the URL");
    for (const [k, v] of url.searchParams) {
      if (isKeyParam(k)) throw keyInUrlError(`the URL's ${k}=…`);
      add(query, k, v);
    }
    url.search = "";
    url.hash = "";
    path = url.href;
  } else {
    const noHash = text.split("#")[0]!;
    const q = noHash.indexOf("?");
    path = q === -1 ? noHash : noHash.slice(0, q);
    if (q !== -1) {
      for (const [k, v] of new URLSearchParams(noHash.slice(q + 1))) {
        if (isKeyParam(k)) throw keyInUrlError(`the path's ${k}=…`);
        add(query, k, v);
      }
    }
  }
  const list = fields === undefined ? [] : Array.isArray(fields) ? fields.map(String) : [String(fields)];
  for (const f of list) {
    const [k, v] = splitPair(f, "-F");
    add(query, k, v);
  }
  return { path, absolute, query };
}

/**
 * `peptides`, `/peptides` and `/v1/peptides` all mean `<base>/peptides` (the base keeps
 * its `/v1`; a copied path that repeats it is not doubled).
 */
export function relativePath(path: string, baseUrl: string): string {
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, "");
  let p = `/${path.replace(/^\/+/, "")}`;
  if (basePath && (p === basePath || p.startsWith(`${basePath}/`))) p = p.slice(basePath.length) || "/";
  return p;
}

/** The endpoint of the table a relative path matches (for the key check and scope hint). */
export function endpointOf(path: string): Endpoint | undefined {
  const clean = path.replace(/\/+$/, "") || "/";
  for (const e of Object.values(ENDPOINTS) as Endpoint[]) {
    const re = new RegExp(`^${e.path.replace(/\{\w+\}/g, "[^/]+")}$`);
    if (re.test(clean)) return e;
  }
  return undefined;
}

/** The query as the client takes it (repeated names joined). */
export function asQuery(query: Target["query"]): Query {
  const out: Query = emptyQuery();
  for (const [k, v] of Object.entries(query)) out[k] = Array.isArray(v) ? v.join(",") : v;
  return out;
}
