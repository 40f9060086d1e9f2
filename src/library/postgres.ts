/**
 * The PostgreSQL store, through `pg` (required from its package only when a library is in
 * PostgreSQL; it works on Node 20 too). One connection per run: a sync's transactions and
 * its advisory lock belong to that session. A read-only open sets the session read-only,
 * so every transaction of it is (`BEGIN READ ONLY` in effect).
 */
import { NetworkError } from "../core/errors.js";
import { type Db, numberedPlaceholders, type Queryable, type Row, serialQueue } from "./db.js";
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
}

/** Connects to the PostgreSQL library at `url`; a connection that fails is exit 6 with the masked URL. */
export async function openPostgres(url: string, options: { readOnly: boolean }): Promise<Db> {
  const mod = (await import("pg")) as unknown as { default?: unknown };
  // The package as ESM (vitest) has it as its default export; as the bundle requires it, it is the module.
  const pg = (mod.default ?? mod) as {
    Client: new (config: { connectionString: string; application_name?: string }) => PgClient;
    types: { setTypeParser(oid: number, fn: (v: string) => unknown): void };
  };
  numberParsers(pg.types);
  const client = new pg.Client({ connectionString: url, application_name: "pep" });
  // An error of the idle connection (the server went away) is met by the next query.
  client.on("error", () => undefined);
  const location = maskDbUrl(url);
  try {
    await client.connect();
  } catch (err) {
    throw new NetworkError(
      `cannot connect to the PostgreSQL library at ${location}: ${(err as Error).message}`,
      "other",
    );
  }
  if (options.readOnly) await client.query("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
  const q = queryable(client, !options.readOnly);
  const queue = serialQueue();
  let closed = false;
  const reader = heldReads(queue, client, () => stopQuery(pg as unknown as PgCancelModule, url, client));
  return {
    dialect: "postgres",
    location,
    readOnly: options.readOnly,
    all: (sql, params) => queue(() => q.all(sql, params)),
    get: (sql, params) => queue(() => q.get(sql, params)),
    run: (sql, params) => queue(() => q.run(sql, params)),
    exec: (sql) => queue(async () => void (await client.query(sql))),
    transaction: (fn) =>
      queue(async () => {
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
    query: reader.query,
    close: async () => {
      if (closed) return;
      closed = true;
      reader.stop();
      await queue(() => client.end().catch(() => undefined));
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
