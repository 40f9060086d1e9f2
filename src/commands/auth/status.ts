/**
 * `pep auth status`: which profile and base URL this run uses, where the key comes from,
 * its ending and fingerprint (never the key), whether the API accepts it (`GET /` with
 * the key), and the scopes keyed endpoints were seen to grant it or refuse it.
 * A refused key exits 3; no key at all exits 3 with the way to store one.
 */
import { SCOPES } from "../../api/enums.js";
import { keyEnding, keyFingerprint } from "../../core/key-display.js";
import { ApiError, AuthError } from "../../core/errors.js";
import type { Run } from "../../core/command.js";
import { keySourceText } from "../../api/auth-hints.js";

/** The sandbox's key has every scope (docs/cli.md#the-sandbox). */
const SANDBOX_SCOPES = SCOPES;

export const run: Run = async (_input, ctx) => {
  const cfg = await ctx.config();
  if (!cfg.apiKey && cfg.keyWithheld) {
    const { withheldNotice } = await import("../../config/key-origin.js");
    throw new AuthError(
      `the stored key of profile ${cfg.profile} belongs to ${cfg.keyWithheld.origin ?? "no base URL"}, not to ${cfg.keyWithheld.runOrigin} (this run's base URL${cfg.baseUrlSource ? `, from ${cfg.baseUrlSource}` : ""}), so it was not sent`,
      {
        hints: [withheldNotice(cfg.profile, cfg.keyWithheld.origin, cfg.keyWithheld.runOrigin).replace(/^note: /, "")],
      },
    );
  }
  if (!cfg.apiKey) {
    throw new AuthError(`no API key is set for profile ${cfg.profile}`, {
      hints: [
        "Run `pep auth login` to store one, or give --api-key-file <path|-> or PEP_API_KEY.",
        "Research and study commands work without a key; vendors, products and prices need one.",
      ],
    });
  }
  const ending = keyEnding(cfg.apiKey);
  const source = keySourceText(cfg.apiKeySource, cfg.profile);
  const client = await ctx.client();
  let index: unknown;
  try {
    index = (await client.request("/", { noCache: true, signal: ctx.io.signal })).data;
  } catch (err) {
    if (err instanceof ApiError && (err.status === 401 || err.status === 403)) {
      const hints = ["Run `pep auth login` to store a valid key."];
      if (cfg.apiKeySource === "env")
        hints.push("PEP_API_KEY is set and overrides the stored key; unset it to use the stored one.");
      throw new AuthError(
        `${client.baseUrl} refused the key ${ending} (${source}) of profile ${cfg.profile}: ${err.describe()}`,
        { cause: err, hints },
      );
    }
    throw err;
  }
  // The index names its version `api_version` (the sandbox, `pep index`); `version` is read too.
  const fields = index && typeof index === "object" ? (index as { api_version?: unknown; version?: unknown }) : {};
  const version = fields.api_version ?? fields.version;
  // The API names no endpoint that lists a key's scopes: these are what earlier runs saw
  // keyed endpoints grant (a success) or refuse (a 403) to this key.
  const fingerprint = keyFingerprint(cfg.apiKey);
  const seen = cfg.apiKeySource === "sandbox" ? undefined : (await ctx.store()).scopesSeen(cfg.profile, fingerprint);
  return {
    kind: "item",
    resource: "auth-status",
    data: {
      profile: cfg.profile,
      base_url: client.baseUrl,
      base_url_source: cfg.baseUrlSource ?? null,
      api_key: ending,
      fingerprint,
      api_key_source: cfg.apiKeySource ?? null,
      // Which origin a stored key belongs to (it is sent nowhere else); null for a key given for the run.
      api_key_origin: cfg.apiKeySource === "config" ? (cfg.storedKeyOrigin ?? null) : null,
      scopes_seen: seen ? seen.granted : [...SANDBOX_SCOPES],
      scopes_refused: seen ? seen.refused : [],
      key_check: "accepted",
      ...(typeof version === "string" || typeof version === "number" ? { api_version: String(version) } : {}),
      config_file: cfg.configFile,
    },
  };
};
