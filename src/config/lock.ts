/**
 * An exclusive lock beside the config file, so two `pep` runs that change it at once
 * (`pep config set a …` and `pep config set b …`) each read the other's result instead
 * of the last writer dropping the first one's change. The lock is a file created with
 * O_EXCL; a run waits a bounded time for it and removes it in `finally`. A lock older
 * than STALE_MS is taken to be left by a run that was killed, and is broken.
 */
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { ConfigError } from "../core/errors.js";

const WAIT_MS = 10_000;
const STALE_MS = 5_000;
const STEP_MS = 15;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function tryCreate(lockFile: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockFile, "wx", 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw new ConfigError(`cannot lock the config file (${lockFile}): ${(e as Error).message}`);
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** Breaks a lock whose holder has not touched it for STALE_MS; true when it is gone. */
function breakIfStale(lockFile: string): boolean {
  try {
    if (Date.now() - statSync(lockFile).mtimeMs < STALE_MS) return false;
    unlinkSync(lockFile);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "ENOENT";
  }
}

/** Runs `fn` holding `<file>.lock`; the folder must exist. */
export async function withFileLock<T>(file: string, fn: () => Promise<T> | T): Promise<T> {
  const lockFile = `${file}.lock`;
  const deadline = Date.now() + WAIT_MS;
  while (!tryCreate(lockFile)) {
    if (breakIfStale(lockFile)) continue;
    if (Date.now() > deadline) {
      throw new ConfigError(`another pep run is changing the config file; gave up waiting for ${lockFile}`, {
        hints: [`If no other pep is running, remove ${lockFile} and run the command again.`],
      });
    }
    await sleep(STEP_MS + Math.floor(Math.random() * STEP_MS));
  }
  try {
    return await fn();
  } finally {
    try {
      // Only our own: a lock broken as stale may since belong to another run.
      if (readFileSync(lockFile, "utf8") === `${process.pid}\n`) unlinkSync(lockFile);
    } catch {
      // already gone
    }
  }
}
