/** Types of the configuration: what a profile holds and what a run resolves to. */
import type { AuthHeader, OutputFormat } from "../api/enums.js";

/** Keys a profile may hold (`pep config set <key> <value>`). */
export const CONFIG_KEYS = ["base_url", "api_key", "auth_header", "output", "timeout", "retries", "cache", "pager"] as const;
export type ConfigKey = (typeof CONFIG_KEYS)[number];

export interface ProfileValues {
  base_url?: string;
  api_key?: string;
  auth_header?: AuthHeader;
  output?: OutputFormat;
  timeout?: number;
  retries?: number;
  cache?: boolean;
  /** The pager command on a terminal (`cat` or empty: none). */
  pager?: string;
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
  authHeader: AuthHeader;
  output: OutputFormat | undefined;
  timeoutSeconds: number;
  retries: number;
  cache: boolean;
  /** The profile's pager command, if set (PEP_PAGER and PAGER are read where it starts). */
  pager: string | undefined;
  /** Full path of the config file (it may not exist yet). */
  configFile: string;
  /** Folder of the ETag cache. */
  cacheDir: string;
}
