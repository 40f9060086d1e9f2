/**
 * Parsing and checking of config values, whether they come from `pep config set`, an
 * environment variable or the config file itself. One place says what each key accepts.
 */
import { AUTH_HEADERS, CITATION_FORMATS, OUTPUT_FORMATS, type AuthHeader, type OutputFormat } from "../api/enums.js";
import { ConfigError, UsageError } from "../core/errors.js";
import { closest } from "../core/suggest.js";
import { checkKeyLength } from "../http/key.js";
import { parseProxyUrl } from "../http/proxy.js";
import { isKeyParam, KEY_IN_URL_HINT } from "../core/key-in-url.js";
import { checkDbValue } from "./db-value.js";
import { CONFIG_KEYS, type ConfigKey, type ProfileValues } from "./config-types.js";
import { hideUrlCredentials } from "../core/credentials.js";

export const ALL_FORMATS: readonly OutputFormat[] = [...OUTPUT_FORMATS, ...CITATION_FORMATS];

/** What each key accepts, for error messages and help. */
export const CONFIG_KEY_HELP: Record<ConfigKey, string> = {
  base_url: "an http(s) URL of the API, ending in /v1",
  api_key: "an API key (prefer `pep auth login`, which checks it first)",
  auth_header: `one of: ${AUTH_HEADERS.join(", ")}`,
  output: `one of: ${ALL_FORMATS.join(", ")}`,
  timeout: "seconds per request, a number greater than 0 and at most 3600",
  retries: "a whole number from 0 to 10",
  cache: "true or false",
  proxy: "an http(s) proxy URL such as http://proxy.example:3128 (used instead of HTTPS_PROXY/HTTP_PROXY)",
  compress: "true or false (ask for gzip, br or deflate answers)",
  formula_guard: "true or false (CSV/TSV cells a spreadsheet would run get a leading ')",
  max_response_mb: "the most MiB read of one answer, a whole number from 1 to 4096",
  cache_max_mb: "megabytes the ETag cache may hold, a whole number from 1 to 1000000 (default 50)",
  pager: 'a pager command, such as "less -FRX"; cat for none',
  db: "where the local library lives: a SQLite file path, or a postgres:// URL (default: a file per profile in $PEP_DATA_DIR, else $XDG_DATA_HOME/pep)",
  offline: "true or false (answer list and get commands from the local library, as --offline)",
};

export function isConfigKey(key: string): key is ConfigKey {
  return (CONFIG_KEYS as readonly string[]).includes(key);
}

export function checkBaseUrl(raw: string, where: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    const masked = hideUrlCredentials(raw);
    throw new UsageError(`${where} must be an http(s) URL, such as https://api.example.org/v1 (got "${masked}")`, {
      hints: masked === raw ? [] : [KEY_IN_URL_HINT],
    });
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UsageError(`${where} must be an http(s) URL (got protocol "${url.protocol}")`);
  }
  if (url.username || url.password)
    throw new UsageError(`${where} must not hold a user name or password`, { hints: [KEY_IN_URL_HINT] });
  if (url.search || url.hash) {
    const keyLike = [...url.searchParams.keys()].some(isKeyParam);
    throw new UsageError(`${where} must not have a query or fragment${keyLike ? ": never put a key in a URL" : ""}`, {
      hints: keyLike ? [KEY_IN_URL_HINT] : [],
    });
  }
  const clean = url.toString().replace(/\/+$/, "");
  if (!/\/v\d+$/.test(new URL(clean).pathname)) {
    throw new UsageError(
      `${where} must end in the API's version segment, such as https://api.example.org/v1 (got "${hideUrlCredentials(raw)}")`,
    );
  }
  return clean;
}

/** Parses one value for `key`; `where` names its origin for messages (`--timeout`, `PEP_TIMEOUT`). */
export function parseConfigValue(key: ConfigKey, raw: string, where: string): ProfileValues[ConfigKey] {
  const bad = (choices: readonly string[] = []) => {
    const best = closest(raw.trim(), choices);
    return new UsageError(`${where} must be ${CONFIG_KEY_HELP[key]} (got "${raw}")`, {
      hints: best ? [`Did you mean \`${best}\`?`] : [],
    });
  };
  switch (key) {
    case "base_url":
      return checkBaseUrl(raw, where);
    case "api_key": {
      const k = raw.trim();
      if (k === "" || /\s/.test(k)) throw new UsageError(`${where} must be a key without spaces`);
      checkKeyLength(k, where);
      return k;
    }
    case "auth_header": {
      const v = raw.trim().toLowerCase();
      if (!(AUTH_HEADERS as readonly string[]).includes(v)) throw bad(AUTH_HEADERS);
      return v as AuthHeader;
    }
    case "output": {
      const v = raw.trim().toLowerCase();
      if (!(ALL_FORMATS as readonly string[]).includes(v)) throw bad(ALL_FORMATS);
      return v as OutputFormat;
    }
    case "timeout": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(n) || n <= 0 || n > 3600) throw bad();
      return n;
    }
    case "retries": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isInteger(n) || n < 0 || n > 10) throw bad();
      return n;
    }
    case "pager": {
      // A command line, run on the user's own terminal: one line, no control characters.
      if (/[\x00-\x1f\x7f]/.test(raw)) throw bad();
      return raw.trim();
    }
    case "cache_max_mb": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isInteger(n) || n < 1 || n > 1_000_000) throw bad();
      return n;
    }
    case "proxy":
      return parseProxyUrl(raw, where);
    case "db":
      return checkDbValue(raw, where);
    case "max_response_mb": {
      const n = Number(raw);
      if (raw.trim() === "" || !Number.isInteger(n) || n < 1 || n > 4096) throw bad();
      return n;
    }
    case "compress":
    case "offline":
    case "formula_guard":
    case "cache": {
      const v = raw.toLowerCase();
      if (["true", "1", "yes", "on"].includes(v)) return true;
      if (["false", "0", "no", "off"].includes(v)) return false;
      throw bad();
    }
  }
}

/**
 * Checks a profile read from the config file: a value of the wrong type is a corrupt
 * file (named in the message), not something to guess at.
 */
export function checkStoredProfile(values: unknown, profile: string, file: string): ProfileValues {
  if (values === undefined) return {};
  if (!values || typeof values !== "object" || Array.isArray(values)) {
    throw new ConfigError(`config file ${file}: profile "${profile}" is not an object`, {
      hints: [`Fix or remove the file; \`pep config path\` prints where it is.`],
    });
  }
  const out: ProfileValues = {};
  for (const [key, value] of Object.entries(values as Record<string, unknown>)) {
    if (!isConfigKey(key)) continue; // unknown keys are kept in the file and ignored here
    const raw =
      typeof value === "string"
        ? value
        : typeof value === "number" || typeof value === "boolean"
          ? String(value)
          : undefined;
    if (raw === undefined) {
      throw new ConfigError(`config file ${file}: ${profile}.${key} must be ${CONFIG_KEY_HELP[key]}`);
    }
    try {
      (out as Record<string, unknown>)[key] = parseConfigValue(key, raw, `${profile}.${key} in ${file}`);
    } catch (e) {
      throw new ConfigError(e instanceof Error ? `config file: ${e.message}` : String(e));
    }
  }
  return out;
}
