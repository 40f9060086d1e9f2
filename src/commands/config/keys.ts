/**
 * What the `pep config` verbs share: checking a key name, and showing a stored value
 * (the API key only as its fingerprint, whatever the verb).
 */
import { closest } from "../../core/suggest.js";
import { keyEnding } from "../../core/key-display.js";
import { CONFIG_KEYS, type ConfigKey, type ProfileValues } from "../../config/config-types.js";
import { isConfigKey } from "../../config/config-values.js";
import { UsageError } from "../../core/errors.js";
import { hideUrlCredentials } from "../../core/credentials.js";
import { DEFAULTS } from "../../config/resolve.js";

/** Words other tools use for a key, by what they mean. */
const KEY_MEANINGS: Readonly<Record<string, ConfigKey>> = {
  url: "base_url",
  base: "base_url",
  host: "base_url",
  endpoint: "base_url",
  key: "api_key",
  token: "api_key",
  apikey: "api_key",
  format: "output",
  output_format: "output",
};

/** `base_url` or `base-url` -> `base_url`; an unknown key exits 2 listing the keys. */
export function checkKey(raw: string | undefined): ConfigKey {
  const key = (raw ?? "").trim().toLowerCase().replace(/-/g, "_");
  if (isConfigKey(key)) return key;
  const near = KEY_MEANINGS[key] ?? closest(key, CONFIG_KEYS);
  throw new UsageError(`unknown config key "${raw ?? ""}"`, {
    hints: [
      ...(near ? [`Did you mean \`${near}\`?`] : []),
      `keys: ${CONFIG_KEYS.join(", ")}; \`pep config set --help\` tells what each accepts`,
    ],
  });
}

/**
 * A stored value as shown to the user: the key as `…abcd`, a proxy URL without its user
 * and password (`http://…@host:port`), the rest as stored.
 */
export function shown(key: ConfigKey, value: ProfileValues[ConfigKey]): string | number | boolean | undefined {
  if (value === undefined) return undefined;
  if (key === "api_key") return keyEnding(String(value));
  if (key === "proxy" || key === "db" || key === "base_url") return hideUrlCredentials(String(value));
  return value;
}

/** The profile's values in CONFIG_KEYS order, the key as a fingerprint. */
export function shownProfile(values: ProfileValues): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const k of CONFIG_KEYS) {
    const v = shown(k, values[k]);
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * What an unset key means, by its default: concrete values (printed by `config get`,
 * listed by `config list` under `defaults`), and the rules of the keys whose default
 * depends on the run (said, not printed as a value).
 */
export const DEFAULT_VALUES: Partial<Record<ConfigKey, string | number | boolean>> = {
  auth_header: DEFAULTS.authHeader,
  timeout: DEFAULTS.timeoutSeconds,
  retries: DEFAULTS.retries,
  cache: DEFAULTS.cache,
  cache_max_mb: DEFAULTS.cacheMaxMb,
  compress: DEFAULTS.compress,
  max_response_mb: DEFAULTS.maxResponseMb,
  formula_guard: true,
  offline: false,
};

export const DEFAULT_RULES: Partial<Record<ConfigKey, string>> = {
  output: "table on a terminal, json otherwise",
  pager: "PAGER, else less -FRX",
};
