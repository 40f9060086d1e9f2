/**
 * `pep sql` on a SQLite library: its one statement runs in a process of its own
 * (library/sqlite-child.ts says why, and what keeps it read-only), which sends the rows a
 * page at a time when asked for the next, so memory stays flat whatever the answer's size.
 * Ctrl-C, SIGTERM or the end of `--timeout` kill that process: a runaway query
 * (a recursive CTE without end) stops at once, and the library, opened read-only there,
 * is as it was.
 */
import type { ChildProcess } from "node:child_process";
import { UsageError } from "../core/errors.js";
import type { ReadAnswer, ReadOptions, Row } from "./db.js";
import { PAGE_ROWS, pageClock } from "./read-query.js";
import { sqliteChildProgram } from "./sqlite-child.js";

type Message =
  | { columns: string[] }
  | { rows: Row[]; done: boolean }
  | { error: { message: string; kind: "sql" | "empty" | "second" | "no-columns"; code?: string } };

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

/** The query's process, started: its messages one at a time, and how to end it. */
interface Runner {
  readonly child: ChildProcess;
  next(): Promise<Message>;
  kill(): void;
}

function startRunner(spawn: typeof import("node:child_process").spawn): Runner {
  const child = spawn(process.execPath, ["--disable-warning=ExperimentalWarning", "-e", sqliteChildProgram()], {
    stdio: ["ignore", "ignore", "pipe", "ipc"],
    serialization: "advanced",
  });
  let stderr = "";
  child.stderr?.on("data", (b: Buffer) => {
    if (stderr.length < 4000) stderr += b.toString("utf8");
  });
  // Whatever ends this run (a second Ctrl-C exits at once), the query ends with it.
  const kill = () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  };
  process.once("exit", kill);
  const inbox: Message[] = [];
  let waiting: { resolve(m: Message): void; reject(e: Error): void } | undefined;
  let gone: Error | undefined;
  const end = (err: Error) => {
    gone = err;
    waiting?.reject(err);
    waiting = undefined;
  };
  child.on("message", (m: Message) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w.resolve(m);
    } else inbox.push(m);
  });
  child.on("exit", (code, signal) => {
    process.off("exit", kill);
    const said = stderr.trim() ? `: ${stderr.trim().split("\n").pop()}` : "";
    end(new Error(`the query's process ended (${signal ?? `exit ${code}`})${said}`));
  });
  child.on("error", end);
  const next = (): Promise<Message> => {
    const m = inbox.shift();
    if (m) return Promise.resolve(m);
    if (gone) return Promise.reject(gone);
    return new Promise((resolve, reject) => {
      waiting = { resolve, reject };
    });
  };
  return { child, next, kill };
}

/** Whether the run should wait for `runner` (a warm one idles without holding the run open). */
function holdRun(runner: Runner, hold: boolean): void {
  const channel = (runner.child as { channel?: { ref?(): void; unref?(): void } | null }).channel;
  if (hold) {
    runner.child.ref();
    channel?.ref?.();
  } else {
    runner.child.unref();
    channel?.unref?.();
  }
}

let warm: Runner | undefined;

/**
 * Starts the query's process ahead, while the library is being opened (Node's start-up
 * is most of what it costs); resolves to what ends it if no query takes it.
 */
export async function warmSqliteReader(): Promise<() => void> {
  const { spawn } = await import("node:child_process");
  const runner = startRunner(spawn);
  holdRun(runner, false);
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
  const { child, next, kill } = runner;
  const clock = pageClock(options, kill);
  const ask = async (message: unknown): Promise<Message> => {
    child.send(message as string);
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
      for (;;) {
        const m = await ask("more");
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
