/**
 * `pep mcp --http`: the same server over the SDK's Streamable HTTP transport, for clients
 * that connect to a URL instead of starting a process. One MCP session per client, each
 * with its own server, all sharing the run's API client (retries, pacing, cache).
 *
 * It listens on loopback (127.0.0.1) unless told otherwise. Every request is checked
 * before the protocol sees it:
 * - the path is /mcp;
 * - a browser's Origin must be a loopback origin (a web page elsewhere must not drive a
 *   server on this machine; those allowed get CORS headers and their preflight is
 *   answered), and on loopback the Host must be a loopback name (DNS rebinding);
 * - a bearer token is required on every address, loopback included (another user of the
 *   machine must not use this user's key): PEP_MCP_TOKEN, or the first line of the file
 *   PEP_MCP_TOKEN_FILE names, never a flag (a flag shows in `ps`), at least 32 characters,
 *   compared in constant time; without either, one is made at start and shown once on
 *   standard error with the client configuration to paste.
 * Sessions expire and are capped (`http-sessions.ts`).
 */
import { createHash, randomUUID, timingSafeEqual } from "node:crypto";
import * as nodeHttp from "node:http";
import type { IncomingMessage, ServerResponse } from "node:http";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { isInitializeRequest } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "../core/command-context.js";
import { UsageError } from "../core/errors.js";
import { callEvents, SpentScopes } from "./calls.js";
import { BoundedEventStore, type NoRoom, Sessions, type Session } from "./http-sessions.js";
import { sharedQueue } from "./queue.js";
import { createServer, libraryOf, ScopeBook, type ServerOptions } from "./server.js";
import { inspectSetup } from "./setup.js";
import { type HttpOptions, isLoopback, startLines } from "./http-options.js";
export { type HttpOptions, httpOptionsOf, isLoopback, MIN_TOKEN_LENGTH } from "./http-options.js";

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

const digest = (s: string) => createHash("sha256").update(s).digest();

/** Compares digests of equal length, so neither the token's length nor its bytes leak through timing. */
function tokenMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(.+)$/i.exec(header ?? "");
  return timingSafeEqual(digest(m ? m[1]!.trim() : ""), digest(token)) && m !== null;
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
  cors: Record<string, string>,
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
  res.writeHead(response.status, { ...Object.fromEntries(response.headers.entries()), ...cors });
  if (!response.body) return void res.end();
  // A stream's headers go now: a client waits for them before its first event.
  res.flushHeaders();
  const reader = response.body.getReader();
  // A client that drops its stream cancels it, so the session takes a new one at once
  // (the transport allows one GET stream a session, and frees it only on cancel).
  res.once("close", () => void reader.cancel().catch(() => {}));
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

/** A session of the server: its transport, its protocol server, its use. */
interface HttpSession extends Session {
  transport: WebStandardStreamableHTTPServerTransport;
}

/** Serves Streamable HTTP at http://host:port/mcp until the run is interrupted. */
export async function serveHttp(ctx: Context, options: ServerOptions, http: HttpOptions): Promise<void> {
  const setup = await inspectSetup(ctx, options.notes);
  const spent = new SpentScopes();
  ctx.onClientEvent(callEvents(options.maxWaitMs, options.now ?? Date.now, ctx.notice, spent));
  const library = await libraryOf(ctx, setup, options);
  if (library.library) ctx.onCleanup(() => library.library!.close());
  options = { ...options, spent, scopes: new ScopeBook(), queue: sharedQueue(options.now ?? Date.now), ...library };
  const sessions = new Sessions<HttpSession>(http.sessions, Date.now);
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
  if (http.socket)
    ctx.notice(`pep mcp: serving Streamable HTTP on the Unix socket ${http.socket} (mode 0600), path /mcp`);
  for (const line of startLines(http, http.socket ? `unix:${http.socket}` : `http://${shown}:${port}/mcp`))
    if (!http.socket || !line.startsWith("pep mcp: serving")) ctx.notice(line);
  for (const p of setup.problems) ctx.notice(`pep mcp: configuration problem: ${p}`);
  for (const n of setup.notes) ctx.notice(`pep mcp: ${n}`);
  await new Promise<void>((resolve) => {
    if (ctx.io.signal.aborted) return resolve();
    ctx.io.signal.addEventListener("abort", () => resolve(), { once: true });
  });
  await sessions.closeAll();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

/** Listens on the host and port asked for; resolves to the port (the one chosen for 0). */
async function listen(server: nodeHttp.Server, http: HttpOptions): Promise<number> {
  await new Promise<void>((resolve, reject) => {
    server.once("error", (e: NodeJS.ErrnoException) =>
      reject(
        http.socket && (e.code === "EADDRINUSE" || e.code === "EACCES" || e.code === "ENOENT")
          ? new UsageError(`--socket ${http.socket} exists or cannot be made; remove it or choose another path`)
          : e.code === "EADDRINUSE"
            ? new UsageError(`--port ${http.port} is in use; choose another, or --port 0 for any free port`)
            : e.code === "EADDRNOTAVAIL" || e.code === "ENOTFOUND"
              ? new UsageError(`--host ${http.host} is not an address of this machine`)
              : e,
      ),
    );
    if (http.socket) {
      // Only this user may connect: the socket is made with no permission for others.
      const mask = process.umask(0o177);
      server.listen(http.socket, () => {
        process.umask(mask);
        resolve();
      });
    } else server.listen(http.port, http.host, resolve);
  });
  const address = server.address();
  return typeof address === "object" && address ? address.port : http.port;
}

/** Headers of a cross-origin request from an allowed origin: what a browser client may send and read. */
function corsHeaders(origin: string | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return {
    "Access-Control-Allow-Origin": origin,
    "Access-Control-Expose-Headers": "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate",
    Vary: "Origin",
  };
}

/** Why a request may not reach the server (origin, host, token), or undefined when it may. */
function gate(req: IncomingMessage, http: HttpOptions): [number, string, Record<string, string>?] | undefined {
  const url = new URL(req.url ?? "/", "http://localhost");
  if (url.pathname !== "/mcp") return [404, "not found: the MCP endpoint is /mcp"];
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin))
    return [403, `origin ${origin} is not allowed: only loopback origins may use this server`];
  // A Unix socket cannot be reached by a browser's rebinding: only its own file is checked.
  if (!http.socket && isLoopback(http.host) && !isLoopback(hostName(req.headers.host ?? "")))
    return [403, "host not allowed: this server answers only to loopback names"];
  // A preflight carries no credentials: it is answered, and the request it announces is checked.
  if (req.method === "OPTIONS") return undefined;
  if (!tokenMatches(req.headers.authorization, http.token))
    return [
      401,
      "a bearer token is required: send Authorization: Bearer followed by the token pep mcp --http printed at start (or the one set in PEP_MCP_TOKEN)",
      { "WWW-Authenticate": 'Bearer realm="pep mcp"', ...corsHeaders(origin) },
    ];
  return undefined;
}

/** The answer to a CORS preflight from an allowed origin. */
function preflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    ...corsHeaders(req.headers.origin),
    "Access-Control-Allow-Methods": "GET, POST, DELETE, OPTIONS",
    "Access-Control-Allow-Headers":
      "Authorization, Content-Type, Accept, Mcp-Session-Id, Mcp-Protocol-Version, Last-Event-ID",
    "Access-Control-Max-Age": "600",
  });
  res.end();
}

/** Each request: gated, then handed to its session, or starting one with `initialize`. */
function requestHandler(
  ctx: Context,
  setup: Awaited<ReturnType<typeof inspectSetup>>,
  options: ServerOptions,
  http: HttpOptions,
  sessions: Sessions<HttpSession>,
) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const refused = gate(req, http);
    if (refused) return refuse(res, ...refused);
    if (req.method === "OPTIONS") return preflight(req, res);
    const cors = corsHeaders(req.headers.origin);
    let raw: Buffer | undefined;
    if (req.method === "POST") {
      try {
        raw = await readBody(req, MAX_BODY);
      } catch {
        return refuse(res, 413, "a message larger than 10 MiB is refused", cors);
      }
    }
    const id = req.headers["mcp-session-id"];
    const sessionId = Array.isArray(id) ? id[0] : id;
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (!session) return refuse(res, 404, "unknown, expired or closed session: initialize again", cors);
      const done = sessions.use(session);
      res.once("close", done);
      return handOver(session.transport, req, res, raw, cors);
    }
    if (req.method !== "POST") return refuse(res, 400, "no session: start with an initialize request (POST)", cors);
    let body: unknown;
    try {
      body = JSON.parse(raw!.toString("utf8"));
    } catch {
      res.writeHead(400, { "Content-Type": "application/json", ...cors });
      return void res.end(
        JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }),
      );
    }
    if (!isInitializeRequest(body)) return refuse(res, 400, "no session: start with an initialize request", cors);
    const full = await sessions.makeRoom();
    if (full) return refuseFull(res, full, http, cors);
    try {
      await startSession(ctx, setup, options, http, sessions, { req, res, raw: raw!, body, cors });
    } finally {
      sessions.started();
    }
  };
}

/**
 * 503 for a newcomer at the cap. Sessions still starting settle within moments, so a
 * Retry-After of a few seconds can be honoured; sessions in use (an MCP client keeps a
 * stream open for its whole session) free no place at a time anyone can promise, so
 * then the answer says why instead of a Retry-After.
 */
function refuseFull(res: ServerResponse, full: NoRoom, http: HttpOptions, cors: Record<string, string>): void {
  const all = `all ${http.sessions.max} sessions are taken (--max-sessions)`;
  if (full.starting > 0) {
    refuse(
      res,
      503,
      `${all}, ${full.starting} of them still starting; try again in ${STARTING_RETRY_S} s, when a session idle by then can give way`,
      { "Retry-After": String(STARTING_RETRY_S), ...cors },
    );
    return;
  }
  refuse(
    res,
    503,
    `${all} and all are in use, each with a request or stream open (MCP clients keep a stream open for their whole session), so no time to try again can be promised: close a session (DELETE), or start the server with a larger --max-sessions`,
    cors,
  );
}

/** Seconds a newcomer is asked to wait while sessions at the cap are still starting. */
const STARTING_RETRY_S = 2;

/** A new session: its transport (with a bounded event store), its server, then the initialize request. */
async function startSession(
  ctx: Context,
  setup: Awaited<ReturnType<typeof inspectSetup>>,
  options: ServerOptions,
  http: HttpOptions,
  sessions: Sessions<HttpSession>,
  first: { req: IncomingMessage; res: ServerResponse; raw: Buffer; body: unknown; cors: Record<string, string> },
): Promise<void> {
  let session: HttpSession | undefined;
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: () => randomUUID(),
    eventStore: new BoundedEventStore(http.sessions.eventBytes),
    onsessioninitialized: (sid) => {
      session = { id: sid, transport, busy: 0, lastUsed: Date.now(), close: () => transport.close() };
      sessions.add(session);
    },
  });
  transport.onclose = () => {
    if (transport.sessionId) sessions.remove(transport.sessionId);
  };
  await createServer(ctx, setup, options).connect(transport);
  await handOver(transport, first.req, first.res, first.raw, first.cors, first.body);
}
