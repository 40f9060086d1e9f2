/**
 * The HTTP core: `createClient()` returns a client whose `request()` is one request
 * function wrapped from outside, as octokit wraps its `request`:
 *
 *   withEtagCache(withRetry(withPacing(sendOnce)), store)
 *
 * `sendOnce` is the transport (`transport.ts`: undici, timeouts, network errors) and the
 * decoding (`decode.ts`: status, JSON, envelope -> data or typed errors). Pagination
 * iterates over `request()` (`paginate.ts`).
 *
 * The key never leaves through events or errors: event headers are redacted, and any
 * server text that echoes the key is scrubbed before it becomes an error message.
 */
import { UsageError } from "../core/errors.js";
import { cacheKey } from "./cache.js";
import { realClock } from "./clock.js";
import { decode, type Received, requestIdOf } from "./decode.js";
import { type CacheableAttempt, withEtagCache } from "./etag.js";
import { keyMasked } from "../core/key-display.js";
import { redactKey } from "./key.js";
import { paginate } from "./paginate.js";
import { createPacer, type Pacer, type Send, withPacing, withRetry } from "./retry.js";
import { createTransport, ENCODINGS, header, seconds } from "./transport.js";
import type { ApiResponse, Client, ClientEvent, ClientOptions, RequestOptions } from "./client-types.js";
import { assertKeyNotInUrl, assertKeySafe, assertKeyUsable, buildUrl, mayCarryKey, parseBaseUrl } from "./url.js";

/** Defaults for a caller that gives none; the command line passes its own timeout, retries and size limit. */
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_RETRIES = 3;
/** Connections to the API at once; `pep mcp` runs as many calls at once and queues the rest (mcp/queue.ts). */
export const DEFAULT_CONNECTIONS = 4;
/** The largest page the API sends is a few MiB; 32 leaves a wide margin. */
const DEFAULT_MAX_RESPONSE_MB = 32;

/** `pepcli/<version>`; the version is put in at build time (esbuild, vitest). */
function defaultUserAgent(): string {
  const version = typeof __PEP_VERSION__ === "string" ? __PEP_VERSION__ : "0.0.0-dev";
  return `pepcli/${version}`;
}

/** The options checked and filled in with their defaults; throws UsageError on a bad one. */
function settingsOf(options: ClientOptions) {
  const base = parseBaseUrl(options.baseUrl);
  const apiKey = options.apiKey?.trim() || undefined;
  assertKeyUsable(apiKey);
  assertKeySafe(base, apiKey);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? DEFAULT_RETRIES;
  if (!(timeoutMs > 0)) throw new UsageError(`the timeout must be above 0 seconds, got ${seconds(timeoutMs)}`);
  if (!Number.isInteger(retries) || retries < 0)
    throw new UsageError(`retries must be a whole number of 0 or more, got ${retries}`);
  const maxBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_MB * 1024 * 1024;
  if (!(maxBytes > 0)) throw new UsageError(`the response size limit must be above 0, got ${maxBytes} bytes`);
  return {
    base,
    baseUrl: base.href.replace(/\/+$/, ""),
    apiKey,
    authHeader: options.authHeader ?? "bearer",
    timeoutMs,
    retries,
    maxBytes,
    clock: options.clock ?? realClock,
    userAgent: options.userAgent ?? defaultUserAgent(),
  };
}

type Settings = ReturnType<typeof settingsOf>;

/** Request headers as events show them: the key replaced by its fingerprint. */
function headerRedactor(apiKey: string | undefined) {
  return (headers: Record<string, string>): Record<string, string> => {
    const out: Record<string, string> = { ...headers };
    if (apiKey) {
      if (out.Authorization !== undefined) out.Authorization = `Bearer ${keyMasked(apiKey)}`;
      if (out["X-API-Key"] !== undefined) out["X-API-Key"] = keyMasked(apiKey);
    }
    return out;
  };
}

/** The one request: transport, then decoding. No retry, no pacing, no cache. */
function sendOnceWith(
  settings: Settings,
  transport: ReturnType<typeof createTransport>,
  emit: (e: ClientEvent) => void,
): Send<CacheableAttempt, Received> {
  const { apiKey, clock } = settings;
  /** Replaces the key, or any 8 characters of it, wherever server text echoes it back. */
  const scrub = (text: string): string => redactKey(text, apiKey);
  const redactHeaders = headerRedactor(apiKey);
  let echoTold = false;
  return async (req) => {
    const conditional = req.headers["If-None-Match"] !== undefined;
    emit({ type: "request", method: "GET", url: req.url, attempt: req.attempt, headers: redactHeaders(req.headers) });
    const wire = await transport.send(new URL(req.url), req.headers, req.signal);
    emit({
      type: "response",
      url: req.url,
      status: wire.status,
      ms: wire.ms,
      requestId: requestIdOf(wire.headers, scrub),
      etag: wire.status < 300 || wire.status === 304 ? header(wire.headers, "etag") : undefined,
      fromCache: wire.status === 304 && conditional,
      bytes: wire.wireBytes,
    });
    const res = decode(wire, { now: clock.now(), conditional, apiKey, scrub });
    if (res.echoesKey && !echoTold) {
      echoTold = true;
      emit({ type: "key-echo", url: req.url });
    }
    return res;
  };
}

/** What every request sends: JSON wanted, who asks, compression, and the key where it may go. */
function headersFor(
  settings: Settings,
  url: URL,
  compress: boolean,
): { headers: Record<string, string>; withKey: boolean } {
  const { apiKey } = settings;
  const withKey = apiKey !== undefined && mayCarryKey(url, settings.base);
  const headers: Record<string, string> = { Accept: "application/json", "User-Agent": settings.userAgent };
  if (compress) headers["Accept-Encoding"] = ENCODINGS;
  if (withKey) {
    if (settings.authHeader === "x-api-key") headers["X-API-Key"] = apiKey;
    else headers.Authorization = `Bearer ${apiKey}`;
  }
  return { headers, withKey };
}

export function createClient(options: ClientOptions): Client {
  const settings = settingsOf(options);
  const { base, apiKey, clock, retries } = settings;
  const store = options.cache || undefined;
  const onEvent = options.onEvent;
  const emit = (e: ClientEvent) => onEvent?.(e);

  const transport = createTransport({
    timeoutMs: settings.timeoutMs,
    connections: options.connections ?? DEFAULT_CONNECTIONS,
    now: () => clock.now(),
    scrub: (text) => redactKey(text, apiKey),
    maxBytes: settings.maxBytes,
    proxy: options.proxy,
    timers: options.timers,
  });
  const sendOnce = sendOnceWith(settings, transport, emit);
  // One pacer per rate-limit scope the caller names (one for all when it names none).
  const pacers = new Map<string, Pacer>();
  const pacerFor = (url: string): Pacer => {
    const scope = options.rateScopeOf?.(url) ?? "";
    let pacer = pacers.get(scope);
    if (!pacer) {
      pacer = createPacer(clock, onEvent);
      pacers.set(scope, pacer);
    }
    return pacer;
  };
  const retried = withRetry(withPacing(sendOnce, pacerFor), { retries, clock, onEvent });
  const send = store ? withEtagCache(retried, store) : retried;

  let closing: Promise<void> | undefined;

  const client: Client = {
    baseUrl: settings.baseUrl,
    async request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
      const url = buildUrl(base, path, opts.query);
      assertKeyNotInUrl(url, apiKey);
      const { headers, withKey } = headersFor(settings, url, options.compress !== false);
      const own = opts.ifNoneMatch;
      if (own !== undefined) headers["If-None-Match"] = own;
      const key =
        store && !opts.noCache && own === undefined
          ? cacheKey(url.origin, url.pathname + url.search, withKey ? apiKey : undefined)
          : undefined;
      const { echoesKey: _echoesKey, ...res } = await send({
        url: url.href,
        signal: opts.signal,
        attempt: 1,
        headers,
        cacheKey: key,
      });
      return res as ApiResponse<T>;
    },
    paginate(path, opts) {
      return paginate(client.request, path, opts);
    },
    close() {
      closing ??= transport.close();
      return closing;
    },
  };
  return client;
}
