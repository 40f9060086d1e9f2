/**
 * The value of `--db`, `PEP_DB` and the profile key `db`: a SQLite file path or a
 * postgres:// URL. Checked here, with the other config values, without loading the
 * library's code (src/library/ loads only when a library command runs).
 */
import { UsageError } from "../core/errors.js";

export const isPostgresUrl = (value: string): boolean => /^postgres(?:ql)?:\/\//i.test(value.trim());

/** A PostgreSQL URL with its password masked, for messages and `syncs`. */
export function maskDbUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = "***";
    return u.toString();
  } catch {
    return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
  }
}

/**
 * Checks a `--db` / `PEP_DB` / `db` value (`where` names its origin): a path, or a
 * postgres URL. Any other scheme is refused naming what is accepted.
 */
export function checkDbValue(raw: string, where: string): string {
  const value = raw.trim();
  if (value === "") throw new UsageError(`${where} must be a file path or a postgres:// URL (got "")`);
  if (isPostgresUrl(value)) {
    try {
      const u = new URL(value);
      if (!u.hostname && !u.searchParams.get("host")) throw new Error("no host");
    } catch {
      throw new UsageError(`${where} is not a valid postgres:// URL (got "${maskDbUrl(value)}")`);
    }
    return value;
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new UsageError(
      `${where} must be a file path (SQLite) or a postgres:// URL (got "${maskDbUrl(value)}": that scheme is not supported)`,
    );
  }
  return value;
}
