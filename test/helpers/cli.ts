/**
 * Running `pep` in tests: in-process through `run(argv, { io })` with a captured test IO
 * (`runPep`, or `inProcessPep`, which runs as `spawnPep` would: a clean environment, its
 * own folder, stdin, pipes), or as the real executable (`spawnPep`, `node bin/pep.js`,
 * which needs `npm run build` first): only for what needs a process of its own (start-up,
 * signals, the code cache, Node's options, a real descriptor or terminal).
 * Each gets its own config and cache folders so no test reads the user's settings.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isCurrent } from "../../scripts/source-hash.mjs";
import { testIO } from "../../src/core/io.js";
import { run } from "../../src/cli/main.js";
import type { Deps } from "../../src/cli/run-context.js";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const BIN = path.join(ROOT, "bin", "pep.js");

export interface PepRun {
  code: number;
  out: string;
  err: string;
}

/** A scratch folder with `PEP_CONFIG_DIR`, `PEP_CACHE_DIR` and `PEP_DATA_DIR` inside it. */
export function scratch(prefix = "pep-test-"): { dir: string; env: Record<string, string>; cleanup(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  return {
    dir,
    // The library too: without PEP_DATA_DIR a run that names no --db used the user's own
    // data folder (~/.local/share/pep), and a test's outcome depended on what was there.
    env: {
      PEP_CONFIG_DIR: path.join(dir, "config"),
      PEP_CACHE_DIR: path.join(dir, "cache"),
      PEP_DATA_DIR: path.join(dir, "data"),
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * scratch() for a suite that may be skipped: made only when it `runs`. A skipped suite's
 * body still runs (to collect its tests) but its afterAll does not, so a folder made there
 * stayed behind; here a skipped suite gets an empty `dir` and makes nothing.
 */
export function scratchIf(runs: boolean, prefix: string): ReturnType<typeof scratch> {
  return runs ? scratch(prefix) : { dir: "", env: {}, cleanup: () => undefined };
}

/**
 * Stops a spawned pep and waits for its end: a pep that is ending still writes its code
 * cache into its cache folder, which a cleanup run meanwhile would find recreated.
 */
export async function stopped(child: ChildProcess | undefined, signal: NodeJS.Signals = "SIGTERM"): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await ended;
}

/** Runs `pep <argv>` in-process. */
export async function runPep(
  argv: readonly string[],
  options: {
    env?: Record<string, string | undefined>;
    tty?: boolean;
    columns?: number;
    stdin?: string;
    cwd?: string;
  } = {},
): Promise<PepRun> {
  const io = testIO(options);
  const code = await run(argv, { io });
  return { code, out: io.out(), err: io.err() };
}

/** What `spawnPep` takes, plus what only an in-process run can be given. */
export interface PepOptions {
  env?: Record<string, string | undefined>;
  cwd?: string;
  input?: string;
  timeoutMs?: number;
  /** Clock and timers of the run (retries, pacing, request timeouts). */
  deps?: Omit<Deps, "io">;
}

/**
 * Runs `pep <argv>` in-process as `spawnPep` runs the executable: the environment holds
 * only PATH, HOME and what the test gives, the folder is the repository's unless given,
 * standard input is `input` (a pipe, not a terminal) and standard output and error are
 * pipes, so the width is COLUMNS or 80. Nothing of the test process's own environment,
 * folder or terminal reaches the run.
 */
export async function inProcessPep(argv: readonly string[], options: PepOptions = {}): Promise<PepRun> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ PATH: process.env.PATH, HOME: process.env.HOME, ...options.env }))
    if (v !== undefined) env[k] = v;
  const io = testIO({
    env,
    cwd: options.cwd ?? ROOT,
    stdin: options.input ?? "",
    tty: false,
    columns: Number(env.COLUMNS) || 80,
  });
  const limit = options.timeoutMs ?? 15_000;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`pep ${argv.join(" ")} did not finish in ${limit} ms`)), limit);
  });
  try {
    const code = await Promise.race([run(argv, { ...options.deps, io }), timedOut]);
    return { code, out: io.out(), err: io.err() };
  } finally {
    clearTimeout(timer);
  }
}

let built: boolean | undefined;

/**
 * Whether dist/, which `bin/pep.js` runs, is built from the sources as they are: the
 * tests' global setup (test/global-setup.ts) makes it so before any file runs.
 */
export function isBuilt(): boolean {
  built ??= isCurrent(ROOT);
  return built;
}

/** Runs the real executable, `node bin/pep.js <argv>`, and collects its output. */
export function spawnPep(
  argv: readonly string[],
  options: { env?: Record<string, string | undefined>; cwd?: string; input?: string; timeoutMs?: number } = {},
): Promise<PepRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
    });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    const timer = setTimeout(() => child.kill("SIGKILL"), options.timeoutMs ?? 15_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({
        code: code ?? (signal ? 128 : 1),
        out: Buffer.concat(out).toString("utf8"),
        err: Buffer.concat(err).toString("utf8"),
      });
    });
    child.stdin.end(options.input ?? "");
  });
}

/** pep's JSON error object (-o json/ndjson), checked, as the readable `error:` line says it. */
export function readableError(line: string): string {
  const o = JSON.parse(line) as {
    error: { code: string; message: string; status?: number; request_id?: string };
    exit_code: number;
    hints: string[];
    resume: string | null;
  };
  if (typeof o.error?.code !== "string" || typeof o.error.message !== "string")
    throw new Error(`error.code and error.message must be strings: ${line}`);
  if (typeof o.exit_code !== "number" || !Array.isArray(o.hints) || !("resume" in o))
    throw new Error(`exit_code, hints and resume must be there: ${line}`);
  if (o.error.status === undefined) return `error: ${o.error.message}`;
  const parts = [
    `HTTP ${o.error.status}`,
    o.error.code,
    ...(o.error.request_id ? [`request ${o.error.request_id}`] : []),
  ];
  return `error: ${o.error.message} (${parts.join(", ")})`;
}

/** stderr with each of pep's JSON error objects replaced by the `error:` line it stands for. */
export function errorText(stderr: string): string {
  return stderr
    .split("\n")
    .map((l) => (l.startsWith('{"error":') ? readableError(l) : l))
    .join("\n");
}
