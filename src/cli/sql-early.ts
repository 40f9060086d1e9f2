/**
 * `pep sql`'s early start: a bundle of its own (dist/sql-early.js) that bin/pep.js runs
 * before it loads the program. On a SQLite library the statement runs in a process of its
 * own (library/sqlite-read.ts), and Node's start-up is most of what that process costs:
 * started here, it starts up on the other core while the program loads, not after. It
 * waits for its statement, which the program sends once it has opened and checked the
 * library as ever (library/sqlite-runner.ts leaves it for the query to take).
 *
 * It starts only for a run that will most likely take it: `sql` with a query (not
 * --tables, --schema or help) on a Node with node:sqlite, and no PostgreSQL in sight
 * (`--db`, else PEP_DB, a postgres:// URL; else a postgres:// URL anywhere in the config
 * file, whichever profile it is in). A guess, never a decision: the program chooses the
 * library as it always does, and a process no query takes ends with the run (it holds
 * nothing open, is killed at exit, and leaves by itself when its parent goes).
 */
import { closeSync, readSync } from "node:fs";
import path from "node:path";
import { isPostgresUrl } from "../config/db-value.js";
import { CONFIG_FILE_NAME, configDir, type Env } from "../config/locations.js";
import { openPlain } from "../core/trusted-file.js";
import { leaveEarlyRunner, startRunner } from "../library/sqlite-runner.js";

/** How much of the config file the guess reads: far more than any profile list holds. */
const CONFIG_HEAD_BYTES = 256 * 1024;

/** Options that end the guess: the query is not run (help, a listing instead). */
const NO_QUERY = new Set(["--tables", "--schema", "--help", "-h"]);

/** The value of `--db` given in `argv`, the last one, if any. */
function dbFlag(argv: readonly string[]): string | undefined {
  let value: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "--db") value = argv[++i];
    else if (word.startsWith("--db=")) value = word.slice("--db=".length);
  }
  return value;
}

/** Whether `argv` runs `pep sql` with a query: `sql` the first word that is no option (nor --profile's or --db's value). */
export function runsSqlQuery(argv: readonly string[]): boolean {
  let at = -1;
  for (let i = 0; i < argv.length && at < 0; i++) {
    if (argv[i] === "--profile" || argv[i] === "--db") i++;
    else if (!argv[i]!.startsWith("-")) at = i;
  }
  if (at < 0 || argv[at] !== "sql") return false;
  return !argv.some((w) => NO_QUERY.has(w) || w.startsWith("--schema="));
}

/** Whether the library of this run is likely SQLite: `readConfig` gives the config file's text, or undefined. */
export function likelySqlite(argv: readonly string[], env: Env, readConfig: () => string | undefined): boolean {
  const flag = dbFlag(argv);
  if (flag !== undefined) return !isPostgresUrl(flag);
  if (env.PEP_DB) return !isPostgresUrl(env.PEP_DB);
  return !/postgres(?:ql)?:\/\//i.test(readConfig() ?? "");
}

/** Whether this Node has node:sqlite (22.5 and later). */
export function hasNodeSqlite(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 22 || (major === 22 && minor >= 5);
}

/** Starts the query's process when the run will likely take it: its pid, else undefined. Never throws. */
export function startSqlEarly(argv: readonly string[], env: Env): number | undefined {
  try {
    if (!runsSqlQuery(argv) || !hasNodeSqlite(process.versions.node)) return undefined;
    // The config file as the store opens it (a plain file, without waiting on a pipe), its
    // head only: a guess needs no more, and the program reads and checks it whole later.
    const readConfig = () => {
      try {
        const fd = openPlain(path.join(configDir(env), CONFIG_FILE_NAME), () => new Error("not a plain file"));
        try {
          const head = Buffer.alloc(CONFIG_HEAD_BYTES);
          return head.toString("utf8", 0, readSync(fd, head, 0, head.length, 0));
        } finally {
          closeSync(fd);
        }
      } catch {
        return undefined;
      }
    };
    if (!likelySqlite(argv, env, readConfig)) return undefined;
    // Node's loader, as node:sqlite is: an import would load it for every run of this bundle.
    const { spawn } = process.getBuiltinModule("node:child_process") as typeof import("node:child_process");
    const runner = startRunner(spawn);
    leaveEarlyRunner(runner);
    return runner.child.pid;
  } catch {
    return undefined;
  }
}
