/**
 * A small HTTP server on 127.0.0.1 (port 0) for tests that cross HTTP: handlers per
 * route or one for all, every request recorded with its raw URL and headers, and
 * helpers for the bad days (reset connection, truncated body, slow answers).
 *
 *   const srv = await startServer({ "/v1/peptides": (req, res) => sendJson(res, 200, envelope([])) });
 *   // srv.url = "http://127.0.0.1:<port>", srv.requests[0].headers.authorization, ...
 *   await srv.close();
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";

export interface RecordedRequest {
  /** 0 for the first request the server received. */
  index: number;
  method: string;
  /** Path and query exactly as received, byte for byte. */
  url: string;
  /** The path without the query. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
}

export type Handler = (req: RecordedRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>;

/** Handlers by path (without query); `"*"` catches the rest. Unmatched paths get a 404 envelope. */
export type Routes = Record<string, Handler>;

export interface TestServer {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  url: string;
  port: number;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

export async function startServer(routes: Handler | Routes): Promise<TestServer> {
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((raw, res) => {
    const rawUrl = raw.url ?? "/";
    const q = rawUrl.indexOf("?");
    const rec: RecordedRequest = {
      index: requests.length,
      method: raw.method ?? "GET",
      url: rawUrl,
      path: q === -1 ? rawUrl : rawUrl.slice(0, q),
      query: new URLSearchParams(q === -1 ? "" : rawUrl.slice(q + 1)),
      headers: { ...raw.headers },
    };
    requests.push(rec);
    const handler =
      typeof routes === "function"
        ? routes
        : (routes[rec.path] ??
          routes["*"] ??
          ((_r, s) => sendJson(s, 404, errorBody("not_found", `no route ${rec.path}`))));
    Promise.resolve()
      .then(() => handler(rec, res, raw))
      .catch((err: unknown) => {
        if (!res.headersSent) sendJson(res, 500, errorBody("test_server_error", String(err)));
        else res.destroy();
      });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on (a server opened and closed), for "connection refused". */
export async function unusedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((resolve) => s.close(() => resolve()));
  return port;
}

/** The API's success envelope. */
export function envelope(data: unknown, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { data, meta: {}, ...extra };
}

/** The API's error envelope. */
export function errorBody(code: string, message: string, requestId = "req_test"): { error: Record<string, string> } {
  return { error: { code, message, request_id: requestId } };
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | number> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType = "text/plain",
  headers: Record<string, string | number> = {},
): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Drops the connection without an answer (TCP reset). */
export function resetConnection(res: ServerResponse): void {
  const socket = res.socket as (Socket & { resetAndDestroy?: () => void }) | null;
  if (socket?.resetAndDestroy) socket.resetAndDestroy();
  else socket?.destroy();
}

/** Announces the whole body's length, sends only the first `keep` bytes, then hangs up. */
export function sendTruncated(
  res: ServerResponse,
  status: number,
  text: string,
  keep: number,
  contentType = "application/json",
): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.write(text.slice(0, keep), () => res.socket?.destroy());
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The n-th call runs the n-th handler; the last one repeats. */
export function sequence(...handlers: Handler[]): Handler {
  let n = 0;
  return (req, res, raw) => {
    const h = handlers[Math.min(n++, handlers.length - 1)]!;
    return h(req, res, raw);
  };
}
