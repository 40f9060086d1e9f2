/**
 * URL building and the origin rules for the key (docs/cli.md#network-behaviour): where a
 * request goes, how its query is written, and whether it may carry the key.
 */
import { hideUrlCredentials as maskUrl } from "../core/credentials.js";
import { UsageError } from "../core/errors.js";
import { isKeyParam, KEY_IN_URL_HINT } from "../core/key-in-url.js";
import type { Query } from "./client-types.js";

const ABSOLUTE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** Parses and checks the API base: http(s) only, no query or fragment. */
export function parseBaseUrl(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UsageError(`the base URL is not a valid URL: ${maskUrl(baseUrl)}`, {
      hints: ["give a full URL such as https://api.example.com/v1 with --base-url or PEP_BASE_URL"],
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(
      `the base URL must use http or https, not ${url.protocol.replace(/:$/, "")}: ${maskUrl(baseUrl)}`,
    );
  }
  if (url.username || url.password)
    throw new UsageError("the base URL must not hold a user name or password", { hints: [KEY_IN_URL_HINT] });
  if (url.search || url.hash) {
    const keyLike = [...url.searchParams.keys()].some(isKeyParam);
    throw new UsageError(`the base URL must not carry a query or fragment: ${maskUrl(baseUrl)}`, {
      hints: keyLike ? [KEY_IN_URL_HINT] : [],
    });
  }
  return url;
}

/**
 * Joins the base and a path keeping the base's own path (`/v1`): `new URL("/x", base)`
 * would drop it. A full URL is taken as is (for `pep api https://...`). A query written
 * in the path is kept.
 */
export function joinUrl(base: URL | string, path: string): URL {
  if (ABSOLUTE.test(path)) {
    let url: URL;
    try {
      url = new URL(path);
    } catch {
      throw new UsageError(`not a valid URL: ${maskUrl(path)}`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") {
      throw new UsageError(`only http and https URLs can be requested, not ${url.protocol.replace(/:$/, "")}`);
    }
    return url;
  }
  const b = typeof base === "string" ? new URL(base) : base;
  const basePath = b.pathname.replace(/\/+$/, "");
  const rel = path.replace(/^\/+/, "");
  return new URL(`${b.origin}${basePath}/${rel}`);
}

/** One query value as the API reads it; `undefined` when it is to be left out. */
export function queryValue(value: Query[string]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value.length === 0 ? undefined : value.map(String).join(",");
  return String(value);
}

/**
 * Sets the query on a URL with URLSearchParams semantics, so an opaque cursor with
 * `+`, `/` or `=` reaches the server byte for byte. Values given here replace the same
 * names written in the path; `undefined`/`null` and empty arrays are dropped.
 */
export function applyQuery(url: URL, query: Query | undefined): URL {
  if (!query) return url;
  const entries = Object.entries(query)
    .map(([k, v]) => [k, queryValue(v)] as const)
    .filter((e): e is readonly [string, string] => e[1] !== undefined);
  if (entries.length === 0) return url;
  for (const [k, v] of entries) url.searchParams.set(k, v);
  return url;
}

/** Base + path + query in one step. */
export function buildUrl(base: URL | string, path: string, query?: Query): URL {
  return applyQuery(joinUrl(base, path), query);
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped), `localhost` and names under it. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  if (h === "localhost" || h.endsWith(".localhost")) return true;
  if (h === "::1" || h === "0:0:0:0:0:0:0:1") return true;
  if (/^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)) return true;
  const mapped = /^::ffff:(?:127\.\d{1,3}\.\d{1,3}\.\d{1,3}|7f[0-9a-f]{2}:[0-9a-f]{1,4})$/.exec(h);
  return mapped !== null;
}

/** Plain http is fine only to this machine; anything else must be https. */
export function isSecureEnough(url: URL): boolean {
  return url.protocol === "https:" || (url.protocol === "http:" && isLoopbackHost(url.hostname));
}

/** The key goes only to the configured origin, and only over https or to loopback. */
export function mayCarryKey(url: URL, base: URL): boolean {
  return url.origin === base.origin && isSecureEnough(url);
}

/**
 * Refuses a key that cannot travel in an HTTP header (anything but printable ASCII):
 * undici would fail the request as a network error, or send it mangled.
 */
export function assertKeyUsable(apiKey: string | undefined): void {
  if (apiKey && !/^[\x21-\x7e]+$/.test(apiKey)) {
    throw new UsageError(
      "the API key holds a space, line break, control or non-ASCII character, which an HTTP header cannot carry; check the key file or PEP_API_KEY",
    );
  }
}

/**
 * Refuses a URL that holds the key itself, under any name (`?q=<key>`, a path segment):
 * it would stay in logs and proxies. Keys shorter than 8 characters are not looked for,
 * as they could match ordinary text.
 */
export function assertKeyNotInUrl(url: URL, apiKey: string | undefined): void {
  if (!apiKey || apiKey.length < 8) return;
  let decoded = url.href;
  try {
    decoded = decodeURIComponent(url.href.replace(/\+/g, " "));
  } catch {
    // keep the raw form
  }
  if (url.href.includes(apiKey) || decoded.includes(apiKey)) {
    throw new UsageError(
      "the URL holds the API key itself, where it would stay in logs and proxies; nothing was sent",
      { hints: [KEY_IN_URL_HINT] },
    );
  }
}

/**
 * Refuses, before any request, a key configured with a plain-http base on another
 * machine: sending it would expose it on the wire, and silently dropping it would
 * turn every keyed call into a puzzling 401.
 */
export function assertKeySafe(base: URL, apiKey: string | undefined): void {
  if (apiKey && !isSecureEnough(base)) {
    throw new UsageError(`the API key is not sent over plain http to ${base.host}; use an https base URL`, {
      hints: [`set --base-url https://${base.host}${base.pathname.replace(/\/+$/, "")}`],
    });
  }
}
