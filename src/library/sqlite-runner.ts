/**
 * The process that runs `pep sql`'s statement on a SQLite library (library/sqlite-child.ts
 * is its program), started: its messages one at a time, and how to end it. Started by
 * library/sqlite-read.ts, or before the program loads by `pep sql`'s early start
 * (cli/sql-early.ts, a bundle of its own), which leaves it here for the query to take.
 */
import type { ChildProcess } from "node:child_process";
import type { Row } from "./db.js";
import { sqliteChildProgram } from "./sqlite-child.js";
import { leave, take } from "../core/hand-over.js";

export type Message =
  | { columns: string[] }
  | { rows: Row[]; done: boolean }
  | { error: { message: string; kind: "sql" | "empty" | "second" | "no-columns"; code?: string } };

/** The query's process, started: what it is sent, its messages one at a time, and how to end it. */
export interface Runner {
  readonly child: ChildProcess;
  send(message: unknown): void;
  next(): Promise<Message>;
  kill(): void;
}

/** A value as the child sent it in JSON, back as SQLite gave it (library/sqlite-child.ts, childValue). */
function parsedValue(v: unknown): unknown {
  if (v === null || typeof v !== "object") return v;
  const o = v as { $bytes?: string; $number?: string; $bigint?: string };
  if (o.$bytes !== undefined) return new Uint8Array(Buffer.from(o.$bytes, "base64"));
  if (o.$number !== undefined) return Number(o.$number);
  if (o.$bigint !== undefined) return BigInt(o.$bigint);
  return v;
}

/** One line of the child's standard output as its message. */
function parsedMessage(line: string): Message {
  const m = JSON.parse(line) as Message;
  if ("rows" in m) for (const row of m.rows) for (const k of Object.keys(row)) row[k] = parsedValue(row[k]);
  return m;
}

/**
 * Starts the query's process. It waits for its statement (library/sqlite-child.ts) and
 * leaves when its parent goes; whatever ends this run kills it. Started idle: it holds
 * the run open only once a query takes it (holdRun).
 */
export function startRunner(spawn: typeof import("node:child_process").spawn): Runner {
  // --input-type=commonjs: a Node that strips types (22.18 and later) would otherwise try
  // the text as TypeScript too (about 2 ms of the child's start-up in a CPU profile).
  const flags = ["--disable-warning=ExperimentalWarning", "--input-type=commonjs"];
  const child = spawn(process.execPath, [...flags, "-e", sqliteChildProgram()], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  // A child gone before a message reaches it: its exit says so (below).
  child.stdin?.on("error", () => {});
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
  const arrived = (m: Message) => {
    if (waiting) {
      const w = waiting;
      waiting = undefined;
      w.resolve(m);
    } else inbox.push(m);
  };
  let pending: Buffer = Buffer.alloc(0);
  child.stdout?.on("data", (b: Buffer) => {
    pending = pending.length === 0 ? b : Buffer.concat([pending, b]);
    for (let at = pending.indexOf(10); at >= 0; at = pending.indexOf(10)) {
      const line = pending.subarray(0, at).toString("utf8");
      pending = pending.subarray(at + 1);
      try {
        arrived(parsedMessage(line));
      } catch (err) {
        end(new Error(`the query's process sent what is not a message: ${(err as Error).message}`));
      }
    }
  });
  child.on("exit", () => process.off("exit", kill));
  // Once its pipes are closed too: every message it wrote has arrived before its end is told.
  child.on("close", (code, signal) => {
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
  const send = (message: unknown) => child.stdin?.write(`${JSON.stringify(message)}\n`);
  const runner = { child, send, next, kill };
  holdRun(runner, false);
  return runner;
}

/**
 * Whether the run should wait for `runner`: an idle one does not hold the run open, nor
 * does one that was killed (its end is not waited for: SIGKILL cannot be refused). Its
 * process and each of its three pipes hold the run apart.
 */
export function holdRun(runner: Runner, hold: boolean): void {
  type Handle = { ref?(): void; unref?(): void } | null | undefined;
  const { child } = runner;
  const handles: Handle[] = [child, child.stdin as Handle, child.stdout as Handle, child.stderr as Handle];
  for (const h of handles) {
    if (hold) h?.ref?.();
    else h?.unref?.();
  }
}

/** The early start's process, left for the program (core/hand-over.ts). */
const EARLY = "pepcli.sql.early";

export function leaveEarlyRunner(runner: Runner): void {
  leave(EARLY, runner);
}

/** The process the early start left, if it ran in this process (then forgotten). */
export function takeEarlyRunner(): Runner | undefined {
  return take<Runner>(EARLY);
}
