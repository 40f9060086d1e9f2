/**
 * The configuration `pep mcp` runs with, checked when it starts instead of failing
 * before the protocol begins: a client that cannot start a server shows its user only
 * "connection closed". The server starts with any configuration; what is missing or
 * wrong is said in `initialize`'s instructions and in every tool error, in the terms of
 * the client's configuration file (the `env` of the server's entry), where the fix goes.
 */
import { DEFAULT_PROFILE, knownProfiles } from "../config/profile.js";
import type { Context } from "../core/command-context.js";
import type { ResolvedConfig } from "../config/types.js";
import { PepError } from "../core/errors.js";
import { cleanLine } from "../output/sanitize.js";

export interface Setup {
  /** What stops every tool from working, each with its fix; empty when the tools can run. */
  problems: string[];
  /** True when a key is configured (keyed tools can be offered). */
  hasKey: boolean;
  /** Scopes the profile's stored key was refused before (a 403 recorded by an earlier run). */
  refusedScopes: string[];
  /** The resolved settings, when they could be read. */
  config?: ResolvedConfig;
}

const WHERE = "in the env of this server's entry in the MCP client's configuration";

export async function inspectSetup(ctx: Context): Promise<Setup> {
  const problems: string[] = [];
  const env = ctx.io.env;
  let config: ResolvedConfig | undefined;
  let unusable: unknown;
  try {
    config = await ctx.config();
  } catch (err) {
    unusable = err;
  }
  // The sandbox is the whole configuration: no profile is read.
  const sandbox = config?.baseUrlSource === "sandbox";
  if (!sandbox && ctx.profile !== DEFAULT_PROFILE) {
    try {
      const stored = (await ctx.store()).profiles();
      if (!stored.includes(ctx.profile)) {
        const from = env.PEP_PROFILE === ctx.profile ? "PEP_PROFILE names" : "--profile names";
        problems.push(
          `${from} the profile "${cleanLine(ctx.profile)}", which is not in pep's config file (profiles: ${knownProfiles(stored).join(", ")}). Fix: set PEP_PROFILE to one of those ${WHERE}, or remove it and give PEP_BASE_URL and PEP_API_KEY there instead.`,
        );
      }
    } catch (err) {
      problems.push(
        `pep's config file cannot be read: ${messageOf(err)}. Fix the file, or give PEP_BASE_URL and PEP_API_KEY ${WHERE}.`,
      );
    }
  }
  if (unusable !== undefined)
    problems.push(
      `the configuration is not usable: ${messageOf(unusable)}. Fix it ${WHERE} (PEP_BASE_URL, PEP_API_KEY, PEP_PROFILE), then restart the server.`,
    );
  if (config && !config.baseUrl && problems.length === 0) {
    problems.push(
      `no API base URL is configured. Fix: add "PEP_BASE_URL" (the API's address, such as https://api.example.com/v1) ${WHERE} (or store base_url in the profile), then restart the server; or give the args ["mcp", "--sandbox"] to try synthetic data.`,
    );
  }
  let refusedScopes: string[] = [];
  if (config?.apiKey && config.apiKeySource === "config") {
    try {
      const { keyDigest } = await import("../config/key-digest.js");
      refusedScopes = (await ctx.store()).scopesSeen(config.profile, keyDigest(config.apiKey)).refused;
    } catch {
      // what was seen of the key is a convenience: without it every keyed tool is listed
    }
  }
  return { problems, hasKey: Boolean(config?.apiKey), refusedScopes, ...(config ? { config } : {}) };
}

function messageOf(err: unknown): string {
  if (err instanceof PepError) return cleanLine(err.describe());
  return cleanLine(err instanceof Error ? err.message : String(err));
}

/** The line of the instructions about a missing key. */
export const NO_KEY_LINE = `No API key is set, so the vendor, product and price tools are not listed. To use them, add "PEP_API_KEY" with the key as its value ${WHERE} and restart the server.`;

/** The line of the instructions about scopes the stored key was refused. */
export function refusedLine(scopes: readonly string[], profile: string): string {
  return `The API key stored in profile ${profile} was refused the ${scopes.join(", ")} scope${scopes.length > 1 ? "s" : ""} before (HTTP 403), so the tools needing ${scopes.length > 1 ? "them" : "it"} are not listed. To use them, set "PEP_API_KEY" ${WHERE} to a key with ${scopes.length > 1 ? "those scopes" : "that scope"} and restart the server.`;
}

export const KEY_FIX = `set "PEP_API_KEY" ${WHERE} to a key with that scope, then restart the server`;
