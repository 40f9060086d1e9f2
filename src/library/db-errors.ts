/**
 * A failure of the library's database, told as what it is (core/errors.ts LibraryError):
 * PostgreSQL's SQLSTATE and SQLite's result codes turned into the codes a script can
 * branch on. A credential the server refuses or a database that does not exist is not a
 * network failure (a retry cannot help); a server that went away is (exit 6, run again).
 * Anything else (a statement the database refuses, as `pep sql` may send) is left as it
 * came, for its caller to tell.
 */
import { LibraryError, PepError } from "../core/errors.js";
import type { Dialect } from "./db.js";

interface DbFailure {
  message?: string;
  /** PostgreSQL's SQLSTATE, or Node's errno name (ECONNREFUSED), or node:sqlite's ERR_SQLITE_ERROR. */
  code?: string;
  /** node:sqlite: SQLite's extended result code. */
  errcode?: number;
}

/** The grants a reader and the sync need (the team database of docs/library.md). */
const GRANT_HINT =
  "a reader needs CONNECT on the database, USAGE on the schema and SELECT on its tables; pep sync needs a role that owns the library's tables (docs/library.md, a team database)";

const RETRY_HINT = "run the same command again once the database is back: a sync goes on where it stopped";

/** PostgreSQL: the connection failed or was cut (class 08, shutdown, refused, reset, timed out). */
function pgGone(e: DbFailure): boolean {
  const code = e.code ?? "";
  if (/^08/.test(code) || ["57P01", "57P02", "57P03", "53300"].includes(code)) return true;
  if (["ECONNREFUSED", "ECONNRESET", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"].includes(code))
    return true;
  return /Connection terminated|connection timeout|Query read timeout|timeout expired|not queryable|Client was closed/i.test(
    e.message ?? "",
  );
}

function fromPostgres(e: DbFailure, location: string): LibraryError | undefined {
  const msg = (e.message ?? "").replace(/\s+/g, " ");
  switch (e.code) {
    case "28P01":
    case "28000":
      return new LibraryError("library_auth_failed", `the PostgreSQL server at ${location} refused the login: ${msg}`, {
        hints: ["check the user and password in --db or PEP_DB (postgres://user:password@host/db)"],
      });
    case "3D000":
    case "3F000":
      return new LibraryError("library_db_missing", `the PostgreSQL library at ${location} does not exist: ${msg}`, {
        hints: ["create the database (docs/library.md shows how), or point --db or PEP_DB at another"],
      });
    case "42501":
      return new LibraryError("library_permission_denied", `the PostgreSQL library at ${location}: ${msg}`, {
        hints: [GRANT_HINT],
      });
  }
  if (pgGone(e))
    return new LibraryError("library_unavailable", `the PostgreSQL library at ${location} cannot be reached: ${msg}`, {
      hints: [RETRY_HINT],
    });
  return undefined;
}

/** SQLite's primary result codes (the low byte of an extended one). */
const SQLITE_PERM = 3;
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;
const SQLITE_READONLY = 8;
const SQLITE_CANTOPEN = 14;

function fromSqlite(e: DbFailure, location: string, readOnly: boolean): LibraryError | undefined {
  if (typeof e.errcode !== "number") return undefined;
  const msg = (e.message ?? "").replace(/\s+/g, " ");
  switch (e.errcode & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return new LibraryError("library_busy", `the library ${location} is busy: ${msg}`, {
        hints: [
          "another program holds a lock on it (a sync, or a reader that keeps a write open); run again when it is done",
        ],
      });
    case SQLITE_PERM:
    case SQLITE_CANTOPEN:
      return new LibraryError("library_permission_denied", `the library ${location} cannot be opened: ${msg}`, {
        hints: ["check that the file and its folder are yours and readable (writable for pep sync)"],
      });
    case SQLITE_READONLY:
      // A reader's refused write is its caller's to tell (pep sql only reads).
      if (readOnly) return undefined;
      return new LibraryError("library_permission_denied", `the library ${location} cannot be written: ${msg}`, {
        hints: [
          "pep sync writes the file and the -wal and -shm files beside it: the file and its folder must be writable",
        ],
      });
  }
  return undefined;
}

/** `err` as a LibraryError when it is one of the failures above; else as it came. */
export function libraryFailure(err: unknown, dialect: Dialect, location: string, readOnly: boolean): unknown {
  if (err instanceof PepError || err === null || typeof err !== "object") return err;
  const e = err as DbFailure;
  const told = dialect === "postgres" ? fromPostgres(e, location) : fromSqlite(e, location, readOnly);
  return told ?? err;
}

/** `fn`'s promise, its failure told by libraryFailure. */
export async function told<T>(fn: () => Promise<T>, dialect: Dialect, location: string, readOnly: boolean): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw libraryFailure(err, dialect, location, readOnly);
  }
}
