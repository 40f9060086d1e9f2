/**
 * Opaque cursors: base64url of `{o: offset, f: query fingerprint}` plus a keyed hash
 * with a per-seed secret. A cursor that was altered, comes from another sandbox seed or
 * endpoint, or is replayed with different filters is refused with 400 `invalid_cursor`.
 * Only URL-safe characters are used, so cursors survive any URL encoding.
 */
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import { SandboxError } from "./sandbox-error.js";

export interface CursorCodec {
  encode(offset: number, fingerprint: string): string;
  /** The offset the cursor points at; throws `invalid_cursor` when it is not ours. */
  decode(cursor: string, fingerprint: string): number;
}

/** Query parameters that do not change which items a listing holds or their order. */
const NOT_FILTERS = new Set(["cursor", "limit", "fields"]);

/** A short, stable digest of what a listing is: endpoint, path parameters and filters. */
export function fingerprint(endpoint: string, params: Record<string, string>, query: Record<string, unknown>): string {
  const filters = Object.keys(query)
    .filter((k) => !NOT_FILTERS.has(k) && query[k] !== undefined)
    .sort()
    .map((k) => [k, String(query[k])]);
  const pathParams = Object.keys(params)
    .sort()
    .map((k) => [k, (params[k] ?? "").toLowerCase()]);
  return createHash("sha256")
    .update(JSON.stringify([endpoint, pathParams, filters]))
    .digest("base64url")
    .slice(0, 16);
}

const invalid = () =>
  new SandboxError(
    400,
    "invalid_cursor",
    "cursor is not valid for this request; start again without a cursor or reuse the filters it came with",
  );

export function createCursorCodec(seed: number): CursorCodec {
  const secret = createHash("sha256").update(`pep-sandbox-cursor:${seed}`).digest();
  const sign = (payload: string) => createHmac("sha256", secret).update(payload).digest("base64url").slice(0, 22);
  return {
    encode(offset, fp) {
      const payload = Buffer.from(JSON.stringify({ o: offset, f: fp })).toString("base64url");
      return `${payload}.${sign(payload)}`;
    },
    decode(cursor, fp) {
      const dot = cursor.indexOf(".");
      if (dot <= 0) throw invalid();
      const payload = cursor.slice(0, dot);
      const given = Buffer.from(cursor.slice(dot + 1));
      const expected = Buffer.from(sign(payload));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
      let parsed: unknown;
      try {
        parsed = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
      } catch {
        throw invalid();
      }
      const { o, f } = (parsed ?? {}) as { o?: unknown; f?: unknown };
      if (typeof o !== "number" || !Number.isInteger(o) || o < 0 || f !== fp) throw invalid();
      return o;
    },
  };
}
