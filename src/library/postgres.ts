/**
 * The PostgreSQL store, through `pg` (bundled in a chunk loaded only when a library is in
 * PostgreSQL, its password hashing on first use: scripts/build.mjs; it works on Node 20
 * too). One connection per run: a sync's transactions and its advisory lock belong to
 * that session. A reader's connection is one
 * `REPEATABLE READ READ ONLY` transaction from its first statement to its close, so every
 * read of a run sees the same state of the library, whatever a sync commits meanwhile.
 * Connecting and each statement are bounded by `timeoutMs` (`--timeout`): a server that
 * accepts and never answers ends the run (exit 6), it does not hold it.
 */
import { type Db, numberedPlaceholders, type Queryable, type Row, serialQueue } from "./db.js";
import { libraryFailure, told } from "./db-errors.js";
import { maskDbUrl } from "./location.js";
import { heldReads, type PgCancelModule, stopQuery } from "./pg-read.js";

interface PgResult {
  rows: Row[];
  rowCount: number | null;
  fields: Array<{ name: string }>;
}
interface PgClient {
  connect(): Promise<void>;
  query(config: { text: string; values?: unknown[]; name?: string; queryMode?: "extended" }): Promise<PgResult>;
  query(text: string): Promise<PgResult>;
  end(): Promise<void>;
  on(event: "error", fn: (err: Error) => void): void;
  /** pg's connection: its socket is destroyed when a polite end gets no answer. */
  connection?: { stream?: { destroy(): void; unref?(): void } };
}

interface PgConfig {
  connectionString: string;
  application_name?: string;
  connectionTimeoutMillis?: number;
  query_timeout?: number;
  keepAlive?: boolean;
}

/** How long a close waits for the server to take the connection's end before the socket is cut. */
const END_WAIT_MS = 2_000;

/** Ends the connection: politely, else (a server that stopped answering) by cutting the socket. */
async function endClient(client: PgClient): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const waited = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, END_WAIT_MS);
  });
  await Promise.race([client.end().catch(() => undefined), waited]);
  clearTimeout(timer);
  client.connection?.stream?.destroy();
}

/**
 * Ends a reader's connection without waiting for the server to close it (5-10 ms, most of
 * a backend's exit): its Terminate is written at once, as the socket is idle, and the socket
 * no longer holds the run open. A reader has nothing to commit: its transaction only read.
 */
function letReaderGo(client: PgClient): void {
  void client.end().catch(() => undefined);
  client.connection?.stream?.unref?.();
}

/** A value pg binds as the library's columns expect (flags stay booleans, missing is NULL). */
const bindable = (v: unknown): unknown => (v === undefined ? null : v);

/** Statements a writer names (prepares once per connection), at most; the rest go unnamed. */
const NAMED_MAX = 100;

/**
 * A writer's statements with parameters are named, so the server parses and plans each
 * once per connection (a sync sends the same page statement, with 1,700 parameters, for
 * every page) and the numbered text is made once.
 */
function queryable(client: PgClient, named: boolean): Queryable {
  const names = new Map<string, { name: string; text: string }>();
  const query = (sql: string, params: readonly unknown[]) => {
    const values = params.map(bindable);
    if (!named || params.length === 0) return client.query({ text: numberedPlaceholders(sql), values });
    let st = names.get(sql);
    if (!st && names.size < NAMED_MAX) {
      st = { name: `pep_${names.size + 1}`, text: numberedPlaceholders(sql) };
      names.set(sql, st);
    }
    return st ? client.query({ ...st, values }) : client.query({ text: numberedPlaceholders(sql), values });
  };
  return {
    async all<T = Row>(sql: string, params: readonly unknown[] = []) {
      return (await query(sql, params)).rows as T[];
    },
    async get<T = Row>(sql: string, params: readonly unknown[] = []) {
      return (await query(sql, params)).rows[0] as T | undefined;
    },
    async run(sql: string, params: readonly unknown[] = []) {
      return (await query(sql, params)).rowCount ?? 0;
    },
  };
}

/** Numbers as numbers: bigint (count(*), the library's integer columns) and numeric come as text otherwise. */
function numberParsers(types: { setTypeParser(oid: number, fn: (v: string) => unknown): void }): void {
  const asNumber = (v: string) => {
    const n = Number(v);
    return Number.isSafeInteger(n) || !/^-?\d+$/.test(v) ? n : v;
  };
  types.setTypeParser(20, asNumber); // int8
  // numeric (price_value, AVG): a number when one holds it exactly as written, else its text.
  types.setTypeParser(1700, (v: string) => {
    const n = Number(v);
    return Number.isFinite(n) && /^-?\d+(\.\d+)?$/.test(v) && exactly(n, v) ? n : v;
  });
}

/** Whether `n` reads back as the decimal `text` (trailing zeros of a fraction aside: 12.50 is 12.5). */
function exactly(n: number, text: string): boolean {
  const bare = text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
  return String(n) === (bare === "-0" ? "0" : bare);
}

export interface PostgresOptions {
  /** A reader: one REPEATABLE READ READ ONLY transaction for the connection's life. */
  readOnly: boolean;
  /** Bound on connecting and on each statement (`--timeout`). */
  timeoutMs?: number | undefined;
}

/**
 * Connects to the PostgreSQL library at `url`. A failure is told by db-errors.ts: a login
 * refused (exit 3), no such database (exit 2), a server down or silent (exit 6).
 */
export async function openPostgres(url: string, options: PostgresOptions): Promise<Db> {
  const mod = (await import("pg")) as unknown as { default?: unknown };
  // The package as ESM (vitest) has it as its default export; in the bundle it may be the module.
  const pg = (mod.default ?? mod) as {
    Client: new (config: PgConfig) => PgClient;
    types: { setTypeParser(oid: number, fn: (v: string) => unknown): void };
  };
  numberParsers(pg.types);
  const location = maskDbUrl(url);
  const bound = options.timeoutMs !== undefined && options.timeoutMs > 0 ? Math.ceil(options.timeoutMs) : undefined;
  const client = new pg.Client({
    connectionString: url,
    application_name: "pep",
    keepAlive: true,
    ...(bound === undefined ? {} : { connectionTimeoutMillis: bound, query_timeout: bound }),
  });
  // An error of the idle connection (the server went away) is met by the next query.
  client.on("error", () => undefined);
  const { readOnly } = options;
  const tell = <T>(fn: () => Promise<T>) => told(fn, "postgres", location, readOnly);
  try {
    await client.connect();
    // The snapshot: taken by the first statement, held until the connection closes.
    // A reader's session is read-only by default too (default_transaction_read_only): a
    // statement that ended the snapshot's transaction would find the next one read-only.
    // Both in one message (pep's own text, through the simple protocol): one round trip.
    if (readOnly)
      await client.query(
        "SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY; BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY",
      );
  } catch (err) {
    await endClient(client);
    throw libraryFailure(err, "postgres", location, readOnly);
  }
  const q = queryable(client, !readOnly);
  const queue = serialQueue();
  let closed = false;
  // A reader's query runs inside its snapshot's transaction (a savepoint of it), a writer's in one of its own.
  const reader = heldReads(queue, client, () => stopQuery(pg as unknown as PgCancelModule, url, client), readOnly);
  return {
    dialect: "postgres",
    location,
    readOnly,
    all: (sql, params) => queue(() => tell(() => q.all(sql, params))),
    get: (sql, params) => queue(() => tell(() => q.get(sql, params))),
    run: (sql, params) => queue(() => tell(() => q.run(sql, params))),
    exec: (sql) => queue(() => tell(async () => void (await client.query(sql)))),
    transaction: (fn) =>
      queue(() =>
        tell(async () => {
          // A reader is in its snapshot already: its statements run there.
          if (readOnly) return fn(q);
          await client.query("BEGIN");
          try {
            const result = await fn(q);
            await client.query("COMMIT");
            return result;
          } catch (err) {
            await client.query("ROLLBACK").catch(() => undefined);
            throw err;
          }
        }),
      ),
    query: reader.query,
    close: async () => {
      if (closed) return;
      closed = true;
      reader.stop();
      await queue(async () => (readOnly ? letReaderGo(client) : endClient(client)));
    },
  };
}

/** A session-level advisory lock: held until released or the connection ends. */
export async function tryAdvisoryLock(db: Db, key: number): Promise<boolean> {
  const row = await db.get<{ locked: boolean }>("SELECT pg_try_advisory_lock(?) AS locked", [key]);
  return row?.locked === true;
}

export async function releaseAdvisoryLock(db: Db, key: number): Promise<void> {
  await db.get("SELECT pg_advisory_unlock(?)", [key]);
}
