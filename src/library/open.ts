/**
 * `openLibrary(ctx, { write })`: the library of this run (library/location.ts says
 * where), opened, checked and brought to the current schema. For reading (`pep sql`,
 * `pep changes`, `--offline`) it is opened read-only; a library that does not exist yet
 * is exit 2 with a hint to run `pep sync`. For writing (`pep sync`) it is made when
 * missing.
 */
import type { Context } from "../core/command-context.js";
import { UsageError } from "../core/errors.js";
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
export class LibraryMissingError extends UsageError {
  constructor(location: string) {
    super(`there is no local library at ${location} yet`, {
      hints: ["run pep sync to fill it (pep sync studies for one resource); --db or PEP_DB chooses another library"],
    });
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

async function openDb(target: LibraryTarget, readOnly: boolean): Promise<Db> {
  if (target.kind === "postgres") {
    const { openPostgres } = await import("./postgres.js");
    return openPostgres(target.url, { readOnly });
  }
  const { openSqlite } = await import("./sqlite.js");
  try {
    return openSqlite(target.file, { readOnly });
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`cannot open the library ${target.file}: ${(err as Error).message}`);
  }
}

/** A SQLite file that is not a database, or any other failure of the first look, as exit 2. */
async function versionOf(db: Db): Promise<number> {
  try {
    return await schemaVersion(db);
  } catch (err) {
    await db.close();
    throw new UsageError(`cannot read the library ${db.location}: ${(err as Error).message}`, {
      hints: ["is it a pep library? --db or PEP_DB chooses another one"],
    });
  }
}

/**
 * Opens the library at `target`; `write` makes it when missing and migrates it, after
 * `hold` (a sync's lock: a second sync waits there, before it touches the database).
 */
export async function openLibraryAt(
  target: LibraryTarget,
  options: { write: boolean; hold?: (lib: Library) => Promise<void> },
): Promise<Library> {
  if (target.kind === "sqlite") {
    // node:sqlite first: on Node 20 the refusal says what to install, before any file is made.
    (await import("./sqlite.js")).loadSqlite();
    const { exists } = prepareLibraryFile(target.file, options.write);
    if (!exists) throw new LibraryMissingError(target.file);
  }
  let db = await openDb(target, !options.write);
  if (options.write) {
    const lib = wrap(db, target);
    try {
      await options.hold?.(lib);
      checkKnown(await versionOf(db), db.location);
      await migrate(db);
    } catch (err) {
      await db.close();
      throw err;
    }
    return lib;
  }
  const version = await versionOf(db);
  checkKnown(version, db.location);
  if (version === 0) {
    await db.close();
    throw new LibraryMissingError(target.kind === "sqlite" ? target.file : maskDbUrl(target.url));
  }
  if (version < SCHEMA_VERSION) {
    // Made by an earlier pep: brought up to date once, then read as usual.
    await db.close();
    const writer = await openDb(target, false);
    try {
      await migrate(writer);
    } finally {
      await writer.close();
    }
    db = await openDb(target, true);
  }
  return wrap(db, target);
}

/** The library of this run: `--db`, `PEP_DB`, the profile's `db`, else the profile's file. */
export async function openLibrary(
  ctx: Context,
  options: { write: boolean; hold?: (lib: Library) => Promise<void> },
): Promise<Library> {
  const cfg = await ctx.config();
  const target = libraryTarget(cfg.db, ctx.io.env, ctx.io.cwd, cfg.profile);
  const lib = await openLibraryAt(target, options);
  ctx.onCleanup(async () => {
    const t0 = Date.now();
    await lib.close();
    if (options.write) ctx.debug(`library: closed in ${Date.now() - t0} ms`);
  });
  return lib;
}
