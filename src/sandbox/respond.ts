/**
 * Writing responses: the success envelope with a strong ETag computed over everything
 * but per-request values (so the same content always has the same ETag), 304 on a
 * matching `If-None-Match`, and the error envelope. Bodies are compressed when the
 * client asks (br, then gzip, then deflate), and sent at a capped rate when the sandbox
 * simulates a slow link (`--bandwidth`).
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliCompressSync, constants as zlib, deflateSync, gzipSync } from "node:zlib";
import { AFFILIATE_DISCLOSURE, type HandlerResult } from "./request-context.js";
import { DATA_NOW_ISO } from "./data/data-now.js";

const JSON_TYPE = "application/json; charset=utf-8";

/** True when an `If-None-Match` list names this ETag (weak comparison, as for GET) or is `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || strip(t) === etag);
}

/** Bodies smaller than this go out as they are: compressing them saves nothing. */
const COMPRESS_MIN = 1024;

/** The coding to answer with, from an `Accept-Encoding` (q=0 refuses one). */
export function pickEncoding(accept: string | undefined): "br" | "gzip" | "deflate" | undefined {
  if (!accept) return undefined;
  const offered = new Map<string, number>();
  for (const part of accept.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)).find(Boolean);
    offered.set(name!.trim(), q ? Number(q[1]) : 1);
  }
  return (["br", "gzip", "deflate"] as const).find((e) => (offered.get(e) ?? 0) > 0);
}

/**
 * Writes a body: compressed when asked, and at `bytesPerSecond` when above 0 (in
 * slices every 50 ms), so benchmarks see what a slow link does to big answers.
 */
export function writeBody(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  text: string,
  bytesPerSecond = 0,
): void {
  let body = Buffer.from(text);
  const out: Record<string, string> = { ...headers, Vary: "Accept-Encoding" };
  const encoding = body.length >= COMPRESS_MIN ? pickEncoding(req.headers["accept-encoding"]) : undefined;
  if (encoding === "br")
    body = brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  else if (encoding === "gzip") body = gzipSync(body);
  else if (encoding === "deflate") body = deflateSync(body);
  if (encoding) out["Content-Encoding"] = encoding;
  out["Content-Length"] = String(body.length);
  res.writeHead(status, out);
  if (!(bytesPerSecond > 0) || req.method === "HEAD") {
    res.end(body);
    return;
  }
  const slice = Math.max(1, Math.floor(bytesPerSecond / 20));
  let at = 0;
  const next = () => {
    if (res.destroyed) return;
    const part = body.subarray(at, at + slice);
    at += part.length;
    if (at >= body.length) res.end(part);
    else {
      res.write(part);
      setTimeout(next, 50).unref();
    }
  };
  next();
}

export function sendSuccess(
  req: IncomingMessage,
  res: ServerResponse,
  result: HandlerResult,
  requestId: string,
  headers: Record<string, string>,
  bytesPerSecond = 0,
): void {
  const stableMeta: Record<string, unknown> = { sandbox: true, api_version: "v1", data_as_of: DATA_NOW_ISO };
  if (result.affiliate) stableMeta.affiliate_disclosure = AFFILIATE_DISCLOSURE;
  const dataJson = JSON.stringify(result.data);
  const pagJson = result.pagination ? JSON.stringify(result.pagination) : "";
  const etag = `"${createHash("sha256").update(dataJson).update("\n").update(pagJson).update("\n").update(JSON.stringify(stableMeta)).digest("base64url").slice(0, 32)}"`;
  const common = { ...headers, ETag: etag };
  if (etagMatches(req.headers["if-none-match"], etag)) {
    res.writeHead(304, common);
    res.end();
    return;
  }
  const meta = JSON.stringify({ request_id: requestId, ...stableMeta });
  const body = `{"data":${dataJson}${pagJson ? `,"pagination":${pagJson}` : ""},"meta":${meta}}`;
  writeBody(req, res, 200, { ...common, "Content-Type": JSON_TYPE }, body, bytesPerSecond);
}

export function sendError(
  res: ServerResponse,
  status: number,
  code: string,
  message: string,
  requestId: string,
  headers: Record<string, string>,
): void {
  const body = JSON.stringify({ error: { code, message, request_id: requestId } });
  res.writeHead(status, {
    ...headers,
    "Content-Type": JSON_TYPE,
    "Content-Length": String(Buffer.byteLength(body)),
    "Cache-Control": "no-store",
  });
  res.end(body);
}
