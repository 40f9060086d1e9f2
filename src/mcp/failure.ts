/**
 * A failed call as a tool error, said to the model that made the call: the error line
 * (the API's message, status, code and request id), then what to do next in terms of
 * tools, arguments and the client's configuration. The command line's hints name flags,
 * commands and exit codes, which a model cannot use, so they are left out; a hint that
 * names none of them is kept.
 */
import type { Endpoint } from "../api/endpoints.js";
import { keyEnding } from "../core/key-display.js";
import type { ResolvedConfig } from "../config/config-types.js";
import { ApiError, AuthError, NetworkError, PepError, ResponseError, UsageError } from "../core/errors.js";
import { cleanBlock, cleanLine } from "../core/sanitize.js";
import type { Deferred, RateScope, SpentScopes } from "./calls.js";
import { KEY_FIX, keySource } from "./setup.js";
import type { Redact } from "./result.js";
import { hideUrlCredentials } from "../core/credentials.js";

export interface ToolError {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  isError: true;
}

/** Time as the API would write it, to the second. */
export const isoSecond = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

/** A hint of the command line that a model can act on: no flags, no `pep …` commands, no exit codes. */
const forShell = /`pep |(^|\s)--?[a-z]|exit code|\bpep (auth|config|--)|run the command/i;

export function toolErrorText(lines: readonly string[], redact: Redact): ToolError {
  return { content: [{ type: "text", text: redact(cleanBlock(hideUrlCredentials(lines.join("\n")))) }], isError: true };
}

export interface FailureContext {
  endpoint: Endpoint;
  config: ResolvedConfig | undefined;
  /** When the call ended because a wait would pass the bound. */
  deferred?: Deferred | undefined;
  /** Hints worked out for this call (closest matches of a near-miss name). */
  extra?: readonly string[];
  /** The server's record of spent rate-limit scopes. */
  spent?: SpentScopes | undefined;
  now: number;
}

function keyWords(cfg: ResolvedConfig | undefined): string {
  if (!cfg?.apiKey) return "no key";
  return `the key ${keyEnding(cfg.apiKey)} (${keySource(cfg)})`;
}

/** The tools of each rate-limit scope, in the words of a tool's caller. */
const SCOPE_TOOLS: Record<RateScope, { tools: string; limit: string; other: string }> = {
  metered: {
    tools: "the vendor, product and price tools",
    limit: "the API's limit on metered requests (vendors, products and prices, counted per account against the plan)",
    other: "the research and study tools are limited apart and may still work",
  },
  research: {
    tools: "the research and study tools",
    limit: "the API's limit on research and study requests",
    other: "the vendor, product and price tools are limited apart and may still work",
  },
};

/**
 * When to call again. A rate-limit window holds every tool of its scope (pep paces each
 * scope apart, as the API limits them); every tool fails only when every scope is spent.
 */
function callAgain(at: number, wait: string, scope: RateScope | undefined, f: FailureContext): string {
  if (!scope) return `${wait}: call this tool again after ${isoSecond(at)}; other tools may work meanwhile`;
  f.spent?.note(scope, at);
  const all = f.spent?.allUntil(f.now);
  if (all !== undefined)
    return `${wait}: the API's limits of both scopes (metered vendor, product and price requests, and research requests) are spent, so every tool that calls the API fails until ${isoSecond(all)} at least; this tool can be called again after ${isoSecond(at)}`;
  const s = SCOPE_TOOLS[scope];
  return `${wait}: ${s.limit} is spent, so ${s.tools} fail until ${isoSecond(at)}; call again after that; ${s.other}`;
}

/** How long the API asked to wait, or that pep assumed the documented 60 s. */
const waitWords = (waitS: number, assumed: boolean) =>
  assumed
    ? `the API sent no Retry-After, so pep assumes ${waitS} s, as the API documents`
    : `the API asks to wait ${waitS} s`;

/**
 * The error line. The API's own words (its message) are quoted as a JSON string, so that
 * text from the service stays visibly inside quotes, however it is worded; pep's own
 * messages are not quoted.
 */
function errorLine(err: PepError): string {
  if (err instanceof ApiError) {
    const parts = [`HTTP ${err.status}`];
    if (err.code) parts.push(cleanLine(err.code));
    if (err.requestId) parts.push(`request ${cleanLine(err.requestId)}`);
    return `the API answered ${JSON.stringify(cleanLine(err.message))} (${parts.join(", ")})`;
  }
  // The library's refusals name the command line's switch; a model knows the server as offline.
  return cleanLine(err.describe()).replace(/^--offline: /, "offline: ");
}

export function toolError(err: unknown, f: FailureContext, redact: Redact): ToolError {
  const lines: string[] = [];
  const hints: string[] = [];
  const { endpoint, config } = f;
  if (f.deferred && f.deferred.waitMs === 0) {
    lines.push(`error: ${f.deferred.reason}: the call reached this server's bound for one call and was stopped`);
    hints.push(
      `nothing asks to wait: call again now (from ${isoSecond(f.now)}); a smaller limit or fewer calls at once are answered sooner`,
    );
  } else if (f.deferred) {
    const waitS = Math.ceil(f.deferred.waitMs / 1000);
    const asks = f.deferred.assumed ? "pep assumes a wait" : "the API asks to wait";
    lines.push(`error: ${f.deferred.reason}, and ${asks} longer than this server waits in one call`);
    hints.push(callAgain(f.deferred.at, waitWords(waitS, f.deferred.assumed === true), f.deferred.scope, f));
  } else if (err instanceof PepError) {
    lines.push(`error: ${errorLine(err)}`);
    if (err instanceof AuthError && !config?.apiKey) {
      hints.push(`this tool needs an API key with the ${endpoint.scope} scope: ${KEY_FIX}`);
    } else if (err instanceof ApiError && err.status === 401) {
      hints.push(
        `the API did not accept ${keyWords(config)}: it is missing, mistyped, revoked or for another API; ${KEY_FIX.replace("with that scope", "that is valid")}`,
      );
    } else if (err instanceof ApiError && err.status === 403) {
      hints.push(
        `${keyWords(config)} lacks the ${endpoint.scope} scope that GET ${endpoint.path} needs; ${KEY_FIX}; tools of other scopes still work`,
      );
    } else if (err instanceof ApiError && err.status === 429) {
      const waitS =
        err.retryAfter !== undefined && Number.isFinite(err.retryAfter) ? Math.max(0, Math.ceil(err.retryAfter)) : 60;
      hints.push(
        callAgain(
          f.now + waitS * 1000,
          `rate limited: ${waitWords(waitS, err.retryAfter === undefined)}`,
          endpoint.metered ? "metered" : "research",
          f,
        ),
      );
    } else if (err instanceof UsageError && err.message.startsWith("--offline: ")) {
      hints.push(
        "this server answers from the local library (a synced copy), which reproduces only what it can answer exactly: call again without that argument, or with another tool",
      );
    } else if (err instanceof ApiError && err.status === 404) {
      hints.push(...(f.extra ?? []));
    } else if (
      (err instanceof ApiError && err.status >= 500) ||
      err instanceof NetworkError ||
      err instanceof ResponseError
    ) {
      hints.push(
        `the service did not answer usefully at ${config?.baseUrl ?? "the configured base URL"}: call again in a minute; if it keeps failing, check PEP_BASE_URL in the env of this server's entry in the client's configuration`,
      );
    }
    if (err instanceof UsageError || err instanceof ApiError)
      for (const h of err.hints) if (!forShell.test(h)) hints.push(h.replace(/^hint:\s*/, "").trim());
  } else {
    lines.push(`error: unexpected failure: ${cleanLine(err instanceof Error ? err.message : String(err))}`);
    hints.push("this is a bug in pep, not in the arguments; other tools should still work");
  }
  for (const h of hints) lines.push(`hint: ${h}`);
  return toolErrorText(lines, redact);
}
