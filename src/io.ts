/**
 * The process's streams, environment and terminal facts, gathered in one object so
 * that commands and the output layer never touch `process` themselves. Tests build a
 * `TestIO` with the same shape and read what was written.
 */
import { PassThrough, type Readable, type Writable } from "node:stream";

export interface IO {
  stdout: Writable;
  stderr: Writable;
  stdin: Readable;
  env: Record<string, string | undefined>;
  /** stdout is a terminal: human formats by default, hyperlinks, next-cursor hints. */
  stdoutIsTTY: boolean;
  /** stderr is a terminal: spinners and progress go there only then. */
  stderrIsTTY: boolean;
  stdinIsTTY: boolean;
  /** Terminal width for tables; 80 when unknown. */
  columns: number;
  cwd: string;
  /** Aborted on SIGINT/SIGTERM: long runs stop and clean up. */
  signal: AbortSignal;
}

export function processIO(signal: AbortSignal): IO {
  const out = process.stdout as NodeJS.WriteStream;
  const err = process.stderr as NodeJS.WriteStream;
  return {
    stdout: out,
    stderr: err,
    // Looked up when read: setting up process.stdin costs more than a millisecond, and
    // only a key read from standard input (or its prompt) needs it.
    get stdin() {
      return process.stdin;
    },
    env: process.env,
    stdoutIsTTY: Boolean(out.isTTY),
    stderrIsTTY: Boolean(err.isTTY),
    get stdinIsTTY() {
      return Boolean(process.stdin.isTTY);
    },
    columns: out.columns || err.columns || Number(process.env.COLUMNS) || 80,
    cwd: process.cwd(),
    signal,
  };
}

/** Writes and waits for the stream to drain when its buffer is full (backpressure). */
export function write(stream: Writable, chunk: string): Promise<void> | void {
  if (stream.write(chunk)) return;
  return new Promise<void>((resolve, reject) => {
    const onDrain = () => {
      stream.off("error", onError);
      resolve();
    };
    const onError = (e: unknown) => {
      stream.off("drain", onDrain);
      reject(e);
    };
    stream.once("drain", onDrain);
    stream.once("error", onError);
  });
}

/** Whether to colour: never with NO_COLOR or --no-color, forced by FORCE_COLOR, else a TTY. */
export function colorEnabled(env: IO["env"], isTTY: boolean, flag: boolean | undefined): boolean {
  if (flag === false) return false;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  const force = env.FORCE_COLOR;
  if (force !== undefined) return force !== "0" && force !== "false";
  if (env.TERM === "dumb") return false;
  return isTTY;
}

export interface TestIO extends IO {
  /** Everything written to stdout so far. */
  out(): string;
  /** Everything written to stderr so far. */
  err(): string;
}

/** An IO for in-process tests: captured output, a given stdin, a chosen terminal. */
export function testIO(options: {
  tty?: boolean;
  columns?: number;
  env?: Record<string, string | undefined>;
  stdin?: string;
  cwd?: string;
  signal?: AbortSignal;
} = {}): TestIO {
  const capture = () => {
    const chunks: Buffer[] = [];
    const s = new PassThrough();
    s.on("data", (c: Buffer) => chunks.push(c));
    return { s, text: () => Buffer.concat(chunks).toString("utf8") };
  };
  const o = capture();
  const e = capture();
  const stdin = new PassThrough();
  stdin.end(options.stdin ?? "");
  const tty = options.tty ?? false;
  return {
    stdout: o.s,
    stderr: e.s,
    stdin,
    env: options.env ?? {},
    stdoutIsTTY: tty,
    stderrIsTTY: tty,
    stdinIsTTY: tty && options.stdin === undefined,
    columns: options.columns ?? 80,
    cwd: options.cwd ?? process.cwd(),
    signal: options.signal ?? new AbortController().signal,
    out: o.text,
    err: e.text,
  };
}
