/**
 * The library opened read-only for offline answers, one snapshot for the run (library/open.ts), where library/location.ts says it is
 * (`--db`, `PEP_DB`, the profile's `db`, else the profile's SQLite file in the data folder).
 */
import { libraryTarget } from "../library/location.js";
import { openLibraryAt } from "../library/open.js";
import type { SqlSource } from "./sql-reader.js";

export async function openLibraryForReading(o: {
  env: Record<string, string | undefined>;
  cwd: string;
  profile: string;
  db: string | undefined;
  /** Bound on a PostgreSQL connection and its statements (`--timeout`). */
  timeoutMs?: number | undefined;
}): Promise<SqlSource> {
  const lib = await openLibraryAt(libraryTarget(o.db, o.env, o.cwd, o.profile), {
    write: false,
    timeoutMs: o.timeoutMs,
  });
  return {
    dialect: lib.dialect,
    location: lib.location,
    all: (sql, params) => lib.db.all(sql, params),
    close: () => lib.close(),
  };
}
