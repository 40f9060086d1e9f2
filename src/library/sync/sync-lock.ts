/**
 * One syncer per library. SQLite: a lock file beside the library (`<file>.lock`, made
 * with O_EXCL, mode 0600, holding the process id and its start time), checked like every
 * side file (no link, the user's own); a lock left by a process that has ended is removed.
 * PostgreSQL: a session-level advisory lock (`pg_try_advisory_lock`), let go when the
 * connection ends, however the run ends. A second sync waits for the first (saying so
 * once on stderr), or with `--no-wait` is refused at once (exit 6). Readers take no lock.
 */
import { EXIT, InterruptedError, LibraryError, PepError } from "../../core/errors.js";
import type { Library } from "../open.js";
import { acquireLock, LockBusyError } from "../../core/lock-file.js";

/** "pepsync" as a number: the advisory lock key of a sync (PostgreSQL). */
export const SYNC_LOCK_KEY = 0x706570737963;
const POLL_MS = 250;

/** Another sync holds the library (exit 6). */
export class LibraryBusyError extends LibraryError {
  constructor(location: string, holder: string) {
    super("library_busy", `another pep sync (${holder}) is filling the library at ${location}`, {
      hints: ["run pep sync again once it has finished, or leave out --no-wait to wait for it"],
    });
  }
}

/**
 * Takes the lock file (core/lock-file.ts: the rule every lock of pep's follows: a holder
 * is alive only while its process exists, is no zombie and started before the lock), or
 * says which live process holds it. A stale lock is removed with a notice.
 */
function tryLockFile(file: string, notice: (line: string) => void): { release: () => void } | { holder: number } {
  try {
    const lock = acquireLock(file, notice);
    if (lock.held) return { release: () => lock.release() };
    throw new PepError(`cannot lock the library: ${file} is not a lock pep can trust`, EXIT.unexpected, {
      hints: [`remove ${file} if no other pep sync is running`],
    });
  } catch (err) {
    if (err instanceof LockBusyError) return { holder: err.pid };
    throw err;
  }
}

export interface LockOptions {
  wait: boolean;
  signal: AbortSignal;
  /** Said once, when the sync starts waiting. */
  waiting: (line: string) => void;
  /** A stale lock removed, or one that cannot be trusted. */
  notice?: (line: string) => void;
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Holds the library for one sync; resolves to the function that lets it go. */
export async function lockForSync(lib: Library, o: LockOptions): Promise<() => Promise<void>> {
  const sleep = o.sleep ?? realSleep;
  let told = false;
  for (;;) {
    if (o.signal.aborted) throw new InterruptedError();
    let holder: string;
    if (lib.target.kind === "sqlite") {
      const got = tryLockFile(`${lib.target.file}.lock`, o.notice ?? o.waiting);
      if ("release" in got) return async () => got.release();
      holder = `process ${got.holder}`;
    } else {
      const { tryAdvisoryLock, releaseAdvisoryLock } = await import("../postgres.js");
      if (await tryAdvisoryLock(lib.db, SYNC_LOCK_KEY)) return () => releaseAdvisoryLock(lib.db, SYNC_LOCK_KEY);
      holder = "another connection";
    }
    if (!o.wait) throw new LibraryBusyError(lib.location, holder);
    if (!told) {
      told = true;
      o.waiting(`waiting for another pep sync (${holder}) of ${lib.location} to finish`);
    }
    await sleep(POLL_MS);
  }
}
