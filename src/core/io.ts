/**
 * The process's streams, environment and terminal facts, gathered in one object so
 * that commands and the output layer never touch `process` themselves. Tests build a
 * `TestIO` with the same shape and read what was written.
 */
import { accessSync, constants as fsConstants } from "node:fs";
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
  /** stdout is the process's own terminal, which a pager can take over (never in tests' captured IO). */
  canPage?: boolean;
  /** `process.platform`, for the program that opens a web page; `linux` when absent. */
  platform?: string;
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
    canPage: Boolean(out.isTTY),
    platform: process.platform,
  };
}

/**
 * Writes and waits for the stream to drain when its buffer is full (backpressure). A
 * stream that has already failed or closed rejects at once: waiting for its `drain`
 * would wait for ever, and a run that never settles must not pass for a success.
 */
export function write(stream: Writable, chunk: string): Promise<void> | void {
  if (stream.errored) return Promise.reject(stream.errored);
  if (stream.destroyed) return Promise.reject(Object.assign(new Error("the output was closed"), { code: "EPIPE" }));
  if (stream.write(chunk)) return;
  return new Promise<void>((resolve, reject) => {
    const done = (err?: unknown) => {
      stream.off("drain", onDrain);
      stream.off("error", onError);
      stream.off("close", onClose);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = () => done();
    const onError = (e: unknown) => done(e);
    const onClose = () => done(stream.errored ?? Object.assign(new Error("the output was closed"), { code: "EPIPE" }));
    stream.once("drain", onDrain);
    stream.once("error", onError);
    stream.once("close", onClose);
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
export function testIO(
  options: {
    tty?: boolean;
    columns?: number;
    env?: Record<string, string | undefined>;
    stdin?: string;
    cwd?: string;
    signal?: AbortSignal;
  } = {},
): TestIO {
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

/** A pager reading what pep prints: `stream` is its standard input. */
export interface Pager {
  stream: Writable;
  /** Resolves when the pager has exited (the user quit it, or it read everything). */
  exited: Promise<void>;
  /** True once the pager has exited. */
  readonly closed: boolean;
  /** Aborted when the pager exits: the run stops fetching. */
  signal: AbortSignal;
}

/** Words of a pager command without shell syntax; undefined when it needs a shell. */
function plainWords(command: string): string[] | undefined {
  return /^[\w@%+=:,./~-]+(?:\s+[\w@%+=:,./~-]+)*$/.test(command.trim()) ? command.trim().split(/\s+/) : undefined;
}

/**
 * Starts a pager on the terminal, as git and gh do: a command without shell syntax is
 * run directly (so a missing program is found out here), anything else through `sh -c`.
 * `LESS=FRX` and `LV=-c` are set when unset, so a bare `less` quits on one screen and
 * keeps colours. Resolves to undefined when the program cannot be started.
 */
export async function startPager(command: string, env: IO["env"]): Promise<Pager | undefined> {
  const { spawn } = await import("node:child_process");
  const words = plainWords(command);
  const childEnv = { ...env, LESS: env.LESS ?? "FRX", LV: env.LV ?? "-c" };
  const child = words
    ? spawn(words[0]!, words.slice(1), { stdio: ["pipe", "inherit", "inherit"], env: childEnv })
    : spawn(command, { shell: true, stdio: ["pipe", "inherit", "inherit"], env: childEnv });
  const started = await new Promise<boolean>((resolve) => {
    child.once("spawn", () => resolve(true));
    child.once("error", () => resolve(false));
  });
  if (!started) return undefined;
  const quit = new AbortController();
  let closed = false;
  const stdin = child.stdin!;
  // Writing to a pager that was quit fails with EPIPE: that is the run's cue to stop, not an error.
  stdin.on("error", () => undefined);
  const exited = new Promise<void>((resolve) => {
    child.once("close", () => {
      closed = true;
      quit.abort();
      // A write waiting for room in the pipe ends now, instead of waiting for ever.
      if (!stdin.destroyed) stdin.destroy(Object.assign(new Error("the pager was closed"), { code: "EPIPE" }));
      resolve();
    });
  });
  return {
    stream: stdin,
    exited,
    get closed() {
      return closed;
    },
    signal: quit.signal,
  };
}

/**
 * The pager to use on a terminal: `PEP_PAGER`, then the profile's `pager`, then `PAGER`,
 * then `less -FRX` if it is installed; none for an empty value or `cat`. The profile's
 * key comes before `PAGER`, as gh's does: `PAGER` is often set for every program, and
 * would leave a pager chosen for pep without effect.
 */
export function pagerCommand(
  env: IO["env"],
  configured: string | undefined,
): { command: string; where: string } | undefined {
  const pick = (value: string | undefined, where: string) =>
    value === undefined ? undefined : { command: value.trim(), where };
  // A terminal that cannot move its cursor (TERM=dumb: Emacs shells, some CI consoles)
  // gets no pager unless PEP_PAGER names one: less would only say it is not fully functional.
  const dumb = env.TERM === "dumb";
  const chosen =
    pick(env.PEP_PAGER, "PEP_PAGER") ??
    (dumb ? undefined : (pick(configured, "the profile's pager") ?? pick(env.PAGER, "PAGER") ?? defaultPager(env)));
  if (!chosen || chosen.command === "" || chosen.command === "cat") return undefined;
  return chosen;
}

function defaultPager(env: IO["env"]): { command: string; where: string } | undefined {
  const dirs = (env.PATH ?? "").split(":").filter(Boolean);
  for (const dir of dirs) {
    try {
      accessSync(`${dir}/less`, fsConstants.X_OK);
      return { command: "less -FRX", where: "the default pager" };
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Whether a program was started: `reason` says why not (`ENOENT`: not installed). */
export type Launch = { started: true } | { started: false; reason: string };

/**
 * Starts `argv` without a shell, detached and with no standard streams, and does not wait
 * for it (a browser may run for hours): resolves once it has started or failed to.
 */
export async function launchDetached(argv: readonly string[], env: IO["env"]): Promise<Launch> {
  const { spawn } = await import("node:child_process");
  const [program, ...args] = argv;
  if (!program) return { started: false, reason: "no program named" };
  const child = spawn(program, args, { detached: true, stdio: "ignore", shell: false, windowsHide: true, env });
  return new Promise<Launch>((resolve) => {
    child.once("spawn", () => {
      child.unref();
      resolve({ started: true });
    });
    child.once("error", (err: NodeJS.ErrnoException) => resolve({ started: false, reason: err.code ?? err.message }));
  });
}
