/**
 * The request pipeline of the sandbox, on plain node:http. Order: count the request,
 * injected latency, rate limit (every request counts, so `RateLimit-*` is on every
 * response), injected 503s, method, route, key and scope, database-down state, query
 * validation with the CLI's own zod schemas, then the handler.
 */
import { randomBytes } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { checkQuery } from "../api/query-schemas.js";
import { authorize, knownKey } from "./auth.js";
import type { HandlerContext } from "./request-context.js";
import type { CursorCodec } from "./cursor.js";
import type { Dataset } from "./data/index.js";
import { SandboxError } from "./sandbox-error.js";
import type { Faults } from "./faults.js";
import { HANDLERS } from "./handlers/index.js";
import type { RateLimiter } from "./limits.js";
import { sendError, sendSuccess } from "./respond.js";
import { matchRoute, type Route } from "./router.js";

export interface PipelineDeps {
  data: Dataset;
  limiter: RateLimiter;
  faults: Faults;
  cursors: CursorCodec;
  latencyMs: number;
  /** Bytes per second of every body; 0 for no cap. */
  bytesPerSecond: number;
  dbDown: boolean;
  /** Known once the server listens. */
  baseUrl: () => string;
  /** Waits before answering; resolves false when the sandbox is closing. */
  delay: (ms: number) => Promise<boolean>;
  onRequest: () => void;
}

/**
 * Query parameters as strings; a parameter given twice is refused rather than guessed.
 * The object has no prototype and names are looked up as its own: `constructor`,
 * `toString` or `__proto__` is a name like any other (an unknown parameter), neither
 * "given more than once" because Object.prototype holds it, nor a prototype to set.
 */
function readQuery(search: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [k, v] of search) {
    if (Object.hasOwn(out, k)) throw new SandboxError(400, "invalid_parameter", `${k} is given more than once`);
    out[k] = v;
  }
  return out;
}

export function createPipeline(deps: PipelineDeps): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    deps.onRequest();
    const requestId = `req_${randomBytes(8).toString("hex")}`;
    void handle(deps, req, res, requestId).catch((err: unknown) => {
      if (!res.headersSent)
        sendError(
          res,
          500,
          "internal_error",
          `unexpected sandbox error: ${(err as Error)?.message ?? String(err)}`,
          requestId,
          { "X-Request-Id": requestId },
        );
      else res.destroy();
    });
  };
}

async function handle(deps: PipelineDeps, req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
  if (deps.latencyMs > 0 && !(await deps.delay(deps.latencyMs))) {
    res.destroy();
    return;
  }
  const headers: Record<string, string> = { "X-Request-Id": requestId };
  try {
    const url = new URL(req.url ?? "/", "http://sandbox.invalid");
    let route: Route | undefined;
    let routeError: unknown;
    try {
      route = matchRoute(url.pathname);
    } catch (e) {
      routeError = e;
    }
    const verdict = deps.limiter.hit(
      { key: knownKey(req.headers), ip: req.socket.remoteAddress ?? "unknown" },
      route?.endpoint.metered ?? false,
    );
    headers["RateLimit-Limit"] = String(verdict.limit);
    headers["RateLimit-Remaining"] = String(verdict.remaining);
    headers["RateLimit-Reset"] = String(verdict.reset);
    if (!verdict.allowed)
      throw new SandboxError(429, "rate_limited", verdict.message, { "Retry-After": String(verdict.reset) });
    if (deps.faults.shouldFail())
      throw new SandboxError(
        503,
        "service_unavailable",
        "the service is temporarily unavailable (injected fault); retry later",
      );
    if (req.method !== "GET" && req.method !== "HEAD") {
      throw new SandboxError(
        405,
        "method_not_allowed",
        `${req.method ?? "this method"} is not allowed; the API is read-only and answers GET`,
        { Allow: "GET, HEAD" },
      );
    }
    if (routeError) throw routeError;
    if (!route) {
      const hint = url.pathname.startsWith("/v1") ? "" : "; paths start with /v1";
      throw new SandboxError(404, "not_found", `no endpoint at ${url.pathname}${hint}`);
    }
    authorize(route.endpoint, req.headers);
    if (deps.dbDown && route.name !== "index") {
      throw new SandboxError(503, "database_unavailable", "the database is unavailable; the API cannot read its data");
    }
    const raw = readQuery(url.searchParams);
    const checked = checkQuery(route.endpoint, raw);
    if (!checked.ok) {
      const first = checked.problems[0];
      const message = checked.problems.map((p) => (p.param ? `${p.param} ${p.message}` : p.message)).join("; ");
      throw new SandboxError(400, first?.code ?? "invalid_parameter", message);
    }
    const ctx: HandlerContext = {
      data: deps.data,
      route,
      query: checked.value,
      baseUrl: deps.baseUrl(),
      cursors: deps.cursors,
    };
    const result = HANDLERS[route.name](ctx);
    sendSuccess(req, res, result, requestId, headers, deps.bytesPerSecond);
  } catch (e) {
    if (e instanceof SandboxError) sendError(res, e.status, e.code, e.message, requestId, { ...headers, ...e.headers });
    else throw e;
  }
}
