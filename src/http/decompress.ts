/**
 * The codings pep reads in an answer's `Content-Encoding` (it asks for them, transport.ts
 * ENCODINGS), and a whole body decoded.
 */
import { builtin } from "../core/builtin.js";

export type Coding = "gzip" | "br" | "deflate";

/** The coding of a `Content-Encoding` pep reads, none, or a reason it cannot be read. */
export function codingOf(encoding: string): Coding | undefined | { unreadable: string } {
  const e = encoding.trim().toLowerCase();
  if (e === "" || e === "identity") return undefined;
  if (e === "gzip" || e === "x-gzip") return "gzip";
  if (e === "br" || e === "deflate") return e;
  return { unreadable: e.slice(0, 40).replace(/[^\w.-]/g, "?") };
}

/**
 * A whole compressed body decompressed in one call, at most `maxBytes` of it (past that a
 * RangeError, ERR_BUFFER_TOO_LARGE). One call rather than a stream per answer: its zlib
 * context is freed when it returns, where a stream's lives on the thread pool and in the
 * heap until collected; over the thousands of small answers of a sync, those streams were
 * most of its peak memory. A body cut short gives what of it can be read. node:zlib loads
 * only for an answer that needs it (not a 304, not an uncompressed body).
 */
export function decompress(coding: Coding, input: Buffer, maxBytes: number, cutShort: boolean): Buffer {
  const zlib = builtin<typeof import("node:zlib")>("node:zlib");
  const { constants } = zlib;
  const options = { maxOutputLength: maxBytes };
  if (coding === "br")
    return zlib.brotliDecompressSync(
      input,
      cutShort ? { ...options, finishFlush: constants.BROTLI_OPERATION_FLUSH } : options,
    );
  const whole = cutShort ? { ...options, finishFlush: constants.Z_SYNC_FLUSH } : options;
  return coding === "gzip" ? zlib.gunzipSync(input, whole) : zlib.inflateSync(input, whole);
}
