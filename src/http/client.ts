/**
 * The HTTP core: `createClient()` returns a client whose `request()` does one GET
 * through a keep-alive undici pool, with the auth header, the base URL, the ETag cache
 * and zod parsing of the envelopes. Retry and pacing wrap that one request from outside
 * (`retry.ts`); pagination iterates over it (`paginate.ts`).
 *
 * The key never leaves through events or errors: event headers are redacted, and any
 * server text that echoes the key is scrubbed before it becomes an error message.
 */
import { Agent, request as undiciRequest } from "undici";
import { ApiError, type ApiErrorBody, InterruptedError, NetworkError, ResponseError, UsageError } from "../errors.js";
import { jsonErrorReason } from "../json-reason.js";
import { cacheKey } from "./cache.js";
import { realClock } from "./clock.js";
import { parseError, parseSuccess, type SuccessEnvelope } from "./envelope.js";
import { keyFingerprint } from "./key.js";
import { paginate } from "./paginate.js";
import {
  type Attempt,
  attachRateLimit,
  createPacer,
  markCutShort,
  parseRateLimit,
  parseRetryAfter,
  withPacing,
  withRetry,
} from "./retry.js";
import type { ApiResponse, CacheStore, Client, ClientEvent, ClientOptions, Clock, RequestOptions } from "./types.js";
import { assertKeyNotInUrl, assertKeySafe, assertKeyUsable, buildUrl, mayCarryKey, parseBaseUrl } from "./url.js";

export { cacheKey, createFileCache } from "./cache.js";
export { realClock } from "./clock.js";
export { keyFingerprint } from "./key.js";
export { paginate, pageSizeFor } from "./paginate.js";
export { backoffMs, parseRateLimit, parseRetryAfter } from "./retry.js";
export { buildUrl, isLoopbackHost, joinUrl, mayCarryKey } from "./url.js";

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_RETRIES = 3;
export const DEFAULT_CONNECTIONS = 4;

/** `pepcli/<version>`; the version is put in at build time (esbuild, vitest). */
export function defaultUserAgent(): string {
  const version = typeof __PEP_VERSION__ === "string" ? __PEP_VERSION__ : "0.0.0-dev";
  return `pepcli/${version}`;
}

/** A stored answer, already checked, ready to serve after a 304. */
interface CachedAnswer {
  key: string;
  etag: string;
  body: unknown;
  /** The body's text as stored. */
  text: string;
  envelope: SuccessEnvelope;
}

interface Outgoing extends Attempt {
  headers: Record<string, string>;
  /** Where to store a fresh answer; undefined when the cache is off for this request. */
  cacheKey: string | undefined;
  cached: CachedAnswer | undefined;
}

type Headers = Record<string, string | string[] | undefined>;

function header(headers: Headers, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function errorCodes(err: unknown): string[] {
  const codes: string[] = [];
  for (let e: unknown = err, depth = 0; e && typeof e === "object" && depth < 5; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string") codes.push(code);
    e = (e as { cause?: unknown }).cause;
  }
  return codes;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s}` : s.toFixed(s < 1 ? 2 : 1).replace(/\.?0+$/, "");
}

export function createClient(options: ClientOptions): Client {
  const base = parseBaseUrl(options.baseUrl);
  const baseUrl = base.href.replace(/\/+$/, "");
  const apiKey = options.apiKey?.trim() || undefined;
  assertKeyUsable(apiKey);
  assertKeySafe(base, apiKey);

  const authHeader = options.authHeader ?? "bearer";
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retries = options.retries ?? DEFAULT_RETRIES;
  if (!(timeoutMs > 0)) throw new UsageError(`the timeout must be above 0 seconds, got ${seconds(timeoutMs)}`);
  if (!Number.isInteger(retries) || retries < 0) throw new UsageError(`retries must be a whole number of 0 or more, got ${retries}`);
  const clock: Clock = options.clock ?? realClock;
  const cache: CacheStore | undefined = options.cache || undefined;
  const userAgent = options.userAgent ?? defaultUserAgent();
  const onEvent = options.onEvent;
  const emit = (e: ClientEvent) => onEvent?.(e);

  const agent = new Agent({
    connections: options.connections ?? DEFAULT_CONNECTIONS,
    connect: { timeout: timeoutMs },
  });

  /** Replaces the key wherever server text echoes it back. */
  const scrub = (text: string): string => (apiKey ? text.split(apiKey).join("<redacted>") : text);
  const scrubDeep = (v: unknown): unknown => {
    if (typeof v === "string") return scrub(v);
    if (Array.isArray(v)) return v.map(scrubDeep);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrubDeep(x)]));
    return v;
  };

  const redactHeaders = (headers: Record<string, string>): Record<string, string> => {
    const out: Record<string, string> = { ...headers };
    if (apiKey) {
      if (out.Authorization !== undefined) out.Authorization = `Bearer ${keyFingerprint(apiKey)}`;
      if (out["X-API-Key"] !== undefined) out["X-API-Key"] = keyFingerprint(apiKey);
    }
    return out;
  };

  /** Maps a failure of the transport (not an HTTP status) to a NetworkError. */
  const networkError = (err: unknown, url: URL): NetworkError => {
    const codes = errorCodes(err);
    const has = (...c: string[]) => c.some((x) => codes.includes(x));
    const host = url.host;
    if (has("UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ETIMEDOUT")) {
      return timeoutError(url, err);
    }
    if (has("ECONNREFUSED")) return new NetworkError(`could not connect to ${host}: connection refused`, "refused", { cause: err });
    if (has("ECONNRESET", "EPIPE", "UND_ERR_SOCKET", "ECONNABORTED")) {
      return new NetworkError(`the connection to ${host} was reset`, "reset", { cause: err });
    }
    if (has("ENOTFOUND", "EAI_AGAIN", "EAI_NONAME")) {
      return new NetworkError(`could not resolve host ${url.hostname}`, "other", { cause: err });
    }
    const message = err instanceof Error ? err.message : String(err);
    return new NetworkError(scrub(`request to ${host} failed: ${message}`), "other", { cause: err });
  };

  const timeoutError = (url: URL, cause?: unknown) =>
    new NetworkError(
      `no complete answer from ${url.host} within ${seconds(timeoutMs)} s; allow longer with --timeout <seconds>`,
      "timeout",
      { cause },
    );

  /** Turns a non-2xx answer into an ApiError, whatever its body looks like. */
  const apiError = (status: number, headers: Headers, text: string, bodyCutShort: boolean): ApiError => {
    const contentType = (header(headers, "content-type") ?? "no content type").split(";")[0]!.trim();
    const retryAfter = parseRetryAfter(header(headers, "retry-after"), clock.now());
    const headerRequestId = header(headers, "x-request-id");
    let json: unknown;
    let isJson = false;
    try {
      json = JSON.parse(text);
      isJson = true;
    } catch {
      /* not JSON: described below */
    }
    const envelope = isJson ? parseError(json) : undefined;
    if (envelope) {
      const clean = scrubDeep(envelope) as { error: ApiErrorBody };
      return new ApiError({
        status,
        message: clean.error.message,
        code: clean.error.code,
        requestId: clean.error.request_id ?? headerRequestId,
        envelope: clean,
        retryAfter,
      });
    }
    const location = status >= 300 && status < 400 ? header(headers, "location") : undefined;
    const message = location
      ? scrub(`the server redirects to ${truncate(location)}; pep does not follow redirects, so check the base URL`)
      : bodyCutShort
        ? `the server answered HTTP ${status} and the body was cut short`
        : isJson
          ? `the server answered HTTP ${status} without an error envelope`
          : text.trim() === ""
            ? `the server answered HTTP ${status} with an empty body`
            : `the server answered HTTP ${status} with a non-JSON body (${contentType})`;
    return new ApiError({ status, message, requestId: headerRequestId, retryAfter });
  };

  /** The one request: no retry, no pacing. Throws typed errors only. */
  const sendOnce = async (req: Outgoing): Promise<ApiResponse> => {
    const url = new URL(req.url);
    const signal = req.signal;
    if (signal?.aborted) throw new InterruptedError();
    const headers: Record<string, string> = { ...req.headers };
    if (req.cached) headers["If-None-Match"] = req.cached.etag;
    emit({ type: "request", method: "GET", url: req.url, attempt: req.attempt, headers: redactHeaders(headers) });

    const started = clock.now();
    const controller = new AbortController();
    let timedOut = false;
    // Real time on purpose: the timeout guards a real socket, whatever clock paces retries.
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort(new Error("timeout"));
    }, timeoutMs);
    const onAbort = () => controller.abort(signal?.reason);
    signal?.addEventListener("abort", onAbort, { once: true });
    const failed = (err: unknown): Error => {
      if (signal?.aborted) return new InterruptedError();
      if (timedOut) return timeoutError(url, err);
      return networkError(err, url);
    };

    try {
      let res: Awaited<ReturnType<typeof undiciRequest>>;
      try {
        res = await undiciRequest(url, { dispatcher: agent, method: "GET", headers, signal: controller.signal });
      } catch (err) {
        throw failed(err);
      }
      const status = res.statusCode;
      const resHeaders = res.headers as Headers;
      // Read chunk by chunk, so a body cut short still tells how much of it arrived.
      const chunks: Buffer[] = [];
      let cutShort = false;
      try {
        for await (const chunk of res.body) chunks.push(chunk as Buffer);
      } catch (err) {
        if (signal?.aborted || timedOut) {
          const e = failed(err);
          if (e instanceof NetworkError) e.requestId = header(res.headers as Headers, "x-request-id");
          throw e;
        }
        cutShort = true;
      }
      const buf = Buffer.concat(chunks);
      const bytes = buf.length;
      const now = clock.now();
      const rateLimit = parseRateLimit(
        {
          limit: header(resHeaders, "ratelimit-limit"),
          remaining: header(resHeaders, "ratelimit-remaining"),
          reset: header(resHeaders, "ratelimit-reset"),
        },
        now,
      );
      const requestId = header(resHeaders, "x-request-id");
      const etag = header(resHeaders, "etag");
      const fromCache = status === 304 && req.cached !== undefined;
      emit({ type: "response", url: req.url, status, ms: now - started, requestId, fromCache, bytes });

      if (status === 304) {
        if (!req.cached) {
          throw attachRateLimit(
            new ResponseError("the server answered 304 Not Modified to a request that was not conditional", { status, requestId }),
            rateLimit,
          );
        }
        const { envelope, body, text: cachedText } = req.cached;
        return {
          status,
          data: envelope.data,
          pagination: envelope.pagination,
          meta: envelope.meta,
          body,
          text: cachedText,
          requestId,
          etag: etag ?? req.cached.etag,
          rateLimit,
          fromCache: true,
          bytes: 0,
        };
      }

      const text = buf.toString("utf8");
      if (status < 200 || status > 299) throw attachRateLimit(apiError(status, resHeaders, text, cutShort), rateLimit);

      const declaredHeader = header(resHeaders, "content-length");
      const declared = declaredHeader === undefined ? Number.NaN : Number(declaredHeader);
      if (cutShort || (Number.isFinite(declared) && declared > bytes)) {
        const of = Number.isFinite(declared) && declared > bytes ? ` of ${declared}` : "";
        throw attachRateLimit(
          markCutShort(new ResponseError(`the response body was cut short (${bytes}${of} bytes received)`, { status, requestId })),
          rateLimit,
        );
      }
      if (bytes === 0) {
        throw attachRateLimit(new ResponseError(`the server answered HTTP ${status} with an empty body`, { status, requestId }), rateLimit);
      }
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch (err) {
        const contentType = (header(resHeaders, "content-type") ?? "no content type").split(";")[0]!.trim();
        const reason = jsonErrorReason(err);
        const endedEarly = /JSON/i.test(contentType) && /end of (JSON )?input|Unterminated/i.test(reason);
        const error = endedEarly
          ? markCutShort(new ResponseError(`the response body was cut short (${bytes} bytes received)`, { status, requestId, cause: err }))
          : new ResponseError(scrub(`the response was not valid JSON: ${truncate(reason)} (${contentType})`), {
              status,
              requestId,
              cause: err,
            });
        throw attachRateLimit(error, rateLimit);
      }
      const parsed = parseSuccess(body);
      if (!parsed.ok) {
        throw attachRateLimit(
          new ResponseError(scrub(`the response was not the API's JSON envelope: ${parsed.reason}`), { status, requestId }),
          rateLimit,
        );
      }
      // An answer that echoes the key is not stored: the cache never holds the key.
      const echoesKey = apiKey !== undefined && (text.includes(apiKey) || etag?.includes(apiKey) === true);
      if (cache && req.cacheKey && etag && status === 200 && !echoesKey) {
        await cache.set(req.cacheKey, { etag, body: text }).catch(() => undefined);
      }
      return {
        status,
        data: parsed.value.data,
        pagination: parsed.value.pagination,
        meta: parsed.value.meta,
        body,
        text,
        requestId,
        etag,
        rateLimit,
        fromCache: false,
        bytes,
      };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    }
  };

  const pacer = createPacer(clock, onEvent);
  const send = withRetry(withPacing(sendOnce, pacer), { retries, clock, onEvent });

  /** A stored answer for this key, if it is still a valid envelope. */
  const lookup = async (key: string): Promise<CachedAnswer | undefined> => {
    const entry = await cache!.get(key).catch(() => undefined);
    if (!entry) return undefined;
    try {
      const body: unknown = JSON.parse(entry.body);
      const parsed = parseSuccess(body);
      return parsed.ok ? { key, etag: entry.etag, body, text: entry.body, envelope: parsed.value } : undefined;
    } catch {
      return undefined;
    }
  };

  let closing: Promise<void> | undefined;

  const client: Client = {
    baseUrl,
    async request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<ApiResponse<T>> {
      const url = buildUrl(base, path, opts.query);
      assertKeyNotInUrl(url, apiKey);
      const withKey = apiKey !== undefined && mayCarryKey(url, base);
      const headers: Record<string, string> = { Accept: "application/json", "User-Agent": userAgent };
      if (withKey) {
        if (authHeader === "x-api-key") headers["X-API-Key"] = apiKey;
        else headers.Authorization = `Bearer ${apiKey}`;
      }
      const key = cache && !opts.noCache ? cacheKey(url.origin, url.pathname + url.search, withKey ? apiKey : undefined) : undefined;
      const cached = key ? await lookup(key) : undefined;
      const res = await send({ url: url.href, signal: opts.signal, attempt: 1, headers, cacheKey: key, cached });
      return res as ApiResponse<T>;
    },
    paginate(path, opts) {
      return paginate(client.request, path, opts);
    },
    close() {
      closing ??= agent.close();
      return closing;
    },
  };
  return client;
}

function truncate(s: string, max = 160): string {
  return s.length > max ? `${s.slice(0, max)}…` : s;
}
