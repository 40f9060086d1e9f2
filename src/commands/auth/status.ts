/**
 * `pep auth status`: which profile and base URL this run uses, where the key comes from,
 * its fingerprint (never the key), and whether the API accepts it (`GET /` with the key).
 * A refused key exits 3; no key at all exits 3 with the way to store one.
 */
import { keyEnding } from "../../config/key-ending.js";
import { ApiError, AuthError } from "../../errors.js";
import type { Run } from "../types.js";
import { keySourceText } from "../shared/auth-hints.js";

export const run: Run = async (_input, ctx) => {
  const cfg = await ctx.config();
  if (!cfg.apiKey) {
    throw new AuthError(`no API key is set for profile ${cfg.profile}`, {
      hints: [
        "Run `pep auth login` to store one, or give --api-key-file <path|-> or PEP_API_KEY.",
        "Research and study commands work without a key; vendors, products and prices need one.",
      ],
    });
  }
  const fp = keyEnding(cfg.apiKey);
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
        `${client.baseUrl} refused the key ${fp} (${source}) of profile ${cfg.profile}: ${err.describe()}`,
        { cause: err, hints },
      );
    }
    throw err;
  }
  const version =
    index && typeof index === "object" && "version" in index ? (index as { version?: unknown }).version : undefined;
  return {
    kind: "item",
    resource: "auth-status",
    data: {
      profile: cfg.profile,
      base_url: client.baseUrl,
      base_url_source: cfg.baseUrlSource ?? null,
      api_key: fp,
      api_key_source: cfg.apiKeySource ?? null,
      key_check: "accepted",
      ...(typeof version === "string" || typeof version === "number" ? { api_version: String(version) } : {}),
      config_file: cfg.configFile,
    },
  };
};
