/**
 * `openLibrary(ctx, { write })`: the library of this run (library/location.ts says
 * where), opened and checked. For reading (`pep sql`, `pep changes`, `--offline`) it is
 * opened read-only, as one snapshot for the whole run (one read transaction in SQLite,
 * one REPEATABLE READ READ ONLY transaction in PostgreSQL), and never changed: a library
 * that does not exist yet, or whose schema is older or newer than this pep's, is exit 2
 * naming what to run. For writing (`pep sync`) it is made when missing and migrated.
 * Every failure closes what was opened, so no path leaves the run waiting on a connection.
 */
import type { Context } from "../core/command-context.js";
import { LibraryError, PepError, UsageError } from "../core/errors.js";
import type { Db, Dialect } from "./db.js";
import { checkKnown, migrate, schemaVersion } from "./migrations.js";
import { type LibraryTarget, libraryTarget, maskDbUrl, prepareLibraryFile } from "./location.js";
import { SCHEMA_VERSION } from "./schema.js";

/** A row of `syncs`. */
export interface SyncRecord {
  id: number;
  started_at: string;
  finished_at: string | null;
  base_url: string;
  api_version: string | null;
  pep_version: string;
  resources: string;
  requests: number;
  not_modified: number;
  items: number;
  added: number;
  changed: number;
  removed: number;
  status: "running" | "complete" | "partial";
  synthetic: number;
}

export interface Library {
  readonly db: Db;
  readonly dialect: Dialect;
  readonly target: LibraryTarget;
  /** The file path, or the URL with its password masked. */
  readonly location: string;
  /**
   * The column holding an item's JSON text exactly as the API sent it: `item` in SQLite,
   * `item_text` in PostgreSQL (where `item` is jsonb, which renormalises numbers).
   */
  readonly itemText: "item" | "item_text";
  /** Likewise for `details`: `body` (SQLite) or `body_text` (PostgreSQL). */
  readonly bodyText: "body" | "body_text";
  /** The last sync that finished (complete or partial), if any. */
  lastSync(): Promise<SyncRecord | undefined>;
  close(): Promise<void>;
}

/** No library at the place this run uses (exit 2, with the command that makes one). */
export class LibraryMissingError extends LibraryError {
  constructor(location: string) {
    super("library_missing", `there is no local library at ${location} yet`, {
      hints: ["run pep sync to fill it (pep sync studies for one resource); --db or PEP_DB chooses another library"],
    });
  }
}

/** A library made by an earlier pep: a reader never migrates it, `pep sync` does (exit 2). */
export class LibrarySchemaOldError extends LibraryError {
  constructor(location: string, version: number) {
    super(
      "library_schema_old",
      `the library at ${location} has schema version ${version}, older than this pep's (${SCHEMA_VERSION}); it was not changed`,
      {
        hints: [
          "run pep sync once (with a role that owns the library's tables) to bring it up to date; readers never change it",
        ],
      },
    );
  }
}

function wrap(db: Db, target: LibraryTarget): Library {
  const sqlite = db.dialect === "sqlite";
  return {
    db,
    dialect: db.dialect,
    target,
    location: db.location,
    itemText: sqlite ? "item" : "item_text",
    bodyText: sqlite ? "body" : "body_text",
    lastSync: () =>
      db.get<SyncRecord>("SELECT * FROM syncs WHERE status <> 'running' ORDER BY id DESC LIMIT 1").then((r) => r),
    close: () => db.close(),
  };
}

/** What an open needs besides the place: `timeoutMs` bounds a PostgreSQL connection (`--timeout`). */
export interface OpenOptions {
  write: boolean;
  hold?: (lib: Library) => Promise<void>;
  timeoutMs?: number | undefined;
}

async function openDb(target: LibraryTarget, readOnly: boolean, timeoutMs: number | undefined): Promise<Db> {
  if (target.kind === "postgres") {
    const { openPostgres } = await import("./postgres.js");
    return openPostgres(target.url, { readOnly, timeoutMs });
  }
  const { openSqlite } = await import("./sqlite.js");
  try {
    return openSqlite(target.file, { readOnly });
  } catch (err) {
    if (err instanceof PepError) throw err;
    throw new UsageError(`cannot open the library ${target.file}: ${(err as Error).message}`);
  }
}

/** A SQLite file that is not a database, or any other failure of the first look, as exit 2. */
async function versionOf(db: Db): Promise<number> {
  try {
    return await schemaVersion(db);
  } catch (err) {
    if (err instanceof PepError) throw err;
    throw new UsageError(`cannot read the library ${db.location}: ${(err as Error).message}`, {
      hints: ["is it a pep library? --db or PEP_DB chooses another one"],
    });
  }
}

/** Checks the version a reader found: the library must be there, and of this pep's schema. */
function checkReadable(version: number, target: LibraryTarget, location: string): void {
  checkKnown(version, location);
  if (version === 0) throw new LibraryMissingError(target.kind === "sqlite" ? target.file : maskDbUrl(target.url));
  if (version < SCHEMA_VERSION) throw new LibrarySchemaOldError(location, version);
}

/**
 * Opens the library at `target`; `write` makes it when missing and migrates it, after
 * `hold` (a sync's lock: a second sync waits there, before it touches the database).
 */
export async function openLibraryAt(target: LibraryTarget, options: OpenOptions): Promise<Library> {
  if (target.kind === "sqlite") {
    // node:sqlite first: on Node 20 the refusal says what to install, before any file is made.
    (await import("./sqlite.js")).loadSqlite();
    const { exists } = prepareLibraryFile(target.file, options.write);
    if (!exists) throw new LibraryMissingError(target.file);
  }
  const db = await openDb(target, !options.write, options.timeoutMs);
  const lib = wrap(db, target);
  try {
    if (options.write) {
      await options.hold?.(lib);
      checkKnown(await versionOf(db), db.location);
      await migrate(db);
    } else {
      // The reader's snapshot begins with this first read.
      checkReadable(await versionOf(db), target, db.location);
    }
  } catch (err) {
    await db.close();
    throw err;
  }
  return lib;
}

/** The library of this run: `--db`, `PEP_DB`, the profile's `db`, else the profile's file. */
export async function openLibrary(ctx: Context, options: Omit<OpenOptions, "timeoutMs">): Promise<Library> {
  const cfg = await ctx.config();
  const target = libraryTarget(cfg.db, ctx.io.env, ctx.io.cwd, cfg.profile);
  const lib = await openLibraryAt(target, { ...options, timeoutMs: cfg.timeoutSeconds * 1000 });
  ctx.onCleanup(async () => {
    const t0 = Date.now();
    await lib.close();
    if (options.write) ctx.debug(`library: closed in ${Date.now() - t0} ms`);
  });
  return lib;
}
