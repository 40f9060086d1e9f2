/**
 * A failed call as a tool error: the command line's error line, its hints and exit code,
 * so a client reads the same facts a user of `pep` would. 401 and 403 name the scope the
 * key lacks; 429 says when to call again.
 */
import type { Endpoint } from "../api/endpoints.js";
import type { Context } from "../core/context.js";
import { explainAuthFailure } from "../api/auth-hints.js";
import { ApiError, EXIT, exitCodeFor, PepError } from "../core/errors.js";
import { cleanBlock, cleanLine } from "../output/sanitize.js";
import type { Redact } from "./result.js";

/** The name of each exit code, as the CLI's help lists them. */
const EXIT_NAMES: Record<number, string> = {
  [EXIT.unexpected]: "bug",
  [EXIT.usage]: "usage or 400",
  [EXIT.auth]: "auth",
  [EXIT.notFound]: "not found",
  [EXIT.rateLimited]: "rate limited",
  [EXIT.unavailable]: "service or network",
  [EXIT.interrupted]: "interrupted",
};

/** When to call again after a 429: the API's Retry-After, or the 60 s the spec assumes without one. */
function retryHint(err: ApiError, now: Date): string {
  const seconds =
    err.retryAfter !== undefined && Number.isFinite(err.retryAfter) ? Math.max(0, Math.ceil(err.retryAfter)) : 60;
  const at = new Date(now.getTime() + seconds * 1000).toISOString().replace(/\.\d+Z$/, "Z");
  const why = err.retryAfter !== undefined ? "the API asks to wait" : "the API sent no Retry-After; wait";
  return `rate limited: ${why} ${seconds} s; call again after ${at}`;
}

export interface ToolError {
  [key: string]: unknown;
  content: Array<{ type: "text"; text: string }>;
  isError: true;
}

export async function toolError(
  err: unknown,
  ctx: Context,
  endpoint: Endpoint,
  redact: Redact,
  now = new Date(),
): Promise<ToolError> {
  const explained = await explainAuthFailure(err, ctx, endpoint);
  const code = exitCodeFor(explained);
  const lines: string[] = [];
  if (explained instanceof PepError) {
    lines.push(`error: ${cleanLine(explained.describe())}`);
    for (const h of explained.hints) lines.push(h.startsWith("hint:") ? h : `hint: ${h.trim()}`);
    if (explained instanceof ApiError && explained.status === 429 && !explained.hints.some((h) => /wait/.test(h)))
      lines.push(`hint: ${retryHint(explained, now)}`);
  } else {
    lines.push(
      `error: unexpected failure: ${cleanLine(explained instanceof Error ? explained.message : String(explained))}`,
    );
    lines.push("hint: this is a bug in pep; please report it with the tool call that caused it");
  }
  lines.push(`exit code ${code} (${EXIT_NAMES[code] ?? "error"}) as the command line would give`);
  return { content: [{ type: "text", text: redact(cleanBlock(lines.join("\n"))) }], isError: true };
}
