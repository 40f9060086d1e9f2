/**
 * Writing responses: the success envelope with a strong ETag computed over everything
 * but per-request values (so the same content always has the same ETag), 304 on a
 * matching `If-None-Match`, and the error envelope.
 */
import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { AFFILIATE_DISCLOSURE, type HandlerResult } from "./request-context.js";
import { DATA_NOW_ISO } from "./data/clock.js";

const JSON_TYPE = "application/json; charset=utf-8";

/** True when an `If-None-Match` list names this ETag (weak comparison, as for GET) or is `*`. */
export function etagMatches(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const strip = (t: string) => t.trim().replace(/^W\//, "");
  return header.split(",").some((t) => t.trim() === "*" || strip(t) === etag);
}

export function sendSuccess(req: IncomingMessage, res: ServerResponse, result: HandlerResult, requestId: string, headers: Record<string, string>): void {
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
  res.writeHead(200, { ...common, "Content-Type": JSON_TYPE, "Content-Length": String(Buffer.byteLength(body)) });
  res.end(body);
}

export function sendError(res: ServerResponse, status: number, code: string, message: string, requestId: string, headers: Record<string, string>): void {
  const body = JSON.stringify({ error: { code, message, request_id: requestId } });
  res.writeHead(status, { ...headers, "Content-Type": JSON_TYPE, "Content-Length": String(Buffer.byteLength(body)), "Cache-Control": "no-store" });
  res.end(body);
}
