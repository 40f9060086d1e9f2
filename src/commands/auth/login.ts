/**
 * `pep auth login`: takes a key (hidden prompt, `--with-key` on stdin, or
 * `--api-key-file`), checks it with `GET /`, and only then stores it in the profile,
 * with the base URL when `--base-url` gave it. A refused key (exit 3) or an unreachable
 * API (exit 6) stores nothing; with no base URL at all it stops before reading the key
 * (`needsBaseUrl`, checked in main.ts).
 */
import { keyEnding, keyFingerprint } from "../../core/key-display.js";
import { readKeyFile } from "../../config/key-file.js";
import type { KeySource } from "../../config/config-types.js";
import { parseConfigValue } from "../../config/config-values.js";
import type { Context } from "../../core/command-context.js";
import { ApiError, AuthError, PepError, UsageError } from "../../core/errors.js";
import type { Run } from "../../core/command.js";
import type { LOGIN_OPTIONS } from "./auth-options.js";
import { readHidden } from "./prompt.js";

const NOTHING_STORED = "Nothing was stored.";

/** The key came from --api-key-file (a file, or stdin with -). */
function fromKeyFile(source: KeySource | undefined): boolean {
  return source === "file" || source === "stdin";
}

/** The key to log in with, from wherever the user gave it. */
async function takeKey(ctx: Context, withKey: boolean): Promise<string> {
  const { io } = ctx;
  // The config has read --api-key-file already (stdin can be read only once).
  const cfg = await ctx.config();
  if (fromKeyFile(cfg.apiKeySource)) return cfg.apiKey!;
  if (withKey) return readKeyFile("-", io.stdin, io.cwd, "--with-key");
  if (!io.stdinIsTTY) {
    throw new UsageError("no terminal to ask for the key on", {
      hints: ["Pipe it in instead: `pep auth login --with-key < key.txt`, or use --api-key-file <path>."],
    });
  }
  const typed = await readHidden(io, "Paste your API key (input hidden): ");
  if (typed.trim() === "") throw new UsageError("no key was entered; nothing was stored");
  return parseConfigValue("api_key", typed, "the key") as string;
}

export const run: Run<typeof LOGIN_OPTIONS> = async (input, ctx) => {
  const withKey = input.opts.withKey === true;
  const cfg = await ctx.config();
  if (withKey && fromKeyFile(cfg.apiKeySource)) {
    throw new UsageError("give the key either on stdin with --with-key or with --api-key-file, not both");
  }
  const key = await takeKey(ctx, withKey);
  const client = await ctx.client(undefined, { apiKey: key, cache: false });

  try {
    await client.request("/", { noCache: true, signal: ctx.io.signal });
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      throw new AuthError(`${client.baseUrl} refused the key ${keyEnding(key)}: ${err.describe()}`, {
        cause: err,
        hints: [
          `${NOTHING_STORED} Check that the key is complete and made for this API, or create a new one in the developer dashboard.`,
        ],
      });
    }
    if (err instanceof PepError)
      err.hints.push(`${NOTHING_STORED} The key could not be checked; try again when ${client.baseUrl} answers.`);
    throw err;
  }

  // A --base-url given for this login is stored with the key, in one write: both or neither.
  const store = await ctx.store();
  const storeUrl = cfg.baseUrlSource === "flag" && store.profile(cfg.profile).base_url !== client.baseUrl;
  // The key is bound to this base URL's origin: no other origin is ever sent it (config/key-origin.ts).
  const origin = new URL(client.baseUrl).origin;
  await store.setValues(
    cfg.profile,
    storeUrl
      ? { base_url: client.baseUrl, api_key: key, api_key_origin: origin }
      : { api_key: key, api_key_origin: origin },
  );
  ctx.notice(
    `Logged in to ${client.baseUrl} as profile ${cfg.profile} (key ${keyEnding(key)}, fingerprint ${keyFingerprint(key)}), stored in ${store.file}${storeUrl ? " with the base URL" : ""}, for ${origin} only`,
  );

  if (ctx.io.env.PEP_API_KEY?.trim()) {
    ctx.notice(
      "note: PEP_API_KEY is set in this environment and takes precedence over the stored key; unset it to use this one.",
    );
  }
  if (store.profile(cfg.profile).base_url === undefined && cfg.baseUrlSource !== "sandbox") {
    ctx.notice(
      `note: profile ${cfg.profile} has no base_url; save this one with \`pep config set base_url ${client.baseUrl}\``,
    );
  }
  return { kind: "none" };
};
