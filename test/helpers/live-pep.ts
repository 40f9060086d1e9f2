/**
 * The real executable as a live process: watch its stderr while it runs, send it a
 * signal, then collect its exit code and output. For Ctrl-C and long-wait tests that
 * `spawnPep` (which only returns at the end) cannot express.
 */
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { BIN, ROOT, type PepRun } from "./cli.js";

export interface LivePep {
  child: ChildProcessWithoutNullStreams;
  out(): string;
  err(): string;
  /** Resolves when stderr matches `re`; rejects after `timeoutMs` or when the process ends first. */
  waitForStderr(re: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code and output; a process still running after `timeoutMs` is killed. */
  exit(timeoutMs?: number): Promise<PepRun & { signal: NodeJS.Signals | null }>;
}

export function startPep(
  argv: readonly string[],
  options: { env?: Record<string, string | undefined>; cwd?: string } = {},
): LivePep {
  const child = spawn(process.execPath, [BIN, ...argv], {
    cwd: options.cwd ?? ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
    stdio: ["pipe", "pipe", "pipe"],
  });
  child.stdin.end();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  const watchers = new Set<() => void>();
  child.stdout.on("data", (c: Buffer) => out.push(c));
  child.stderr.on("data", (c: Buffer) => {
    err.push(c);
    for (const w of watchers) w();
  });
  const closed = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    child.on("close", (code, signal) => {
      for (const w of watchers) w();
      resolve({ code, signal });
    });
  });
  let ended = false;
  void closed.then(() => (ended = true));
  const text = (chunks: Buffer[]) => Buffer.concat(chunks).toString("utf8");

  return {
    child,
    out: () => text(out),
    err: () => text(err),
    waitForStderr(re, timeoutMs = 10_000) {
      return new Promise<void>((resolve, reject) => {
        const check = () => {
          if (re.test(text(err))) {
            done();
            resolve();
          } else if (ended || child.exitCode !== null) {
            done();
            reject(new Error(`pep ended before stderr matched ${re}:\n${text(err)}`));
          }
        };
        const timer = setTimeout(() => {
          done();
          reject(new Error(`stderr did not match ${re} within ${timeoutMs} ms:\n${text(err)}`));
        }, timeoutMs);
        const done = () => {
          clearTimeout(timer);
          watchers.delete(check);
        };
        watchers.add(check);
        check();
      });
    },
    async exit(timeoutMs = 15_000) {
      const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
      const { code, signal } = await closed;
      clearTimeout(timer);
      return { code: code ?? 128, signal, out: text(out), err: text(err) };
    },
  };
}
