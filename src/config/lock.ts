/**
 * An exclusive lock beside the config file, so two `pep` runs that change it at once
 * (`pep config set a …` and `pep config set b …`) each read the other's result instead
 * of the last writer dropping the first one's change. The lock is the one lock pep has
 * (core/lock-file.ts), with its one staleness rule: a lock whose process is gone is
 * removed and taken, one whose process lives is waited for, a bounded time.
 */
import { ConfigError } from "../core/errors.js";
import { acquireLock, type HeldLock, LockBusyError } from "../core/lock-file.js";

const WAIT_MS = 10_000;
const STEP_MS = 15;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Takes `lockFile`, waiting while a live process holds it; undefined when it is busy past the wait. */
function tryAcquire(lockFile: string): HeldLock | "busy" {
  let untrusted: string | undefined;
  let lock: HeldLock;
  try {
    lock = acquireLock(lockFile, (line) => {
      if (line.startsWith("warning:")) untrusted = line.replace(/^warning: /, "");
    });
  } catch (e) {
    if (e instanceof LockBusyError) return "busy";
    throw new ConfigError(`cannot lock the config file (${lockFile}): ${(e as Error).message}`);
  }
  if (!lock.held)
    throw new ConfigError(`cannot lock the config file: ${untrusted ?? `${lockFile} is not a lock pep wrote`}`, {
      hints: [`check what ${lockFile} is, remove it, and run the command again`],
    });
  return lock;
}

/** Runs `fn` holding `<file>.lock`; the folder must exist. */
export async function withFileLock<T>(file: string, fn: () => Promise<T> | T): Promise<T> {
  const lockFile = `${file}.lock`;
  const deadline = Date.now() + WAIT_MS;
  let lock = tryAcquire(lockFile);
  while (lock === "busy") {
    if (Date.now() > deadline) {
      throw new ConfigError(`another pep run is changing the config file; gave up waiting for ${lockFile}`, {
        hints: [`If no other pep is running, remove ${lockFile} and run the command again.`],
      });
    }
    await sleep(STEP_MS + Math.floor(Math.random() * STEP_MS));
    lock = tryAcquire(lockFile);
  }
  try {
    return await fn();
  } finally {
    lock.release();
  }
}
