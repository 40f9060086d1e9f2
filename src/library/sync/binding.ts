/**
 * A library is bound to the API it is synced from: the built-in sandbox (whatever its
 * port: the in-process sandbox listens on a new one each run) or one base URL. The
 * binding is kept in `meta` (key `api`); a library made before it was kept is bound to its
 * last sync's base URL (the sandbox when that sync's data was synthetic and served from
 * loopback). A sync from another API is refused (exit 2) unless `pep sync --rebind` asks
 * for it: synthetic data never enters a real library, nor one API's items another's, by
 * a changed setting or a forgotten flag. `--db` chooses a second library.
 */
import { hideUrlCredentials } from "../../core/credentials.js";
import { UsageError } from "../../core/errors.js";
import type { Queryable } from "../db.js";

export type ApiIdentity = { sandbox: true } | { sandbox: false; base_url: string };

/** The API of a sync: the sandbox, or its base URL (no credentials, no trailing slash). */
export function apiIdentity(baseUrl: string, sandbox: boolean): ApiIdentity {
  return sandbox ? { sandbox: true } : { sandbox: false, base_url: hideUrlCredentials(baseUrl).replace(/\/+$/, "") };
}

const loopback = (url: string): boolean => {
  try {
    const host = new URL(url).hostname;
    return host === "127.0.0.1" || host === "localhost" || host === "[::1]";
  } catch {
    return false;
  }
};

/** The API the library is bound to; undefined for a library never synced. */
export async function boundApi(db: Queryable): Promise<ApiIdentity | undefined> {
  const kept = await db.get<{ value: string }>("SELECT value FROM meta WHERE key = 'api'");
  if (kept) {
    try {
      const v = JSON.parse(kept.value) as { sandbox?: unknown; base_url?: unknown };
      if (v.sandbox === true) return { sandbox: true };
      if (typeof v.base_url === "string") return { sandbox: false, base_url: v.base_url };
    } catch {
      // An unreadable value: read the syncs instead.
    }
  }
  const last = await db.get<{ base_url: string; synthetic: unknown }>(
    "SELECT base_url, synthetic FROM syncs WHERE status <> 'running' ORDER BY id DESC LIMIT 1",
  );
  if (!last) return undefined;
  return apiIdentity(last.base_url, Number(last.synthetic) === 1 && loopback(last.base_url));
}

const sameApi = (a: ApiIdentity, b: ApiIdentity): boolean =>
  a.sandbox ? b.sandbox : !b.sandbox && a.base_url === b.base_url;

const described = (a: ApiIdentity): string => (a.sandbox ? "the built-in sandbox (synthetic data)" : a.base_url);

/**
 * Refuses a sync from another API than the library's (unless `rebind`), then binds the
 * library to this one. Only a holder of the sync lock may call it.
 */
export async function bindLibrary(
  db: Queryable,
  current: ApiIdentity,
  o: { rebind: boolean; location: string },
): Promise<void> {
  const bound = await boundApi(db);
  if (bound && !sameApi(bound, current) && !o.rebind) {
    throw new UsageError(
      `the library at ${o.location} holds data synced from ${described(bound)}; this sync is from ${described(current)}`,
      {
        hints: [
          "give this API a library of its own with --db <file> (or a postgres:// URL); --sandbox has one unless --db names another",
          `or run pep sync --rebind to make this library follow ${described(current)}: its items become that API's, each difference logged`,
        ],
      },
    );
  }
  await db.run(
    "INSERT INTO meta (key, value) VALUES ('api', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    [JSON.stringify(current)],
  );
}
