/**
 * The value of `--db`, `PEP_DB` and the profile key `db`: a SQLite file path or a
 * postgres:// URL. Checked here, with the other config values, without loading the
 * library's code (src/library/ loads only when a library command runs).
 */
import { hideUrlCredentials } from "../core/credentials.js";
import { UsageError } from "../core/errors.js";

export const isPostgresUrl = (value: string): boolean => /^postgres(?:ql)?:\/\//i.test(value.trim());

/** A PostgreSQL URL with its password masked: the one masking function (core/credentials.ts). */
export { hideUrlCredentials as maskDbUrl } from "../core/credentials.js";

/**
 * Why `value` (a postgres:// URL) does not name one host plainly, if it does not: it does
 * not parse, it has no host, it names several (`h1,h2`), or an `@` follows its host (a
 * password with an unencoded `/`, `?` or `#` would send its tail to DNS as a host name).
 * Checked before anything connects, so no such name is ever looked up.
 */
function notOneHost(value: string): string | undefined {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    return "it does not parse as a URL";
  }
  if (!u.hostname && !u.searchParams.get("host")) return "it names no host";
  if (u.hostname.includes(",")) return "it names several hosts";
  const afterScheme = value.slice(value.indexOf("//") + 2);
  const authorityEnd = afterScheme.search(/[/?#]/);
  const rest = authorityEnd === -1 ? "" : afterScheme.slice(authorityEnd);
  if (rest.includes("@")) return "an @ follows its host, so part of a password or user name would be read as the host";
  return undefined;
}

/**
 * Checks a `--db` / `PEP_DB` / `db` value (`where` names its origin): a path, or a
 * postgres URL. Any other scheme is refused naming what is accepted.
 */
export function checkDbValue(raw: string, where: string): string {
  const value = raw.trim();
  if (value === "") throw new UsageError(`${where} must be a file path or a postgres:// URL (got "")`);
  if (isPostgresUrl(value)) {
    const why = notOneHost(value);
    if (why !== undefined)
      throw new UsageError(
        `${where} is not a postgres:// URL pep can read as one host (got "${hideUrlCredentials(value)}"): ${why}`,
        {
          hints: [
            "percent-encode @ / ? # : in a user name or password (%40 %2F %3F %23 %3A), or give the password as ?password=… or in ~/.pgpass",
          ],
        },
      );
    return value;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new UsageError(
      `${where} must be a file path (SQLite) or a postgres:// URL (got "${hideUrlCredentials(value)}": that scheme is not supported)`,
    );
  }
  return value;
}
