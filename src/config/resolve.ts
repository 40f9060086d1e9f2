/**
 * Resolves the settings of one run: flags > environment > profile > defaults
 * (docs/cli.md#configuration-and-precedence). For the key: `--api-key-file` >
 * `PEP_API_KEY` > the profile's `api_key`. The in-process sandbox of `--sandbox`, when
 * running, is above them all: its URL, its key unless `--api-key-file` gives one, and no
 * ETag cache.
 */
import { envSwitch } from "../core/switches.js";
import type { AuthHeader, OutputFormat } from "../api/enums.js";
import type { GlobalOptions } from "../core/command-context.js";
import { checkKeyLength } from "../http/key.js";
import { parseProxyUrl, proxyFromEnv } from "../http/proxy.js";
import type { IO } from "../core/io.js";
import { profileName as profileOf } from "./profile.js";
import { readKeyFile } from "./key-file.js";
import { boundOrigin, originOf } from "./key-origin.js";
import { cacheDir, sandboxLibraryFile } from "./locations.js";
import { openConfigStore, type ConfigStore } from "./store.js";
import type {
  ConfigKey,
  KeySource,
  ProfileValues,
  ResolvedConfig,
  SandboxSource,
  ValueSource,
} from "./config-types.js";
import { checkBaseUrl, parseConfigValue } from "./config-values.js";

export const DEFAULTS = {
  authHeader: "bearer" as AuthHeader,
  timeoutSeconds: 30,
  retries: 3,
  cache: true,
  cacheMaxMb: 50,
  compress: true,
  maxResponseMb: 32,
};

const ENV_OF: Partial<Record<ConfigKey, string>> = {
  base_url: "PEP_BASE_URL",
  auth_header: "PEP_AUTH_HEADER",
  output: "PEP_OUTPUT",
  timeout: "PEP_TIMEOUT",
  retries: "PEP_RETRIES",
  cache_max_mb: "PEP_CACHE_MAX_MB",
  db: "PEP_DB",
};

const FLAG_OF: Partial<Record<ConfigKey, string>> = {
  base_url: "--base-url",
  auth_header: "--auth-header",
  output: "--output",
  timeout: "--timeout",
  retries: "--retries",
  db: "--db",
};

/** `pep --profile x`: see config/profile.ts. */
export function profileName(globals: GlobalOptions, env: IO["env"]): string {
  return profileOf(globals.profile, env);
}

/**
 * The base URL of a run and where it comes from: the sandbox, else --base-url, else
 * PEP_BASE_URL, else the profile's `base_url`; undefined when none is known. A bad
 * --base-url or PEP_BASE_URL is refused (exit 2) even when the sandbox takes its place.
 * Reads nothing else: `auth login` asks it before the key is read from anywhere.
 */
export function resolveBaseUrl(
  flag: string | undefined,
  env: IO["env"],
  stored: ProfileValues,
  sandbox?: SandboxSource,
): { value: string; source: ValueSource } | undefined {
  let given: { value: string; source: ValueSource } | undefined;
  const envValue = env.PEP_BASE_URL;
  if (flag !== undefined) given = { value: checkBaseUrl(flag, "--base-url"), source: "flag" };
  else if (envValue !== undefined && envValue !== "")
    given = { value: checkBaseUrl(envValue, "PEP_BASE_URL"), source: "env" };
  else if (stored.base_url !== undefined) given = { value: stored.base_url, source: "config" };
  return sandbox ? { value: sandbox.baseUrl, source: "sandbox" } : given;
}

/** The ETag cache is on unless the profile, PEP_NO_CACHE, --no-cache or the in-process sandbox turns it off. */
function cacheOn(globals: GlobalOptions, env: IO["env"], stored: ProfileValues, sandbox: SandboxSource | undefined) {
  if (envSwitch(env, "PEP_NO_CACHE")) return false;
  if (globals.cache === false || sandbox) return false;
  return stored.cache ?? DEFAULTS.cache;
}

/** The key: `--api-key-file` > the in-process sandbox's > `PEP_API_KEY` > the profile's, and where it came from. */
async function resolveApiKey(
  globals: GlobalOptions,
  io: Pick<IO, "env" | "stdin" | "cwd">,
  stored: ProfileValues,
  sandbox: SandboxSource | undefined,
  bound: { origin: string | undefined; runOrigin: string | undefined },
): Promise<{
  apiKey: string | undefined;
  apiKeySource: KeySource | undefined;
  withheld?: { origin: string | undefined; runOrigin: string };
}> {
  if (globals.apiKeyFile !== undefined) {
    const apiKey = await readKeyFile(globals.apiKeyFile, io.stdin, io.cwd);
    checkKeyLength(apiKey, `--api-key-file ${globals.apiKeyFile}`);
    return { apiKey, apiKeySource: globals.apiKeyFile === "-" ? "stdin" : "file" };
  }
  if (sandbox) return { apiKey: sandbox.apiKey, apiKeySource: "sandbox" };
  if (io.env.PEP_API_KEY !== undefined && io.env.PEP_API_KEY.trim() !== "")
    return { apiKey: parseConfigValue("api_key", io.env.PEP_API_KEY, "PEP_API_KEY") as string, apiKeySource: "env" };
  if (stored.api_key !== undefined) {
    checkKeyLength(stored.api_key, `the api_key of profile ${profileOf(globals.profile, io.env)}`);
    // The stored key goes only to the origin it was stored for (key-origin.ts).
    if (bound.runOrigin !== undefined && bound.origin !== bound.runOrigin)
      return {
        apiKey: undefined,
        apiKeySource: undefined,
        withheld: { origin: bound.origin, runOrigin: bound.runOrigin },
      };
    return { apiKey: stored.api_key, apiKeySource: "config" };
  }
  return { apiKey: undefined, apiKeySource: undefined };
}

export async function resolveConfig(
  globals: GlobalOptions,
  io: Pick<IO, "env" | "stdin" | "cwd">,
  store: ConfigStore = openConfigStore(io.env),
  sources: { sandbox?: SandboxSource | undefined } = {},
): Promise<ResolvedConfig> {
  const { sandbox } = sources;
  const profile = profileName(globals, io.env);
  const stored: ProfileValues = store.profile(profile);

  const pick = <K extends ConfigKey>(
    key: K,
    flag: string | undefined,
  ): { value: ProfileValues[K]; source: ValueSource } | undefined => {
    if (flag !== undefined)
      return { value: parseConfigValue(key, flag, FLAG_OF[key] ?? key) as ProfileValues[K], source: "flag" };
    const envName = ENV_OF[key];
    const envValue = envName ? io.env[envName] : undefined;
    if (envName && envValue !== undefined && envValue !== "") {
      return { value: parseConfigValue(key, envValue, envName) as ProfileValues[K], source: "env" };
    }
    if (stored[key] !== undefined) return { value: stored[key], source: "config" };
    return undefined;
  };

  const baseUrl = resolveBaseUrl(globals.baseUrl, io.env, stored, sandbox);
  const authHeader = pick("auth_header", globals.authHeader);
  const output = pick("output", globals.output);
  const timeout = pick("timeout", globals.timeout);
  const retries = globals.retry === false ? { value: 0, source: "flag" as const } : pick("retries", globals.retries);

  const cache = cacheOn(globals, io.env, stored, sandbox);

  // Proxies: --proxy > the profile's proxy (both for every scheme) > the environment.
  // NO_PROXY applies to all three.
  const envProxy = proxyFromEnv(io.env);
  const proxyUrl = globals.proxy !== undefined ? parseProxyUrl(globals.proxy, "--proxy") : stored.proxy;
  const proxy = proxyUrl ? { http: proxyUrl, https: proxyUrl, noProxy: envProxy.noProxy } : envProxy;
  const compress = globals.compress === false ? false : (stored.compress ?? DEFAULTS.compress);

  const storedKeyOrigin =
    stored.api_key === undefined ? undefined : boundOrigin(store.keyOrigin(profile), stored.base_url);
  const { apiKey, apiKeySource, withheld } = await resolveApiKey(globals, io, stored, sandbox, {
    origin: storedKeyOrigin,
    runOrigin: originOf(baseUrl?.value as string | undefined),
  });
  // `pep --sandbox sql`, `changes` and `--offline` start no sandbox, but read its library all the same.
  const sandboxLibrary =
    globals.db === undefined && (sandbox !== undefined || globals.sandbox === true || envSwitch(io.env, "PEP_SANDBOX"));

  return {
    profile,
    baseUrl: baseUrl?.value as string | undefined,
    baseUrlSource: baseUrl?.source,
    apiKey,
    apiKeySource,
    storedKeyOrigin,
    keyWithheld: withheld,
    authHeader: (authHeader?.value as AuthHeader | undefined) ?? DEFAULTS.authHeader,
    output: output?.value as OutputFormat | undefined,
    timeoutSeconds: (timeout?.value as number | undefined) ?? DEFAULTS.timeoutSeconds,
    retries: (retries?.value as number | undefined) ?? DEFAULTS.retries,
    cache,
    proxy,
    compress,
    formulaGuard: globals.formulaGuard === false ? false : (stored.formula_guard ?? true),
    maxResponseMb: stored.max_response_mb ?? DEFAULTS.maxResponseMb,
    pager: stored.pager,
    // --sandbox uses a library of its own unless --db names one (PEP_DB and the profile's db are a real API's).
    db: sandboxLibrary ? sandboxLibraryFile(io.env, profile) : (pick("db", globals.db)?.value as string | undefined),
    configFile: store.file,
    cacheDir: cacheDir(io.env),
    cacheMaxBytes:
      ((pick("cache_max_mb", undefined)?.value as number | undefined) ?? DEFAULTS.cacheMaxMb) * 1024 * 1024,
  };
}
