/**
 * The MCP server of `pep mcp`: the tools of the catalog registered with the official
 * SDK, served over the run's standard input and output until the client closes its end
 * or the run is interrupted. Only the protocol is written to standard output.
 *
 * It starts with any configuration: what is missing is said in the instructions and in
 * every tool error (`setup.ts`). Tools the configuration cannot use (keyed tools with no
 * key) and groups not asked for (`--tools`) are not listed, and the instructions say why.
 */
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { ErrorCode, McpError, SetLevelRequestSchema, type LoggingLevel } from "@modelcontextprotocol/sdk/types.js";
import { ENDPOINTS } from "../api/endpoints.js";
import type { ToolGroup } from "./catalog.js";
import type { Context } from "../core/command-context.js";
import { UsageError } from "../core/errors.js";
import { callEvents, SpentScopes, type LogLevel } from "./calls.js";
import { completers, registerCompletions } from "./completions.js";
import { registerPrompts, registerResources } from "./extras.js";
import { sharedQueue, type CallQueue } from "./queue.js";
import { toolConfigOf } from "./schemas.js";
import { inspectSetup, type Setup } from "./setup.js";
import { SERVER_INFO, type Early } from "./early.js";
import { chooseTools, instructionsFor } from "./listing.js";
import { LineTransport, MAX_MESSAGE_BYTES } from "./stdio.js";
import { callTool, callWatch } from "./tools.js";
import type { LibraryServing } from "./library-tools.js";

export interface ServerOptions {
  /** Longest a call waits in all (retries, rate limits), in ms. */
  maxWaitMs: number;
  /** Groups of tools to serve; undefined: all. */
  groups?: readonly ToolGroup[] | undefined;
  /** The clock the run's client waits by (tests inject one). */
  now?: () => number;
  /** What the server made of settings it could not take as given (`listing.ts`). */
  notes?: readonly string[];
  /** The scopes refused by the API (a 403), for every session. */
  scopes?: ScopeBook;
  /** The server's record of spent rate-limit scopes (one for all sessions). */
  spent?: SpentScopes;
  /** The queue every call of the server waits in (one for all sessions). */
  queue?: () => Promise<CallQueue>;
  /** The library's tools and subscriptions, when served (one watch for all sessions: library-tools.ts). */
  library?: LibraryServing;
}

const SEVERITY: readonly LoggingLevel[] = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
];

/** The protocol's code for a resource that does not exist. */
export const RESOURCE_NOT_FOUND = -32002;

/** A zod failure as one line: the first problem with where it is, and how many more. */
function oneLine(issues: ReadonlyArray<{ path?: readonly PropertyKey[]; message: string }>): string {
  const [first, ...rest] = issues;
  const where = first?.path?.length ? `${first.path.map(String).join(".")}: ` : "";
  return `${where}${first?.message ?? "invalid"}${rest.length > 0 ? ` (and ${rest.length} more)` : ""}`;
}

/**
 * Every request handler answers bad params with -32602 and a one-line reason. The SDK
 * checks a request against its schema before the handler and lets the schema's failure
 * out as an internal error (-32603) carrying the whole dump; this catches that failure
 * (a ZodError: its `issues`) around each handler. An unknown resource is the protocol's
 * -32002 rather than the SDK's -32602. The handlers are the SDK's `_requestHandlers`
 * (a test fails when that name changes: test/e2e/mcp-protocol.test.ts).
 */
function answerBadParams(server: McpServer): void {
  const handlers = (server.server as unknown as { _requestHandlers?: Map<string, (...a: never[]) => Promise<unknown>> })
    ._requestHandlers;
  if (!handlers) return;
  for (const [method, handler] of handlers) {
    handlers.set(method, async (...args: never[]) => {
      let result: unknown;
      try {
        result = await handler(...args);
      } catch (err) {
        const issues = (err as { issues?: unknown }).issues;
        if (Array.isArray(issues) && !(err instanceof McpError))
          throw rpcError(ErrorCode.InvalidParams, `invalid params of ${method}: ${oneLine(issues)}`);
        if (!(err instanceof McpError)) throw err;
        const code =
          method === "resources/read" && err.code === ErrorCode.InvalidParams ? RESOURCE_NOT_FOUND : err.code;
        throw rpcError(code, err.message);
      }
      // The SDK answers an unknown tool as a tool error; the protocol's answer is -32602.
      const unknown = /^MCP error -32602: (Tool \S+ not found)$/.exec(toolErrorText(result) ?? "");
      if (method === "tools/call" && unknown) throw rpcError(ErrorCode.InvalidParams, unknown[1]!);
      return result;
    });
  }
}

/** The text of a tool error result, if it is one. */
function toolErrorText(result: unknown): string | undefined {
  const r = result as { isError?: boolean; content?: Array<{ text?: unknown }> } | undefined;
  const text = r?.isError ? r.content?.[0]?.text : undefined;
  return typeof text === "string" ? text : undefined;
}

/**
 * An error the protocol sends as `{ code, message }`. Not an McpError, whose message
 * starts with "MCP error <code>: ", which the client's McpError would then repeat.
 */
function rpcError(code: number, message: string): Error {
  return Object.assign(new Error(message.replace(/^(MCP error -?\d+: )+/, "")), { code });
}

/**
 * The scopes the API refused the key (a 403), for every session of a server: a refusal
 * met by one session hides the tools of that scope, and the prompt that needs them, in
 * every session at once (one tools/list_changed each), and a session started after lists
 * none of them. Each session joins with its way of hiding them.
 */
export class ScopeBook {
  readonly refused = new Set<string>();
  private readonly members = new Set<{ server: McpServer; hide: (scope: string) => void }>();

  join(server: McpServer, hide: (scope: string) => void): void {
    for (const m of this.members) if (!m.server.isConnected()) this.members.delete(m);
    this.members.add({ server, hide });
  }

  /** True when `scope` is newly refused: every session still open hides its tools. */
  refuse(scope: string): boolean {
    if (this.refused.has(scope)) return false;
    this.refused.add(scope);
    for (const m of [...this.members]) {
      if (m.server.isConnected()) m.hide(scope);
      else this.members.delete(m);
    }
    return true;
  }
}

/** The scopes of the tools the vendor comparison prompt calls. */
const PROMPT_SCOPES = new Set(["vendors:read", "pricing:read"]);

/**
 * What a 403 for a missing scope does: the scope is refused for the whole server
 * (`ScopeBook`), and the refusal is kept by the key's digest, so the next start lists
 * only usable tools.
 */
function scopeRefusals(ctx: Context, setup: Setup, book: ScopeBook, now: () => number): (scope: string) => void {
  return (scope) => {
    if (!book.refuse(scope)) return;
    const key = setup.config?.apiKey;
    if (!key) return;
    void import("../config/scopes-state.js")
      .then(({ noteRefused }) => noteRefused(ctx.io.env, key, scope, now()))
      .catch((err: unknown) => ctx.debug(`mcp: the refusal of ${scope} was not recorded: ${String(err)}`));
  };
}

/** How one session hides the tools and prompt of a refused scope: each hidden in place, the client told once. */
function hider(
  server: McpServer,
  registered: ReadonlyMap<string, { scope: string; tool: { enabled: boolean } }>,
  prompt: { enabled: boolean } | undefined,
): (scope: string) => void {
  return (scope) => {
    let tools = false;
    for (const t of registered.values())
      if (t.scope === scope && t.tool.enabled) {
        t.tool.enabled = false;
        tools = true;
      }
    if (tools) server.sendToolListChanged();
    if (prompt?.enabled && PROMPT_SCOPES.has(scope)) {
      prompt.enabled = false;
      server.sendPromptListChanged();
    }
  };
}

/** A server with the chosen tools registered; `connect()` it to a transport. */
export function createServer(
  ctx: Context,
  setup: Setup,
  options: ServerOptions,
  inflight: Set<Promise<unknown>> = new Set(),
): McpServer {
  const book = options.scopes ?? new ScopeBook();
  // Scopes another session of this server met a 403 for are refused here too.
  const mine =
    book.refused.size > 0
      ? { ...setup, refusedScopes: [...new Set([...setup.refusedScopes, ...book.refused])] }
      : setup;
  const { tools, library, hidden } = chooseTools(mine, options.groups);
  const server = new McpServer(SERVER_INFO, {
    instructions: instructionsFor(mine, hidden),
    capabilities: { tools: {}, logging: {} },
  });
  // Log messages go out only once the client has asked for them, at its level or above.
  let level: LoggingLevel | undefined;
  server.server.setRequestHandler(SetLevelRequestSchema, async (req) => {
    level = req.params.level;
    return {};
  });
  const enabled = (at: LogLevel) => level !== undefined && SEVERITY.indexOf(at) >= SEVERITY.indexOf(level);
  const now = options.now ?? Date.now;
  const registered = new Map<string, { scope: string; tool: { enabled: boolean } }>();
  const session = randomUUID();
  const refused = scopeRefusals(ctx, setup, book, now);
  for (const entry of tools) {
    const endpoint = ENDPOINTS[entry.endpoint];
    const tool = server.registerTool(entry.name, toolConfigOf(entry), (args: Record<string, unknown>, extra) => {
      // A call's messages go with its answer (over HTTP, on the stream of its POST).
      const send = (n: { method: string; params: Record<string, unknown> }) => extra.sendNotification(n as never);
      const log = (at: LogLevel, data: string) => {
        if (enabled(at)) void send({ method: "notifications/message", params: { level: at, logger: "pep", data } });
      };
      const watch = callWatch(extra._meta?.progressToken, send, log);
      watch.deadline = now() + options.maxWaitMs;
      watch.tool = entry.name;
      watch.scope = endpoint.metered ? "metered" : "research";
      const signal = AbortSignal.any([ctx.io.signal, extra.signal, watch.abort.signal]);
      const call = callTool(entry, args, {
        ctx,
        setup,
        signal,
        watch,
        now,
        refused,
        ...(options.spent ? { spent: options.spent } : {}),
        ...(options.queue ? { queue: options.queue, session } : {}),
      });
      inflight.add(call);
      void call.finally(() => inflight.delete(call));
      return call;
    });
    registered.set(entry.name, { scope: entry.scope, tool });
  }
  if (library.length > 0) options.library?.register(server, session, library, options.maxWaitMs);
  const complete = completers(ctx, setup);
  registerResources(server, ctx, setup, complete, library.length > 0);
  const keyed = ["list_vendors", "compare_vendors", "list_prices"].every((n) => tools.some((t) => t.name === n));
  const prompt = registerPrompts(server, complete, keyed);
  book.join(server, hider(server, registered, prompt));
  const prompts = ["summarise_evidence", "explore_research_area", ...(keyed ? ["compare_vendors_for_peptide"] : [])];
  registerCompletions(server, complete, new Set(prompts));
  answerBadParams(server);
  return server;
}

/** The library's tools, loaded only when they are served (offline, or `--tools library`). */
export async function libraryOf(
  ctx: Context,
  setup: Setup,
  options: ServerOptions,
): Promise<{ library?: LibraryServing }> {
  if (chooseTools(setup, options.groups).library.length === 0) return {};
  return { library: (await import("./library-tools.js")).libraryServing(ctx, setup) };
}

/**
 * Serves over the run's stdin and stdout; resolves when the client goes away or the run
 * is interrupted. `early`: the configuration read and the first message answered before
 * this module was loaded (`early.ts`).
 */
export async function serve(ctx: Context, options: ServerOptions, early?: Early): Promise<void> {
  const inflight = new Set<Promise<unknown>>();
  const setup = early?.setup ?? (await inspectSetup(ctx, options.notes));
  const spent = new SpentScopes();
  ctx.onClientEvent(callEvents(options.maxWaitMs, options.now ?? Date.now, ctx.notice, spent));
  const library = await libraryOf(ctx, setup, options);
  const server = createServer(
    ctx,
    setup,
    { ...options, spent, scopes: new ScopeBook(), queue: sharedQueue(options.now ?? Date.now), ...library },
    inflight,
  );
  if (library.library) ctx.onCleanup(() => library.library!.close());
  const transport = new LineTransport(
    ctx.io.stdin,
    ctx.io.stdout,
    (line) => ctx.io.stderr.write(`${line}\n`),
    undefined,
    early,
  );
  const closed = new Promise<void>((resolve) => {
    const before = server.server.onclose;
    server.server.onclose = () => {
      before?.();
      resolve();
    };
  });
  server.server.onerror = (err) => ctx.debug(`mcp: ${err.message}`);
  const stop = () => void server.close();
  // The client closed its end: answer the calls already made, then stop. A message read
  // in the same turn as the end may not have reached its handler yet, so the server
  // stops only once no call has been in flight for a few turns of the event loop.
  let draining = false;
  const drain = () => {
    if (draining) return;
    draining = true;
    void (async () => {
      for (let idle = 0; idle < 3; ) {
        if (inflight.size > 0) {
          idle = 0;
          await Promise.allSettled([...inflight]);
        } else {
          idle++;
          await new Promise((resolve) => setImmediate(resolve));
        }
      }
      stop();
    })();
  };
  ctx.io.signal.addEventListener("abort", stop, { once: true });
  ctx.io.stdin.once("end", drain);
  ctx.io.stdin.once("close", drain);
  await server.connect(transport);
  // Its end may have come while this module loaded, with no listener to hear it.
  if (early && (early.ended || ctx.io.stdin.readableEnded)) {
    transport.endedEarly();
    drain();
  }
  ctx.notice(`pep mcp: serving ${chooseTools(setup, options.groups).tools.length} tools on standard input and output`);
  for (const p of setup.problems) ctx.notice(`pep mcp: configuration problem: ${p}`);
  for (const n of setup.notes) ctx.notice(`pep mcp: ${n}`);
  try {
    await closed;
  } finally {
    ctx.io.signal.removeEventListener("abort", stop);
  }
  if (transport.truncated !== undefined)
    throw new UsageError(
      `standard input ended inside a message (${transport.truncated === MAX_MESSAGE_BYTES ? "more than 10 MiB" : `${transport.truncated} bytes`} with no closing newline); the client stopped mid-message`,
    );
}
