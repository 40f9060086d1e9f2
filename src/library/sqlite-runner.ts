/**
 * The process that runs `pep sql`'s statement on a SQLite library (library/sqlite-child.ts
 * is its program), started: its messages one at a time, and how to end it. Started by
 * library/sqlite-read.ts, or before the program loads by `pep sql`'s early start
 * (cli/sql-early.ts, a bundle of its own), which leaves it here for the query to take.
 */
import type { ChildProcess } from "node:child_process";
import type { Row } from "./db.js";
import { sqliteChildProgram } from "./sqlite-child.js";

export type Message =
  | { columns: string[] }
  | { rows: Row[]; done: boolean }
  | { error: { message: string; kind: "sql" | "empty" | "second" | "no-columns"; code?: string } };

/** The query's process, started: its messages one at a time, and how to end it. */
export interface Runner {
  readonly child: ChildProcess;
  next(): Promise<Message>;
  kill(): void;
}

/**
 * Starts the query's process. It waits for its statement (library/sqlite-child.ts) and
 * leaves when its parent goes; whatever ends this run kills it. Started idle: it holds
 * the run open only once a query takes it (holdRun).
 */
export function startRunner(spawn: typeof import("node:child_process").spawn): Runner {
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
  const runner = { child, next, kill };
  holdRun(runner, false);
  return runner;
}

/**
 * Whether the run should wait for `runner`: an idle one does not hold the run open, nor
 * does one that was killed (its end is not waited for: SIGKILL cannot be refused). Its
 * process, its channel and the pipe of its stderr each hold the run apart.
 */
export function holdRun(runner: Runner, hold: boolean): void {
  type Handle = { ref?(): void; unref?(): void } | null | undefined;
  const { child } = runner;
  const handles: Handle[] = [child, (child as { channel?: Handle }).channel, child.stderr as Handle];
  for (const h of handles) {
    if (hold) h?.ref?.();
    else h?.unref?.();
  }
}

/**
 * The early start's process is left on the global object, under a registered symbol, as
 * the early start and the program are separate bundles (each with its own copy of this
 * file); taken once.
 */
const EARLY = Symbol.for("pepcli.sql.early");

export function leaveEarlyRunner(runner: Runner): void {
  (globalThis as Record<symbol, unknown>)[EARLY] = runner;
}

/** The process the early start left, if it ran in this process (then forgotten). */
export function takeEarlyRunner(): Runner | undefined {
  const g = globalThis as Record<symbol, unknown>;
  const runner = g[EARLY] as Runner | undefined;
  delete g[EARLY];
  return runner;
}
