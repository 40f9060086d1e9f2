/**
 * `withEtagCache(send, store)`: the ETag cache as a wrapper around the request function,
 * beside `withRetry` and `withPacing`. A request with a `cacheKey` goes out with the
 * stored answer's `If-None-Match`; a 304 is served from the store, and a fresh 200 with
 * an ETag is stored, unless it echoes the key (the cache never holds the key).
 */
import { parseJsonExact } from "../core/exact-number.js";
import type { Received } from "./decode.js";
import { isSendableEtag } from "./etag-value.js";
import { parseSuccess, type SuccessEnvelope } from "./envelope.js";
import type { Attempt, Send } from "./retry.js";
import type { CacheStore } from "./client-types.js";

export interface CacheableAttempt extends Attempt {
  headers: Record<string, string>;
  /** Where to store a fresh answer; undefined when the cache is off for this request. */
  cacheKey: string | undefined;
}

/** A stored answer, already checked, ready to serve after a 304. */
interface CachedAnswer {
  etag: string;
  body: unknown;
  /** The body's text as stored, byte for byte. */
  text: string;
  envelope: SuccessEnvelope;
}

/** A stored answer for this key, if it is still a valid envelope. */
async function lookup(store: CacheStore, key: string): Promise<CachedAnswer | undefined> {
  const entry = await store.get(key).catch(() => undefined);
  // Any store (the library takes one of the caller's): an ETag that cannot be sent is a miss.
  if (!entry || typeof entry.etag !== "string" || !isSendableEtag(entry.etag)) return undefined;
  try {
    const body: unknown = parseJsonExact(entry.body);
    const parsed = parseSuccess(body);
    return parsed.ok ? { etag: entry.etag, body, text: entry.body, envelope: parsed.value } : undefined;
  } catch {
    return undefined;
  }
}

export function withEtagCache<R extends CacheableAttempt>(
  send: Send<R, Received>,
  store: CacheStore,
): Send<R, Received> {
  return async (req: R) => {
    const key = req.cacheKey;
    if (key === undefined) return send(req);
    const cached = await lookup(store, key);
    const res = await send(cached ? { ...req, headers: { ...req.headers, "If-None-Match": cached.etag } } : req);
    if (res.status === 304 && cached) {
      const { envelope, body, text } = cached;
      return {
        ...res,
        data: envelope.data,
        pagination: envelope.pagination,
        meta: envelope.meta,
        body,
        text,
        etag: res.etag ?? cached.etag,
      };
    }
    if (res.etag && res.status === 200 && !res.echoesKey) {
      await store.set(key, { etag: res.etag, body: res.text }).catch(() => undefined);
    }
    return res;
  };
}
