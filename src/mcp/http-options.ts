/**
 * What `pep mcp --http` is told before it serves: the address (or `--socket`), the
 * bearer token (PEP_MCP_TOKEN, PEP_MCP_TOKEN_FILE, or one made now and shown once), the
 * session limits, and the lines it says on standard error when it starts.
 */
import { randomBytes } from "node:crypto";
import path from "node:path";
import type { Context } from "../core/command-context.js";
import { UsageError } from "../core/errors.js";
import { SESSION_DEFAULTS, type SessionLimits } from "./http-sessions.js";

export interface HttpOptions {
  port: number;
  host: string;
  /** The bearer token every request must carry. */
  token: string;
  /** A Unix socket to listen on instead of host and port (`--socket`). */
  socket?: string;
  /** Where the token came from: made at start (then shown once), or given. */
  tokenFrom: "generated" | "PEP_MCP_TOKEN" | "PEP_MCP_TOKEN_FILE";
  sessions: SessionLimits;
}

/** Shortest token taken: 32 characters (a made one has 43, 256 random bits). */
export const MIN_TOKEN_LENGTH = 32;

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase()) || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** `--session-idle` (seconds) and `--max-sessions`, or their environment variables. */
function sessionLimitsOf(opts: Record<string, unknown>, env: Record<string, string | undefined>): SessionLimits {
  const read = (flag: unknown, name: string, variable: string, min: number, max: number, def: number) => {
    const raw = flag !== undefined ? String(flag) : env[variable];
    if (raw === undefined || raw.trim() === "") return def;
    const n = Number(raw.trim());
    if (!/^\d+$/.test(raw.trim()) || n < min || n > max)
      throw new UsageError(
        `${flag !== undefined ? name : variable} must be a whole number from ${min} to ${max} (got "${raw}")`,
      );
    return n;
  };
  const idleS = read(opts.sessionIdle, "--session-idle", "PEP_MCP_SESSION_IDLE", 1, 86_400, 300);
  const max = read(opts.maxSessions, "--max-sessions", "PEP_MCP_MAX_SESSIONS", 1, 10_000, SESSION_DEFAULTS.max);
  return { ...SESSION_DEFAULTS, idleMs: idleS * 1000, max };
}

/** The token: PEP_MCP_TOKEN, or the first line of PEP_MCP_TOKEN_FILE, or one made now. */
async function tokenOf(
  env: Record<string, string | undefined>,
  ctx: Pick<Context, "io">,
): Promise<Pick<HttpOptions, "token" | "tokenFrom">> {
  const given = env.PEP_MCP_TOKEN?.trim();
  const file = env.PEP_MCP_TOKEN_FILE?.trim();
  if (given && file) throw new UsageError("set PEP_MCP_TOKEN or PEP_MCP_TOKEN_FILE, not both");
  let token: string;
  let from: HttpOptions["tokenFrom"];
  if (given) [token, from] = [given, "PEP_MCP_TOKEN"];
  else if (file) {
    const { readKeyFile } = await import("../config/key-file.js");
    [token, from] = [
      await readKeyFile(file, ctx.io.stdin, ctx.io.cwd, "PEP_MCP_TOKEN_FILE", true),
      "PEP_MCP_TOKEN_FILE",
    ];
  } else return { token: randomBytes(32).toString("base64url"), tokenFrom: "generated" };
  if (token.length < MIN_TOKEN_LENGTH)
    throw new UsageError(
      `${from} holds a token of ${token.length} characters; pep mcp --http takes at least ${MIN_TOKEN_LENGTH}`,
      { hints: ["make one with: openssl rand -base64 32", "or unset it: pep mcp --http then makes one and shows it"] },
    );
  return { token, tokenFrom: from };
}

export async function httpOptionsOf(opts: Record<string, unknown>, ctx: Pick<Context, "io">): Promise<HttpOptions> {
  const env = ctx.io.env;
  const host = opts.host === undefined ? "127.0.0.1" : String(opts.host).trim();
  if (host === "") throw new UsageError("--host must not be empty");
  const portText = opts.port === undefined ? "8765" : String(opts.port).trim();
  const port = Number(portText);
  if (!/^\d+$/.test(portText) || port > 65535)
    throw new UsageError(`--port must be a whole number from 0 to 65535 (got "${portText}")`);
  const socket = opts.socket === undefined ? undefined : String(opts.socket).trim();
  if (socket !== undefined) {
    if (socket === "") throw new UsageError("--socket must name a file path");
    if (opts.host !== undefined || opts.port !== undefined)
      throw new UsageError("--socket listens on a file instead of an address: give it without --host and --port");
  }
  return {
    port,
    host,
    ...(socket !== undefined ? { socket: path.resolve(ctx.io.cwd, socket) } : {}),
    ...(await tokenOf(env, ctx)),
    sessions: sessionLimitsOf(opts, env),
  };
}

/**
 * What the run says on standard error when it starts: where, the token once (when made),
 * the warning beyond loopback, and a client configuration. On a Unix socket there is
 * none to give: an MCP client's configuration names a TCP URL, and one such as
 * `http://localhost/mcp` would send the token to whatever listens on that port; a
 * sentence says how to reach the socket instead.
 */
export function startLines(http: HttpOptions, url: string): string[] {
  const lines = [`pep mcp: serving Streamable HTTP at ${url}`];
  const header = http.tokenFrom === "generated" ? `Bearer ${http.token}` : `Bearer <the token of ${http.tokenFrom}>`;
  if (http.tokenFrom === "generated")
    lines.push(
      "pep mcp: every request needs this bearer token, made for this run and shown only now (set PEP_MCP_TOKEN or PEP_MCP_TOKEN_FILE to choose one):",
      `    ${http.token}`,
    );
  else lines.push(`pep mcp: every request needs the bearer token of ${http.tokenFrom}`);
  if (!isLoopback(http.host) && !http.socket)
    lines.push(
      `pep mcp: WARNING: ${http.host} is beyond loopback and this is plain HTTP: the token, the questions and the answers cross the network unencrypted, readable by anyone on the path. Serve on 127.0.0.1 and put a TLS-terminating proxy in front (docs/mcp.md, "Beyond loopback").`,
    );
  if (http.socket) {
    lines.push(
      `pep mcp: no client configuration is printed for a socket: a client's configuration names a TCP URL, which would carry the token to whatever listens there; connect a client that speaks HTTP over a Unix socket to ${http.socket}, path /mcp, with the header Authorization: ${header}`,
    );
    return lines;
  }
  lines.push(
    "pep mcp: client configuration:",
    `    ${JSON.stringify({ mcpServers: { pep: { type: "http", url, headers: { Authorization: header } } } })}`,
  );
  return lines;
}
