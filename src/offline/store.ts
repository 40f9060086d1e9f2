/**
 * The library opened read-only for offline answers: where it is (`--db`, `PEP_DB`, the
 * profile's `db`, else the profile's SQLite file in the data folder) and a handle that
 * runs `?`-placeholder statements on it.
 */
import path from "node:path";
import os from "node:os";
import { existsSync } from "node:fs";
import { UsageError } from "../core/errors.js";
import type { SqlSource } from "./sql-reader.js";

type Env = Record<string, string | undefined>;

function dataDir(env: Env): string {
  if (env.PEP_DATA_DIR) return path.resolve(env.PEP_DATA_DIR);
  const home = env.HOME && path.isAbsolute(env.HOME) ? env.HOME : os.homedir();
  const base =
    env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, ".local", "share");
  return path.join(base, "pep");
}

interface Statement {
  all(...params: unknown[]): Record<string, unknown>[];
}
interface Database {
  prepare(sql: string): Statement;
  close(): void;
}

export async function openLibraryForReading(o: {
  env: Env;
  cwd: string;
  profile: string;
  db: string | undefined;
}): Promise<SqlSource> {
  const given = o.db ?? (o.env.PEP_DB?.trim() || undefined);
  if (given && /^postgres(?:ql)?:\/\//i.test(given))
    throw new UsageError("--offline: a PostgreSQL library is not supported by this build");
  const file = given ? path.resolve(o.cwd, given) : path.join(dataDir(o.env), "library", `${o.profile}.sqlite`);
  if (!existsSync(file))
    throw new UsageError(`--offline: there is no library at ${file}`, {
      hints: ["Run `pep sync` while online to make and fill it."],
    });
  const mod = process.getBuiltinModule?.("node:sqlite") as
    | { DatabaseSync: new (p: string, o?: { readOnly?: boolean }) => Database }
    | undefined;
  if (!mod?.DatabaseSync)
    throw new UsageError(`the local library needs Node.js 22.5 or later (this is Node ${process.versions.node})`);
  const db = new mod.DatabaseSync(file, { readOnly: true });
  return {
    dialect: "sqlite",
    location: file,
    async all<T>(sql: string, params: readonly unknown[] = []) {
      return db.prepare(sql).all(...params) as T[];
    },
    async close() {
      db.close();
    },
  };
}
