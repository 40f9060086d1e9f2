/**
 * The process that runs `pep sql`'s statement on a SQLite library (library/sqlite-read.ts
 * starts it as `node -e`, with the text of these functions: each uses nothing from outside
 * them but Node's own globals). A process, not a worker thread: SQLite computes a row inside one
 * native call that nothing in Node can interrupt (a worker thread stuck there cannot be
 * ended, and the process cannot exit while it runs), but a process can always be killed.
 *
 * What makes it read-only, by the engine and not by reading the text:
 *   - the file is opened read-only (SQLITE_OPEN_READONLY) with `query_only` on;
 *   - where Node has `setAuthorizer` (24 and later), SQLite asks before every action of
 *     the statement and is refused all but reading tables, calling functions, recursion
 *     and the introspection pragmas (PRAGMA table_info, pragma_table_info(...)): ATTACH,
 *     a write, a transaction, a pragma that sets anything is "not authorized";
 *   - exactly one statement is prepared, and SQLite's own parser says where it ends: what
 *     is left after it must prepare to nothing, or the query is refused (a second
 *     statement is never run, nor dropped);
 *   - a statement that returns no columns (ATTACH, PRAGMA x = 1, a DDL) is never stepped.
 *
 * Messages, one JSON text a line. Parent to child, on its standard input: {file, sql,
 * pageRows} once, then "more" for each page after the first. Child to parent, on its
 * standard output: {columns} and at once the first page, {rows, done} (the statement runs
 * while its parent readies the output), then a page for each "more"; or {error: {message,
 * code, kind}}.
 */
type Row = Record<string, unknown>;
interface Stmt {
  columns(): Array<{ name: string }>;
  iterate(): Iterator<Row>;
  readonly sourceSQL: string;
}
interface Database {
  prepare(sql: string): Stmt;
  exec(sql: string): void;
  setAuthorizer?: (fn: (action: number, a: string | null, b: string | null) => number) => void;
}
interface Child {
  send(message: unknown): void;
  sqlite: { DatabaseSync: new (file: string, options: { readOnly: boolean }) => Database };
  iterator?: Iterator<Row>;
  pageRows: number;
  done?: boolean;
}
type Start = { file: string; sql: string; pageRows: number; busyMs: number };

/** SQLite's question before each action of the statement: only reading is allowed (0), the rest denied (1). */
function childAuthorize(action: number, a: string | null, b: string | null): number {
  // Authorizer codes (sqlite3.h): READ 20, SELECT 21, FUNCTION 31, RECURSIVE 33, PRAGMA 19.
  if (action === 20 || action === 21 || action === 31 || action === 33) return 0;
  if (action !== 19) return 1;
  const name = String(a ?? "").toLowerCase();
  // Pragmas that only describe the schema, whatever their argument (a table's name).
  const describe = [
    "table_info",
    "table_xinfo",
    "table_list",
    "index_list",
    "index_info",
    "index_xinfo",
    "foreign_key_list",
    "collation_list",
    "function_list",
    "pragma_list",
    "module_list",
    "database_list",
  ];
  // Pragmas that read a value when given none (and would set it when given one).
  const values = [
    "user_version",
    "schema_version",
    "application_id",
    "page_count",
    "page_size",
    "freelist_count",
    "encoding",
    "data_version",
    "journal_mode",
    "foreign_keys",
  ];
  return describe.includes(name) || (values.includes(name) && b === null) ? 0 : 1;
}

/** Whether `text` holds a statement: SQLite's own parser says (Node 24 throws on none, Node 22 hands back a finished one). */
function childHoldsStatement(db: Database, text: string): boolean {
  try {
    void db.prepare(text).sourceSQL;
    return true;
  } catch (err) {
    const code = (err as { code?: string }).code;
    return !(code === "ERR_INVALID_ARG_VALUE" || code === "ERR_INVALID_STATE");
  }
}

/** Opens the library read-only, prepares the one statement and sends its columns, or why it is refused. */
function childStart(child: Child, { file, sql, busyMs, pageRows }: Start): void {
  child.pageRows = pageRows;
  const db = new child.sqlite.DatabaseSync(file, { readOnly: true });
  db.exec(`PRAGMA busy_timeout = ${Number(busyMs)}`);
  db.exec("PRAGMA query_only = 1");
  if (typeof db.setAuthorizer === "function") db.setAuthorizer(childAuthorize);
  if (!childHoldsStatement(db, sql)) {
    child.send({ error: { message: "no statement", kind: "empty" } });
    return;
  }
  const stmt = db.prepare(sql);
  // The text of the first statement, as SQLite's parser ended it: anything after it but
  // comments, space and `;` is a second statement, refused (never run, never dropped).
  const first = stmt.sourceSQL;
  const rest = sql.startsWith(first) ? sql.slice(first.length) : "";
  if (/\S/.test(rest) && childHoldsStatement(db, rest)) {
    child.send({ error: { message: String(sql.length - rest.length), kind: "second" } });
    return;
  }
  const columns = stmt.columns().map((c) => c.name);
  if (columns.length === 0) {
    child.send({ error: { message: "no columns", kind: "no-columns" } });
    return;
  }
  child.iterator = stmt.iterate();
  child.send({ columns });
  childPage(child);
}

/**
 * A value as it crosses to the parent in JSON: bytes, a number JSON has no word for
 * (Infinity) and a bigint go as an object naming what they are, which no SQLite value is
 * otherwise (the parent turns them back: library/sqlite-runner.ts, parsedRow).
 */
function childValue(v: unknown): unknown {
  if (v instanceof Uint8Array) return { $bytes: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString("base64") };
  if (typeof v === "number" && !Number.isFinite(v)) return { $number: String(v) };
  if (typeof v === "bigint") return { $bigint: String(v) };
  return v;
}

/** Sends the next page of rows, and whether they were the last. */
function childPage(child: Child): void {
  if (child.done) return;
  const rows: Row[] = [];
  while (rows.length < child.pageRows) {
    const next = child.iterator!.next();
    if (next.done) {
      child.done = true;
      break;
    }
    const row: Row = {};
    for (const [k, v] of Object.entries(next.value)) row[k] = childValue(v);
    rows.push(row);
  }
  child.send({ rows, done: child.done === true });
}

/**
 * The child's main: answers its parent's messages, one JSON text a line on standard input,
 * with one a line on standard output, until standard input ends (its parent went). Plain
 * blocking reads and writes of the two file descriptors: Node's IPC channel, or
 * process.stdin, would load node:net and node:stream, about a third of this process's
 * start-up.
 */
function childMain(): void {
  const fs = process.getBuiltinModule("node:fs") as typeof import("node:fs");
  // A pipe handed over non-blocking would say EAGAIN: wait a moment and try again.
  const pause = () => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 2);
  const busy = (err: unknown) => (err as { code?: string }).code === "EAGAIN";
  const send = (message: unknown) => {
    const bytes = Buffer.from(`${JSON.stringify(message)}\n`);
    for (let done = 0; done < bytes.length; ) {
      try {
        done += fs.writeSync(1, bytes, done);
      } catch (err) {
        if (!busy(err)) throw err;
        pause();
      }
    }
  };
  const child: Child = {
    send,
    sqlite: process.getBuiltinModule("node:sqlite") as Child["sqlite"],
    pageRows: 500,
  };
  const chunk = Buffer.alloc(64 * 1024);
  let pending = Buffer.alloc(0);
  for (;;) {
    let read: number;
    try {
      read = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (err) {
      if (!busy(err)) throw err;
      pause();
      continue;
    }
    if (read === 0) return;
    pending = Buffer.concat([pending, chunk.subarray(0, read)]);
    for (let end = pending.indexOf(10); end >= 0; end = pending.indexOf(10)) {
      const message = JSON.parse(pending.subarray(0, end).toString("utf8")) as unknown;
      pending = pending.subarray(end + 1);
      try {
        if (message === "more") childPage(child);
        else childStart(child, message as Start);
      } catch (err) {
        const e = err as { message?: string; code?: string };
        send({ error: { message: String(e.message ?? err), kind: "sql", code: e.code } });
      }
    }
  }
}

/** The child's program, as the text `node -e` runs. */
export function sqliteChildProgram(): string {
  const parts = [childAuthorize, childHoldsStatement, childStart, childValue, childPage, childMain];
  return `${parts.map((f) => f.toString()).join("\n")}\n${childMain.name}();\n`;
}
