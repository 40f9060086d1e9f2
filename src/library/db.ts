/**
 * The one interface both stores answer (SQLite through node:sqlite, PostgreSQL through
 * `pg`): statements with `?` placeholders (the PostgreSQL driver numbers them), rows as
 * plain objects, and transactions that run one after another. No runtime code here
 * beyond the types and the placeholder rewriting both drivers share.
 */

export type Row = Record<string, unknown>;
export type Dialect = "sqlite" | "postgres";

/** How `Db.query` runs: stopped when `signal` aborts, or when the database has spent `timeoutMs` on it. */
export interface ReadOptions {
  readonly signal?: AbortSignal;
  /** Milliseconds the database may spend on the query, summed over its pages (default: no limit). */
  readonly timeoutMs?: number;
}

/** A read-only query's columns, and its rows read page by page as they are asked for. */
export interface ReadAnswer {
  readonly columns: string[];
  readonly rows: AsyncIterable<Row>;
}

/** What a statement can be run on: the store itself, or the handle of a transaction. */
export interface Queryable {
  /** Every row of a query. */
  all<T = Row>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  /** The first row, or undefined. */
  get<T = Row>(sql: string, params?: readonly unknown[]): Promise<T | undefined>;
  /** A statement that changes rows; resolves to how many it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

export interface Db extends Queryable {
  readonly dialect: Dialect;
  /** Where it is, for messages: a file path, or a URL with its password masked. */
  readonly location: string;
  /** Opened read-only: every statement that would write fails. */
  readonly readOnly: boolean;
  /**
   * Runs `fn` in one transaction (SQLite: BEGIN IMMEDIATE), committed when it resolves and
   * rolled back when it throws. Transactions and statements outside them wait their turn,
   * so a statement from elsewhere never lands inside another's transaction.
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /**
   * Rows of one read-only statement as they come, with its column names (for `pep sql`):
   * known before the first row, so an empty answer still has a header. The engine itself
   * refuses a second statement and any write (library/read-query.ts says how).
   */
  query(sql: string, options?: ReadOptions): Promise<ReadAnswer>;
  /** Several statements in one string (DDL of a migration). */
  exec(sql: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * `?` placeholders as `$1, $2…`, leaving quoted text, quoted names and comments alone
 * (for PostgreSQL, whose jsonb `?` operator the library's own statements never use).
 */
export function numberedPlaceholders(sql: string): string {
  let out = "";
  let n = 0;
  for (let i = 0; i < sql.length; i++) {
    const c = sql[i]!;
    if (c === "'" || c === '"') {
      const end = sql.indexOf(c, i + 1);
      const stop = end === -1 ? sql.length : end + 1;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === "-" && sql[i + 1] === "-") {
      const end = sql.indexOf("\n", i);
      const stop = end === -1 ? sql.length : end;
      out += sql.slice(i, stop);
      i = stop - 1;
    } else if (c === "?") {
      n += 1;
      out += `$${n}`;
    } else out += c;
  }
  return out;
}

/** A queue: each call of `run` starts when the one before it has settled. */
export function serialQueue(): <T>(fn: () => Promise<T>) => Promise<T> {
  let tail: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const next = tail.then(fn, fn);
    tail = next.catch(() => undefined);
    return next;
  };
}
