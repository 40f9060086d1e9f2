/**
 * The SQLite store: Node's built-in `node:sqlite` (Node 22.5 and later; nothing to build at
 * install). Node 20 has no `node:sqlite`: there `loadSqlite()` refuses with exit 2 and
 * says what to install, and nothing else of pep notices. Node 22 calls the module
 * experimental and warns once when it loads; that one warning is silenced, no other.
 *
 * The file is in WAL mode, set once when a sync first opens it and kept: a reader never
 * blocks a sync and a sync never blocks a reader. A reader's connection is one read
 * transaction, from its first statement to its close, so every read of a run sees the
 * same state of the library (`pep sql`, `pep changes`, `--offline`), whatever a sync
 * commits meanwhile. Python's sqlite3, the sqlite3 shell and DuckDB read it as it is.
 */
import { UsageError } from "../core/errors.js";
import { libraryFailure, told } from "./db-errors.js";
import { type Db, type Queryable, type Row, serialQueue } from "./db.js";

/** The part of node:sqlite used here (its types are not in @types/node 20). */
interface StatementSync {
  all(...params: unknown[]): Row[];
  get(...params: unknown[]): Row | undefined;
  run(...params: unknown[]): { changes: number | bigint };
  iterate(...params: unknown[]): IterableIterator<Row>;
  columns(): Array<{ name: string }>;
}
interface DatabaseSync {
  prepare(sql: string): StatementSync;
  exec(sql: string): void;
  close(): void;
}
interface SqliteModule {
  DatabaseSync: new (path: string, options?: { readOnly?: boolean; open?: boolean }) => DatabaseSync;
}

/** Milliseconds a statement waits for another connection's write to end. */
export const BUSY_TIMEOUT_MS = 15_000;

let loaded: SqliteModule | undefined;

/** The refusal on a Node without node:sqlite (Node 20, or 22 before 22.5). */
export function sqliteMissing(): UsageError {
  return new UsageError(
    `the local library needs Node.js 22.5 or later for its SQLite file (this is Node ${process.versions.node}, which has no node:sqlite)`,
    {
      hints: [
        "install Node.js 22 or 24 (https://nodejs.org, or nvm install 24), then run pep again",
        "or keep the library in PostgreSQL, which works on this Node: --db postgres://host/db (or PEP_DB)",
      ],
    },
  );
}

/** node:sqlite, loaded once, with Node 22's "SQLite is an experimental feature" warning held back. */
export function loadSqlite(): SqliteModule {
  if (loaded) return loaded;
  const emit = process.emitWarning;
  process.emitWarning = function (this: unknown, warning: string | Error, ...rest: unknown[]) {
    const text = typeof warning === "string" ? warning : warning.message;
    const type = typeof rest[0] === "string" ? rest[0] : (rest[0] as { type?: string } | undefined)?.type;
    const name = typeof warning === "string" ? type : warning.name;
    if (name === "ExperimentalWarning" && /\bSQLite\b/.test(text)) return;
    return (emit as (...a: unknown[]) => void).call(process, warning, ...rest);
  } as typeof process.emitWarning;
  try {
    const found = process.getBuiltinModule?.("node:sqlite") as SqliteModule | undefined;
    if (!found?.DatabaseSync) throw sqliteMissing();
    loaded = found;
    return loaded;
  } finally {
    process.emitWarning = emit;
  }
}

/** A value node:sqlite binds: flags as 1 and 0, missing values as NULL. */
function bindable(v: unknown): unknown {
  if (v === undefined) return null;
  if (typeof v === "boolean") return v ? 1 : 0;
  return v;
}

const plain = (row: Row): Row => ({ ...row });

/** Statements compiled once per connection: a sync runs the same few for every page. */
function statements(db: DatabaseSync): (sql: string) => StatementSync {
  const cache = new Map<string, StatementSync>();
  return (sql) => {
    let stmt = cache.get(sql);
    if (!stmt) {
      stmt = db.prepare(sql);
      if (cache.size < 200) cache.set(sql, stmt);
    }
    return stmt;
  };
}

function queryable(db: DatabaseSync): Queryable {
  const prepare = statements(db);
  return {
    async all<T = Row>(sql: string, params: readonly unknown[] = []) {
      return prepare(sql)
        .all(...params.map(bindable))
        .map(plain) as T[];
    },
    async get<T = Row>(sql: string, params: readonly unknown[] = []) {
      const row = prepare(sql).get(...params.map(bindable));
      return (row === undefined ? undefined : plain(row)) as T | undefined;
    },
    async run(sql: string, params: readonly unknown[] = []) {
      return Number(prepare(sql).run(...params.map(bindable)).changes);
    },
  };
}

/**
 * A writer's settings. WAL (kept in the file once set): a commit costs no fsync with
 * synchronous=NORMAL (about 10 ms each otherwise, most of a sync's time), readers are not
 * blocked by it, and a crash loses at most the last commits, never the file's
 * consistency. Foreign keys off, as in any SQLite client but node:sqlite. No checkpoint in the middle of a sync either (each costs an fsync): the
 * WAL is written into the file when the sync closes it, as far as no reader still needs it.
 */
function writerSetup(db: DatabaseSync): void {
  const mode = db.prepare("PRAGMA journal_mode").get() as { journal_mode?: string } | undefined;
  if (String(mode?.journal_mode).toLowerCase() !== "wal") db.exec("PRAGMA journal_mode = WAL");
  db.exec("PRAGMA synchronous = NORMAL; PRAGMA wal_autocheckpoint = 0");
  // The declared foreign keys are for readers (Datasette, sqlite-utils), not enforced:
  // a library holds prices of vendors it has not synced (docs/library.md). node:sqlite
  // enforces them unless told; every other SQLite client leaves them off too.
  db.exec("PRAGMA foreign_keys = OFF");
}

/** Opens (and unless `readOnly`, makes) the SQLite file at `file`. */
export function openSqlite(file: string, options: { readOnly: boolean }): Db {
  const sqlite = loadSqlite();
  const { readOnly } = options;
  let db: DatabaseSync | undefined;
  try {
    db = new sqlite.DatabaseSync(file, { readOnly });
    db.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
    if (readOnly) db.exec("PRAGMA query_only = 1; BEGIN");
    else writerSetup(db);
  } catch (err) {
    try {
      db?.close();
    } catch {
      // Not open: nothing to close.
    }
    throw libraryFailure(err, "sqlite", file, readOnly);
  }
  const open: DatabaseSync = db;
  const q = queryable(open);
  const queue = serialQueue();
  const tell = <T>(fn: () => Promise<T>) => told(fn, "sqlite", file, readOnly);
  let closed = false;
  return {
    dialect: "sqlite",
    location: file,
    readOnly,
    all: (sql, params) => queue(() => tell(() => q.all(sql, params))),
    get: (sql, params) => queue(() => tell(() => q.get(sql, params))),
    run: (sql, params) => queue(() => tell(() => q.run(sql, params))),
    exec: (sql) => queue(() => tell(async () => open.exec(sql))),
    transaction: (fn) =>
      queue(() =>
        tell(async () => {
          // A reader is in its read transaction already: its statements run there.
          if (readOnly) return fn(q);
          open.exec("BEGIN IMMEDIATE");
          try {
            const result = await fn(q);
            open.exec("COMMIT");
            return result;
          } catch (err) {
            try {
              open.exec("ROLLBACK");
            } catch {
              // Already rolled back by SQLite (a failed COMMIT): nothing left to undo.
            }
            throw err;
          }
        }),
      ),
    // In a process of its own, which a stop kills (library/sqlite-read.ts): the file is
    // opened there again, read-only, and nothing of this connection is shared. One
    // statement reads one state of the file: a sync's commit is seen whole or not at all.
    query: async (sql, readOptions = {}) => {
      const { readSqlite } = await import("./sqlite-read.js");
      return readSqlite(file, sql, { ...readOptions, busyMs: BUSY_TIMEOUT_MS });
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await queue(async () => {
        try {
          // The WAL into the file, without waiting for a reader that still reads an older
          // state (it is copied by a later close); the file stays in WAL mode.
          if (!readOnly) open.exec("PRAGMA busy_timeout = 0; PRAGMA wal_checkpoint(TRUNCATE)");
          else open.exec("COMMIT");
        } catch {
          // Nothing to end: the file was closed under it, or a checkpoint found it busy.
        }
        open.close();
      });
    },
  };
}
