/**
 * `pep mcp --http`: the same server over the SDK's Streamable HTTP transport, for clients
 * that connect to a URL instead of starting a process. One MCP session per client, each
 * with its own server, all sharing the run's API client (retries, pacing, cache).
 *
 * It listens on loopback (127.0.0.1) unless told otherwise. Every request is checked
 * before the protocol sees it:
 * - the path is /mcp;
 * - a browser's Origin must be a loopback origin (a web page elsewhere must not drive a
 *   server on this machine), and on loopback the Host must be a loopback name (DNS
 *   rebinding);
 * - beyond loopback a bearer token is required (PEP_MCP_TOKEN, never a flag: a flag shows
 *   in `ps`), compared in constant time.
 */
import { randomUUID, timingSafeEqual } from "node:crypto";
import * as nodeHttp from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "../core/command-context.js";
import { UsageError } from "../core/errors.js";
import { callEvents } from "./calls.js";
import { createServer, type ServerOptions } from "./server.js";
import { inspectSetup } from "./setup.js";

export interface HttpOptions {
  port: number;
  host: string;
  /** Required beyond loopback. */
  token: string | undefined;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** `host[:port]` of a Host header or an origin's host, without the port. */
function hostName(hostPort: string): string {
  const h = hostPort.trim().toLowerCase();
  if (h.startsWith("[")) return h.slice(0, h.indexOf("]") + 1);
  return h.replace(/:\d+$/, "");
}

function originAllowed(origin: string): boolean {
  try {
    const u = new URL(origin);
    return (u.protocol === "http:" || u.protocol === "https:") && isLoopback(u.hostname);
  } catch {
    return false;
  }
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? "");
  if (!m) return false;
  const given = Buffer.from(m[1]!.trim());
  const want = Buffer.from(token);
  return given.length === want.length && timingSafeEqual(given, want);
}

function refuse(res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}): void {
  res.writeHead(status, { "Content-Type": "application/json", ...extra });
  res.end(JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message } }));
}

const MAX_BODY = 10 * 1024 * 1024;

async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > max) throw new Error("too large");
    chunks.push(c as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * Node's request as a web Request, for the SDK's web-standard transport (the SDK's Node
 * wrapper brings a whole HTTP adapter for this); its answer, a stream for SSE, back.
 */
async function handOver(
  transport: WebStandardStreamableHTTPServerTransport,
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer | undefined,
  parsedBody?: unknown,
): Promise<void> {
  const headers = new Headers();
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined) continue;
    for (const one of Array.isArray(v) ? v : [v]) headers.append(k, one);
  }
  const abort = new AbortController();
  res.on("close", () => abort.abort());
  const request = new Request(`http://${req.headers.host ?? "localhost"}${req.url ?? "/mcp"}`, {
    method: req.method ?? "GET",
    headers,
    signal: abort.signal,
    ...(body && req.method !== "GET" && req.method !== "HEAD" ? { body: new Uint8Array(body) } : {}),
  });
  const response = await transport.handleRequest(request, parsedBody === undefined ? undefined : { parsedBody });
  res.writeHead(response.status, Object.fromEntries(response.headers.entries()));
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!res.write(value)) await new Promise((resolve) => res.once("drain", resolve));
    }
  } catch {
    // the client went away mid-stream
  }
  res.end();
}

export function httpOptionsOf(opts: Record<string, unknown>, env: Record<string, string | undefined>): HttpOptions {
  const host = opts.host === undefined ? "127.0.0.1" : String(opts.host).trim();
  if (host === "") throw new UsageError("--host must not be empty");
  const portText = opts.port === undefined ? "8765" : String(opts.port).trim();
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${portText}")`);
  const token = env.PEP_MCP_TOKEN?.trim() || undefined;
  if (!isLoopback(host) && !token)
    throw new UsageError(`pep mcp --http on ${host}, beyond loopback, needs a bearer token: set PEP_MCP_TOKEN`, {
      hints: ["Clients then send Authorization: Bearer <token>. On 127.0.0.1 (the default) no token is needed."],
    });
  return { port, host, token };
}

/** Serves Streamable HTTP at http://host:port/mcp until the run is interrupted. */
export async function serveHttp(ctx: Context, options: ServerOptions, http: HttpOptions): Promise<void> {
  const setup = await inspectSetup(ctx);
  ctx.onClientEvent(callEvents(options.maxWaitMs, options.now ?? Date.now));
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>();
  const handle = requestHandler(ctx, setup, options, http, sessions);
  const server = nodeHttp.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      ctx.debug(`mcp http: ${err instanceof Error ? err.message : String(err)}`);
      if (!res.headersSent) refuse(res, 500, "internal error");
      else res.end();
    });
  });
  const port = await listen(server, http);
  const shown = http.host.includes(":") ? `[${http.host}]` : http.host;
  ctx.notice(`pep mcp: serving Streamable HTTP at http://${shown}:${port}/mcp`);
  for (const p of setup.problems) ctx.notice(`pep mcp: configuration problem: ${p}`);
  await new Promise<void>((resolve) => {
    if (ctx.io.signal.aborted) return resolve();
    ctx.io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  for (const t of sessions.values()) await t.close().catch(() => {});
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Listens on the host and port asked for; resolves to the port (the one chosen for 0). */
async function listen(server: nodeHttp.Server, http: HttpOptions): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(
        e.code === "EADDRINUSE"
          ? new UsageError(`--port ${http.port} is in use; choose another, or --port 0 for any free port`)
          : e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND"
            ? new UsageError(`--host ${http.host} is not an address of this machine`)
            : e,
      ),
    );
    server.listen(http.port, http.host, resolve);
  });
  const address = server.address();
  return typeof address === "object" && address ? address.port : http.port;
}

/** Why a request may not reach the server (origin, host, token), or undefined when it may. */
function gate(req: IncomingMessage, http: HttpOptions): [number, string, Record<string, string>?] | undefined {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname !== "/mcp") return [404, "not found: the MCP endpoint is /mcp"];
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin))
    return [403, `origin ${origin} is not allowed: only loopback origins may use this server`];
  if (isLoopback(http.host) && !isLoopback(hostName(req.headers.host ?? "")))
    return [403, "host not allowed: this server answers only to loopback names"];
  if (http.token && !tokenMatches(req.headers.authorization, http.token))
    return [
      401,
      "a bearer token is required (Authorization: Bearer <PEP_MCP_TOKEN>)",
      { "WWW-Authenticate": "Bearer" },
    ];
  return undefined;
}

/** Each request: gated, then handed to its session, or starting one with `initialize`. */
function requestHandler(
  ctx: Context,
  setup: Awaited<ReturnType<typeof inspectSetup>>,
  options: ServerOptions,
  http: HttpOptions,
  sessions: Map<string, WebStandardStreamableHTTPServerTransport>,
) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = gate(req, http);
    if (refused) return refuse(res, ...refused);
    let raw: Buffer | undefined;
    if (req.method === "POST") {
      try {
        raw = await readBody(req, MAX_BODY);
      } catch {
        return refuse(res, 413, "a message larger than 10 MiB is refused");
      }
    }
    const id = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(id) ? id[0] : id;
    if (sessionId !== undefined) {
      const transport = sessions.get(sessionId);
      if (!transport) return refuse(res, 404, "unknown or closed session: initialize again");
      return handOver(transport, req, res, raw);
    }
    if (req.method !== "POST") return refuse(res, 400, "no session: start with an initialize request (POST)");
    let body: unknown;
    try {
      body = JSON.parse(raw!.toString("utf8"));
    } catch {
      res.writeHead(400, { "Content-Type": "application/json" });
      return void res.end(
        JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }),
      );
    }
    if (!isInitializeRequest(body)) return refuse(res, 400, "no session: start with an initialize request");
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => {
        sessions.set(sid, transport);
      },
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await createServer(ctx, setup, options).connect(transport);
    await handOver(transport, req, res, raw, body);
  };
}
