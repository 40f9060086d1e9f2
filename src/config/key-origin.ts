/**
 * A stored key belongs to the origin of the base URL it was stored with, as gh keeps one
 * token per host: `pep auth login` and `pep config set api_key` record it in the profile
 * as `api_key_origin`. A run whose base URL has another origin (a `PEP_BASE_URL` from a
 * `.envrc` or a CI file, a `--base-url`) sends no stored key and says so once; a key
 * given for the run (`PEP_API_KEY`, `--api-key-file`) is sent as before.
 *
 * A profile stored before origins were recorded has none: its key is taken to belong to
 * the profile's own `base_url`, which is where it was used until now. A key with neither
 * belongs to no origin and is sent nowhere until `pep auth login` stores it again.
 */

/** The profile field that holds the origin (kept in the file, not a config key). */
export const KEY_ORIGIN_FIELD = "api_key_origin";

/** `https://api.example.org` of `https://api.example.org/v1`; undefined when it does not parse. */
export function originOf(url: string | undefined): string | undefined {
  if (url === undefined) return undefined;
  try {
    const o = new URL(url).origin;
    return o === "null" ? undefined : o;
  } catch {
    return undefined;
  }
}

/** The origin a stored key belongs to: the one recorded, else (a profile from before) the profile's base URL's. */
export function boundOrigin(recorded: string | undefined, storedBaseUrl: string | undefined): string | undefined {
  return recorded ?? originOf(storedBaseUrl);
}

/** The line a run says once when it withholds the stored key; undefined when it does not. */
export function withheldLine(cfg: {
  profile: string;
  keyWithheld: { origin: string | undefined; runOrigin: string } | undefined;
}): string | undefined {
  return cfg.keyWithheld && withheldNotice(cfg.profile, cfg.keyWithheld.origin, cfg.keyWithheld.runOrigin);
}

/** The line a run says once when it withholds the stored key. */
export function withheldNotice(profile: string, origin: string | undefined, runOrigin: string): string {
  const owner =
    origin === undefined ? "belongs to no base URL (stored before pep recorded one)" : `belongs to ${origin}`;
  return `note: the stored key of profile ${profile} ${owner}, so it is not sent to ${runOrigin}, this run's base URL; \`pep auth login --base-url <url>\` stores a key for it, or give one for this run with PEP_API_KEY or --api-key-file`;
}
