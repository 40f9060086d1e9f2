/** Types of the configuration: what a profile holds and what a run resolves to. */
import type { AuthHeader, OutputFormat } from "../api/enums.js";
import type { ProxySettings } from "../http/proxy.js";

/** Keys a profile may hold (`pep config set <key> <value>`). */
export const CONFIG_KEYS = [
  "base_url",
  "api_key",
  "auth_header",
  "output",
  "timeout",
  "retries",
  "cache",
  "cache_max_mb",
  "proxy",
  "compress",
  "formula_guard",
  "max_response_mb",
  "pager",
  "db",
  "offline",
] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export interface ProfileValues {
  base_url?: string;
  api_key?: string;
  auth_header?: AuthHeader;
  output?: OutputFormat;
  timeout?: number;
  retries?: number;
  cache?: boolean;
  proxy?: string;
  compress?: boolean;
  formula_guard?: boolean;
  max_response_mb?: number;
  cache_max_mb?: number;
  /** The pager command on a terminal (`cat` or empty: none). */
  pager?: string;
  /** Where the local library lives: a SQLite file path or a postgres:// URL. */
  db?: string;
  /** Answer list and get commands from the local library (as `--offline`). */
  offline?: boolean;
}

export type KeySource = "file" | "stdin" | "env" | "config" | "sandbox";
export type ValueSource = "flag" | "env" | "config" | "default" | "sandbox";

/** Settings of one run after flags > env > profile > defaults. */
export interface ResolvedConfig {
  profile: string;
  baseUrl: string | undefined;
  baseUrlSource: ValueSource | undefined;
  apiKey: string | undefined;
  apiKeySource: KeySource | undefined;
  /** The origin the profile's stored key is bound to (key-origin.ts), when one is stored. */
  storedKeyOrigin: string | undefined;
  /** The stored key was not taken: it belongs to another origin than this run's base URL. */
  keyWithheld: { origin: string | undefined; runOrigin: string } | undefined;
  authHeader: AuthHeader;
  output: OutputFormat | undefined;
  timeoutSeconds: number;
  retries: number;
  cache: boolean;
  /** Proxies per scheme and NO_PROXY: `--proxy` > the profile's `proxy` > the environment. */
  proxy: ProxySettings;
  /** Ask for compressed answers (false with --no-compress or `compress false`). */
  compress: boolean;
  /** CSV/TSV cells that a spreadsheet would run get a leading `'` (false with --no-formula-guard). */
  formulaGuard: boolean;
  /** Most MiB of one answer's body. */
  maxResponseMb: number;
  /** The profile's pager command, if set (PEP_PAGER and PAGER are read where it starts). */
  pager: string | undefined;
  /** The local library chosen by --db, PEP_DB or the profile's `db`; undefined: the profile's default file. */
  db: string | undefined;
  /** Full path of the config file (it may not exist yet). */
  configFile: string;
  /** Folder of the ETag cache. */
  cacheDir: string;
  /** Most bytes the ETag cache folder holds before its least recently used entries go. */
  cacheMaxBytes: number;
}

/** The in-process sandbox of `--sandbox`: above every other source of the URL and key. */
export interface SandboxSource {
  baseUrl: string;
  apiKey: string;
}
