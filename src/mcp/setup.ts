/**
 * The configuration `pep mcp` runs with, checked when it starts instead of failing
 * before the protocol begins: a client that cannot start a server shows its user only
 * "connection closed". The server starts with any configuration; what is missing or
 * wrong is said in `initialize`'s instructions and in every tool error, in the terms of
 * the client's configuration file (the `env` of the server's entry), where the fix goes.
 */
import { DEFAULT_PROFILE, knownProfiles } from "../config/profile.js";
import type { Context } from "../core/command-context.js";
import type { ResolvedConfig } from "../config/config-types.js";
import { PepError } from "../core/errors.js";
import { cleanLine } from "../core/sanitize.js";
import { keyEnding } from "../core/key-display.js";

export interface Setup {
  /** What stops every tool from working, each with its fix; empty when the tools can run. */
  problems: string[];
  /** True when a key is configured (keyed tools can be offered). */
  hasKey: boolean;
  /** Answers come from the local library (`--offline`, PEP_OFFLINE, the profile's `offline`). */
  offline: boolean;
  /** Settings of pep mcp's own taken otherwise than given (`listing.ts`), said in the instructions; no tool fails for them. */
  notes: string[];
  /** Scopes the profile's stored key was refused before (a 403 recorded by an earlier run). */
  refusedScopes: string[];
  /** The resolved settings, when they could be read. */
  config?: ResolvedConfig;
}

/** What reading the setup needs of a run: its environment, profile, settings and config file. */
export type SetupContext = Pick<Context, "profile" | "config" | "store"> &
  Partial<Pick<Context, "offline" | "client">> & {
    readonly io: Pick<Context["io"], "env" | "stdin" | "stdout">;
  };

const WHERE = "in the env of this server's entry in the MCP client's configuration";

export async function inspectSetup(ctx: SetupContext, notes: readonly string[] = []): Promise<Setup> {
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
  const offline = ctx.offline === true;
  if (offline) {
    const problem = await libraryProblem(ctx, sandbox);
    if (problem) problems.push(problem);
  }
  if (config && !config.baseUrl && problems.length === 0 && !offline) {
    problems.push(
      `no API base URL is configured. Fix: add "PEP_BASE_URL" (the API's address, such as https://api.example.com/v1) ${WHERE} (or store base_url in the profile), then restart the server; or give the args ["mcp", "--sandbox"] to try synthetic data.`,
    );
  }
  const refusedScopes = config?.apiKey ? await refusedOf(ctx, config) : [];
  return {
    problems,
    notes: [...notes],
    hasKey: Boolean(config?.apiKey),
    offline,
    refusedScopes,
    ...(config ? { config } : {}),
  };
}

/** Why an offline server's library cannot answer, or undefined when it opens (it stays open for the calls). */
async function libraryProblem(ctx: SetupContext, sandbox: boolean): Promise<string | undefined> {
  // With --sandbox the library is the sandbox's own (library/sandbox/<profile>.sqlite), as
  // `pep --offline --sandbox` reads it: `pep --sandbox sync` fills it.
  try {
    await ctx.client?.();
    return undefined;
  } catch (err) {
    const fill = sandbox
      ? "run pep --sandbox sync to fill the sandbox's library"
      : "run pep sync while online to fill it";
    return `the server answers from the local library (offline), which cannot be opened: ${messageOf(err)}. Fix: ${fill}, or set PEP_DB to a synced library or remove PEP_OFFLINE (or the --offline argument) ${WHERE}; then restart the server.`;
  }
}

/**
 * Scopes the key was refused before: by pep mcp for any key (kept by digest in the cache
 * folder, `config/scopes-state.ts`), and by any command for a key stored in the profile.
 */
async function refusedOf(ctx: SetupContext, config: ResolvedConfig): Promise<string[]> {
  const key = config.apiKey!;
  const out = new Set<string>();
  try {
    const { refusedScopes } = await import("../config/scopes-state.js");
    for (const r of refusedScopes(ctx.io.env, key, Date.now())) out.add(r.scope);
    if (config.apiKeySource === "config") {
      const { keyFingerprint } = await import("../core/key-display.js");
      for (const scope of (await ctx.store()).scopesSeen(config.profile, keyFingerprint(key)).refused) out.add(scope);
    }
  } catch {
    // what was seen of the key is a convenience: without it every keyed tool is listed
  }
  return [...out];
}

/** Where the key comes from, in the terms of the client's configuration. */
export function keySource(config: ResolvedConfig): string {
  return config.apiKeySource === "env"
    ? "from PEP_API_KEY"
    : config.apiKeySource === "config"
      ? `stored in profile ${config.profile}`
      : config.apiKeySource === "sandbox"
        ? "the sandbox key"
        : "from a key file";
}

function messageOf(err: unknown): string {
  if (err instanceof PepError) return cleanLine(err.describe());
  return cleanLine(err instanceof Error ? err.message : String(err));
}

/** The line of the instructions about a missing key. */
export const NO_KEY_LINE = `No API key is set, so the vendor, product and price tools are not listed. To use them, add "PEP_API_KEY" with the key as its value ${WHERE} and restart the server.`;

/** The line of the instructions about scopes the key was refused. */
export function refusedLine(scopes: readonly string[], config: ResolvedConfig, when: "before" | "now"): string {
  const many = scopes.length > 1;
  const key = `The API key ${config.apiKey ? keyEnding(config.apiKey) : ""} (${keySource(config)})`;
  const told = when === "before" ? "before (HTTP 403; remembered for a week by the key's digest)" : "(HTTP 403)";
  return `${key} was refused the ${scopes.join(", ")} scope${many ? "s" : ""} ${told}, so the tools needing ${many ? "them" : "it"} are not listed. To use them, set "PEP_API_KEY" ${WHERE} to a key with ${many ? "those scopes" : "that scope"} and restart the server.`;
}

export const KEY_FIX = `set "PEP_API_KEY" ${WHERE} to a key with that scope, then restart the server`;
