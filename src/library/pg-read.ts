/**
 * `pep sql` on PostgreSQL: one statement, read-only by the server's own rules, its rows
 * read in pages. The user's text is never sent on its own through the simple protocol
 * (which runs as many statements as it holds): it goes through the extended protocol,
 * whose Parse takes exactly one statement and refuses a second however it is quoted
 * ($$…$$, E'\'', "…"), as the body of `DECLARE … CURSOR FOR`, which takes only a query
 * (SELECT, VALUES, WITH without a data-modifying part): COMMIT, BEGIN, SET, COPY … TO
 * PROGRAM or a DELETE cannot be one. It runs inside `BEGIN READ ONLY` on a session whose
 * `default_transaction_read_only` is on, with `statement_timeout` set, and `FETCH`es
 * PAGE_ROWS rows at a time, so a 2,000,000-row answer is never held whole. EXPLAIN, which a
 * cursor cannot hold, runs on its own, through the extended protocol too.
 */
import type { ReadAnswer, ReadOptions, Row } from "./db.js";
import { PAGE_ROWS, pageClock, queryTimedOut } from "./read-query.js";

interface PgResult {
  rows: Row[];
  fields: Array<{ name: string }>;
}

/** The part of pg's client used here. */
export interface PgReadClient {
  query(config: {
    text: string;
    values?: unknown[];
    queryMode?: "extended";
    query_timeout?: number;
  }): Promise<PgResult>;
  query(text: string): Promise<PgResult>;
}

/** Ends the running statement for good: the server cancels it, and the connection is dropped. */
export type PgStop = () => void;

const CURSOR = "pep_sql_rows";
const DECLARE = `DECLARE ${CURSOR} NO SCROLL CURSOR FOR `;

/** The server's error in the user's terms: its position in their text, a timeout as one. */
function told(err: unknown, options: ReadOptions, offset: number): unknown {
  const e = err as { code?: string; message?: string; position?: string };
  if (e.code === "57014" && /statement timeout/.test(String(e.message)) && options.timeoutMs !== undefined)
    return queryTimedOut(options.timeoutMs);
  if (offset > 0 && e.position !== undefined && Number(e.position) > offset)
    e.position = String(Number(e.position) - offset);
  return err;
}

/**
 * How a query's own scope starts and ends: a `READ ONLY` transaction of its own, or, on a
 * reader's connection already inside its snapshot (a `REPEATABLE READ READ ONLY`
 * transaction held for the run, library/postgres.ts), a savepoint of that transaction, so
 * the query reads the run's snapshot and its end (or its error) leaves the snapshot open.
 */
const START = { transaction: "BEGIN READ ONLY", savepoint: "SAVEPOINT pep_sql" } as const;
const END = { transaction: "COMMIT", savepoint: "CLOSE ALL; RELEASE SAVEPOINT pep_sql" } as const;
const UNDO = {
  transaction: "ROLLBACK",
  savepoint: "ROLLBACK TO SAVEPOINT pep_sql; RELEASE SAVEPOINT pep_sql",
} as const;

/** Whether the statement is an EXPLAIN (which a cursor cannot hold), by its first word. */
function isExplain(sql: string): boolean {
  const bare = sql.replace(/^(?:\s+|--[^\n]*(?:\n|$)|\/\*[\s\S]*?\*\/)*/, "");
  return /^explain\b/i.test(bare);
}

/**
 * Runs `sql` read-only on `client` (the caller holds the connection for the whole
 * answer: the cursor lives in the transaction, committed after the last page).
 */
export async function readPostgres(
  client: PgReadClient,
  sql: string,
  options: ReadOptions,
  stop: PgStop,
  release: () => void,
  inSnapshot = false,
): Promise<ReadAnswer> {
  const clock = pageClock(options, stop);
  const mode = inSnapshot ? "savepoint" : "transaction";
  // The page clock and the server's statement_timeout bound the query: the connection's
  // own read timeout (--timeout, for every statement of the library) is set past them, so
  // a query stopped at its limit is told as such, not as a database that went away.
  const readTimeout = options.timeoutMs === undefined ? {} : { query_timeout: options.timeoutMs + 30_000 };
  const extended = (text: string) => client.query({ text, values: [], queryMode: "extended", ...readTimeout });
  let open = false;
  const finish = async (ok: boolean) => {
    if (!open) return;
    open = false;
    try {
      if (!clock.stopped) await client.query(ok ? END[mode] : UNDO[mode]);
    } catch {
      // The connection is gone (stopped): nothing was written to undo.
    } finally {
      release();
    }
  };
  try {
    // The scope and its time bound in one message (pep's own text): one round trip.
    const bound =
      options.timeoutMs === undefined
        ? ""
        : `; SET LOCAL statement_timeout = ${Math.max(1, Math.ceil(options.timeoutMs))}`;
    try {
      await clock.page(client.query(`${START[mode]}${bound}`));
    } finally {
      // Begun even when the SET failed (the scope then aborted): undone below.
      open = true;
    }
    if (isExplain(sql)) {
      const res = await clock.page(extended(sql));
      await finish(true);
      return {
        columns: res.fields.map((f) => f.name),
        rows: (async function* () {
          yield* res.rows;
        })(),
      };
    }
    try {
      await clock.page(extended(`${DECLARE}${sql}\n`));
    } catch (err) {
      throw told(err, options, DECLARE.length);
    }
    const first = await clock.page(extended(`FETCH FORWARD ${PAGE_ROWS} FROM ${CURSOR}`));
    const columns = first.fields.map((f) => f.name);
    async function* rows(): AsyncGenerator<Row> {
      let page = first;
      let done = false;
      try {
        for (;;) {
          yield* page.rows;
          if (page.rows.length < PAGE_ROWS) break;
          page = await clock.page(extended(`FETCH FORWARD ${PAGE_ROWS} FROM ${CURSOR}`)).catch((err) => {
            throw told(err, options, 0);
          });
        }
        done = true;
      } finally {
        // A reader that stops early (the pager quit, --jq ended) closes the cursor too.
        await finish(done);
      }
    }
    return { columns, rows: rows() };
  } catch (err) {
    await finish(false);
    throw told(err, options, 0);
  }
}

/** The part of the pg module that opens the second connection a cancel takes. */
export interface PgCancelModule {
  Client: new (config: {
    connectionString: string;
    application_name?: string;
    connectionTimeoutMillis?: number;
    query_timeout?: number;
  }) => {
    connect(): Promise<void>;
    query(config: { text: string; values: unknown[] }): Promise<unknown>;
    end(): Promise<void>;
    on(event: "error", fn: (err: Error) => void): void;
  };
}

/**
 * Stops the query running on `client` whatever it is doing: its connection is dropped at
 * once (the run ends without waiting for the server), and the server is asked, from a
 * second connection that gives up after a second, to cancel the statement, which would
 * otherwise run on until `statement_timeout` before it noticed.
 */
export function stopQuery(pg: PgCancelModule, url: string, client: object): void {
  // pg keeps the server's process id (its BackendKeyData) and the socket on the client.
  const inside = client as { processID?: number | null; connection?: { stream?: { destroy?(): void } } };
  const pid = inside.processID;
  inside.connection?.stream?.destroy?.();
  if (typeof pid !== "number") return;
  const canceller = new pg.Client({
    connectionString: url,
    application_name: "pep",
    connectionTimeoutMillis: 1000,
    query_timeout: 1000,
  });
  canceller.on("error", () => undefined);
  void canceller
    .connect()
    .then(() => canceller.query({ text: "SELECT pg_cancel_backend($1)", values: [pid] }))
    .catch(() => undefined)
    .finally(() => canceller.end().catch(() => undefined));
}

/**
 * The store's `query`: the connection is the query's until its last row is read (its
 * cursor lives in its transaction), so `queue` (the store's one line of statements) waits
 * for that; `stop()` (the store closing) ends a query still being read.
 */
export function heldReads(
  queue: <T>(fn: () => Promise<T>) => Promise<T>,
  client: PgReadClient,
  stopConnection: () => void,
  inSnapshot = false,
): { query(sql: string, options?: ReadOptions): Promise<ReadAnswer>; stop(): void } {
  let reading: (() => void) | undefined;
  const query = (sql: string, options: ReadOptions = {}) =>
    new Promise<ReadAnswer>((resolve, reject) => {
      void queue(async () => {
        let release!: () => void;
        const held = new Promise<void>((r) => {
          release = r;
        });
        const stop = () => {
          stopConnection();
          release();
        };
        reading = stop;
        const done = () => {
          reading = undefined;
          release();
        };
        try {
          resolve(await readPostgres(client, sql, options, stop, done, inSnapshot));
        } catch (err) {
          done();
          reject(err);
          return;
        }
        await held;
      });
    });
  return { query, stop: () => reading?.() };
}
