/**
 * `pep sql` on a SQLite library: its one statement runs in a process of its own
 * (library/sqlite-child.ts says why, and what keeps it read-only), which sends the rows a
 * page at a time, the first with the columns and each next when asked for, so memory
 * stays flat whatever the answer's size.
 * Ctrl-C, SIGTERM or the end of `--timeout` kill that process: a runaway query
 * (a recursive CTE without end) stops at once, and the library, opened read-only there,
 * is as it was.
 */
import { UsageError } from "../core/errors.js";
import type { ReadAnswer, ReadOptions, Row } from "./db.js";
import { PAGE_ROWS, pageClock } from "./read-query.js";
import { holdRun, type Message, type Runner, startRunner, takeEarlyRunner } from "./sqlite-runner.js";

/** A failure of the statement, as the child told it: SQL errors keep SQLite's message for sqlError. */
function failure(e: { message: string; kind: string; code?: string }, sql: string): Error {
  if (e.kind === "empty") return new UsageError('pep sql needs a query, such as "SELECT COUNT(*) FROM studies"');
  if (e.kind === "second") {
    const at = Number(e.message);
    const before = sql.slice(0, at);
    const line = before.split("\n").length;
    const column = at - (before.lastIndexOf("\n") + 1) + 1;
    const where = sql.includes("\n") ? `line ${line}, column ${column}` : `column ${column}`;
    return new UsageError(
      `pep sql takes one statement; a second one starts after the first, at ${where}, and nothing was run`,
    );
  }
  if (e.kind === "no-columns")
    return new UsageError(
      "pep sql only reads: the statement returns no rows, as one that writes does, and was not run",
    );
  return Object.assign(new Error(e.message), { code: e.code });
}

let warm: Runner | undefined;

/**
 * Starts the query's process ahead, while the library is being opened (Node's start-up
 * is most of what it costs), unless the early start (cli/sql-early.ts) has started it
 * already; resolves to what ends it if no query takes it.
 */
export async function warmSqliteReader(): Promise<() => void> {
  const runner = takeEarlyRunner() ?? startRunner((await import("node:child_process")).spawn);
  warm = runner;
  return () => {
    if (warm === runner) warm = undefined;
    runner.kill();
  };
}

/** Runs `sql` in the query's process (the warm one, else a new one); resolves once its columns are known. */
export async function readSqlite(
  file: string,
  sql: string,
  options: ReadOptions & { busyMs: number },
): Promise<ReadAnswer> {
  const runner = warm ?? startRunner((await import("node:child_process")).spawn);
  warm = undefined;
  holdRun(runner, true);
  const { send, next } = runner;
  const kill = () => {
    runner.kill();
    holdRun(runner, false);
  };
  const clock = pageClock(options, kill);
  // No message: the first page, which the child sends with its columns unasked.
  const ask = async (message?: unknown): Promise<Message> => {
    if (message !== undefined) send(message);
    const m = await clock.page(next());
    if ("error" in m) throw failure(m.error, sql);
    return m;
  };
  let first: Message;
  try {
    first = await ask({ file, sql, pageRows: PAGE_ROWS, busyMs: options.busyMs });
  } catch (err) {
    kill();
    throw err;
  }
  const columns = "columns" in first ? first.columns : [];
  async function* rows(): AsyncGenerator<Row> {
    try {
      for (let page = 0; ; page++) {
        const m = await ask(page === 0 ? undefined : "more");
        if (!("rows" in m)) break;
        yield* m.rows;
        if (m.done) break;
      }
    } finally {
      kill();
    }
  }
  return { columns, rows: rows() };
}
