/**
 * Resolves the settings of one run: flags > environment > profile > defaults (contract
 * section 1). For the key: `--api-key-file` > `PEP_API_KEY` > the profile's `api_key`.
 */
import type { AuthHeader, OutputFormat } from "../api/enums.js";
import type { GlobalOptions } from "../context.js";
import { keyTail } from "../http/key.js";
import type { IO } from "../io.js";
import { cacheDir, openConfigStore, readKeyFile, type ConfigStore } from "./store.js";
import type { ConfigKey, KeySource, ProfileValues, ResolvedConfig, ValueSource } from "./types.js";
import { parseConfigValue } from "./values.js";

export const DEFAULTS = { authHeader: "bearer" as AuthHeader, timeoutSeconds: 30, retries: 3, cache: true };

const ENV_OF: Partial<Record<ConfigKey, string>> = {
  base_url: "PEP_BASE_URL",
  auth_header: "PEP_AUTH_HEADER",
  output: "PEP_OUTPUT",
  timeout: "PEP_TIMEOUT",
  retries: "PEP_RETRIES",
};

const FLAG_OF: Partial<Record<ConfigKey, string>> = {
  base_url: "--base-url",
  auth_header: "--auth-header",
  output: "--output",
  timeout: "--timeout",
  retries: "--retries",
};

export function profileName(globals: GlobalOptions, env: IO["env"]): string {
  const name = globals.profile ?? env.PEP_PROFILE ?? "default";
  return name === "" ? "default" : name;
}

export async function resolveConfig(globals: GlobalOptions, io: IO, store: ConfigStore = openConfigStore(io.env)): Promise<ResolvedConfig> {
  const profile = profileName(globals, io.env);
  const stored: ProfileValues = store.profile(profile);

  const pick = <K extends ConfigKey>(key: K, flag: string | undefined): { value: ProfileValues[K]; source: ValueSource } | undefined => {
    if (flag !== undefined) return { value: parseConfigValue(key, flag, FLAG_OF[key] ?? key) as ProfileValues[K], source: "flag" };
    const envName = ENV_OF[key];
    const envValue = envName ? io.env[envName] : undefined;
    if (envName && envValue !== undefined && envValue !== "") {
      return { value: parseConfigValue(key, envValue, envName) as ProfileValues[K], source: "env" };
    }
    if (stored[key] !== undefined) return { value: stored[key], source: "config" };
    return undefined;
  };

  const baseUrl = pick("base_url", globals.baseUrl);
  const authHeader = pick("auth_header", globals.authHeader);
  const output = pick("output", globals.output);
  const timeout = pick("timeout", globals.timeout);
  const retries = globals.retry === false ? { value: 0, source: "flag" as const } : pick("retries", globals.retries);

  let cache = stored.cache ?? DEFAULTS.cache;
  const envNoCache = io.env.PEP_NO_CACHE;
  if (envNoCache !== undefined && envNoCache !== "" && envNoCache !== "0") cache = false;
  if (globals.cache === false) cache = false;

  let apiKey: string | undefined;
  let apiKeySource: KeySource | undefined;
  if (globals.apiKeyFile !== undefined) {
    apiKey = await readKeyFile(globals.apiKeyFile, io.stdin, io.cwd);
    apiKeySource = globals.apiKeyFile === "-" ? "stdin" : "file";
  } else if (io.env.PEP_API_KEY !== undefined && io.env.PEP_API_KEY.trim() !== "") {
    apiKey = parseConfigValue("api_key", io.env.PEP_API_KEY, "PEP_API_KEY") as string;
    apiKeySource = "env";
  } else if (stored.api_key !== undefined) {
    apiKey = stored.api_key;
    apiKeySource = "config";
  }

  return {
    profile,
    baseUrl: baseUrl?.value as string | undefined,
    baseUrlSource: baseUrl?.source,
    apiKey,
    apiKeySource,
    authHeader: (authHeader?.value as AuthHeader | undefined) ?? DEFAULTS.authHeader,
    output: output?.value as OutputFormat | undefined,
    timeoutSeconds: (timeout?.value as number | undefined) ?? DEFAULTS.timeoutSeconds,
    retries: (retries?.value as number | undefined) ?? DEFAULTS.retries,
    cache,
    pager: stored.pager,
    configFile: store.file,
    cacheDir: cacheDir(io.env),
  };
}

/** `…abcd` for `auth status` and `config list` (`****` for a short key; see keyTail). */
export function fingerprint(key: string): string {
  const tail = keyTail(key);
  return tail ? `…${tail}` : "****";
}
