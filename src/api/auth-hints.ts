/**
 * Explains a 401 or 403 from a keyed endpoint: which key was used (its fingerprint and
 * where it came from) and which scope the endpoint needs. A bare "HTTP 403" leaves the
 * user guessing between a wrong key and a key without the right scope; this tells them.
 */
import type { Endpoint } from "./endpoints.js";
import { keyEnding } from "../core/key-display.js";
import type { KeySource } from "../config/config-types.js";
import type { Context } from "../core/command-context.js";
import { ApiError } from "../core/errors.js";
import type { ListResult } from "../core/command.js";

/** Where a key came from, in words: "stored in profile default", "from PEP_API_KEY". */
export function keySourceText(source: KeySource | undefined, profile: string): string {
  switch (source) {
    case "config":
      return `stored in profile ${profile}`;
    case "env":
      return "from PEP_API_KEY";
    case "file":
      return "from --api-key-file";
    case "stdin":
      return "from standard input";
    case "sandbox":
      return "the sandbox key";
    default:
      return "none set";
  }
}

/**
 * Adds hints to a 401/403 ApiError (in place) and returns it; other errors pass through.
 * `endpoint` is undefined for `pep api`, where the scope is not known.
 */
export async function explainAuthFailure(err: unknown, ctx: Context, endpoint?: Endpoint): Promise<unknown> {
  if (!(err instanceof ApiError) || (err.status !== 401 && err.status !== 403) || err.hints.length > 0) return err;
  let key = "no key";
  let base = "the API";
  try {
    const cfg = await ctx.config();
    if (cfg.apiKey) key = `the key ${keyEnding(cfg.apiKey)} (${keySourceText(cfg.apiKeySource, cfg.profile)})`;
    if (cfg.baseUrl) base = cfg.baseUrl;
  } catch {
    // the config was read once already for the request; keep the generic wording
  }
  const scope = endpoint ? `the ${endpoint.scope} scope` : "the scope of this endpoint";
  const what = endpoint ? `GET ${endpoint.path}` : "this endpoint";
  if (err.status === 401) {
    err.hints.push(
      key === "no key"
        ? `${what} needs an API key and none was sent; run \`pep auth login\` to store one, or give --api-key-file <path|-> or PEP_API_KEY`
        : `${base} did not accept ${key}: it is missing, mistyped, revoked or for another API; run \`pep auth status\` to check it, or \`pep auth login\` to store a new one`,
    );
  } else {
    err.hints.push(
      `${base} knows ${key}, but it lacks ${scope} that ${what} needs; create a key with ${endpoint ? endpoint.scope : "that scope"} in the developer dashboard and run \`pep auth login\``,
    );
  }
  return err;
}

/** A list whose failures, met while the output layer iterates it, are explained too. */
export function explainedList(result: ListResult, ctx: Context, endpoint: Endpoint): ListResult {
  const source = result.items;
  async function* items(): AsyncGenerator<unknown, void, undefined> {
    try {
      yield* source;
    } catch (err) {
      throw await explainAuthFailure(err, ctx, endpoint);
    }
  }
  return { ...result, items: { [Symbol.asyncIterator]: () => items() } };
}

/** Runs one call and explains an auth failure from it. */
export async function explained<T>(ctx: Context, endpoint: Endpoint | undefined, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw await explainAuthFailure(err, ctx, endpoint);
  }
}
