/**
 * One syncer per library. SQLite: a lock file beside the library (`<file>.lock`, made
 * with O_EXCL, mode 0600, holding the process id), checked like the library file (no
 * link, the user's own); a lock left by a process that no longer exists is removed.
 * PostgreSQL: a session-level advisory lock (`pg_try_advisory_lock`), let go when the
 * connection ends, however the run ends. A second sync waits for the first (saying so
 * once on stderr), or with `--no-wait` is refused at once (exit 6). Readers take no lock.
 */
import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from "node:fs";
import { PepError, EXIT, InterruptedError } from "../../core/errors.js";
import type { Library } from "../open.js";
import { checkTrusted } from "../location.js";

/** "pepsync" as a number: the advisory lock key of a sync (PostgreSQL). */
export const SYNC_LOCK_KEY = 0x706570737963;
const POLL_MS = 250;

/** Another sync holds the library (exit 6). */
export class LibraryBusyError extends PepError {
  constructor(location: string, holder: string) {
    super(`another pep sync (${holder}) is filling the library at ${location}`, EXIT.unavailable, {
      hints: ["run pep sync again once it has finished, or leave out --no-wait to wait for it"],
    });
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Takes the lock file, or says which live process holds it. */
function tryLockFile(file: string): { release: () => void } | { holder: number } {
  for (;;) {
    try {
      const fd = openSync(file, "wx", 0o600);
      try {
        writeSync(fd, `${process.pid}\n`);
      } finally {
        closeSync(fd);
      }
      return {
        release: () => {
          try {
            if (readFileSync(file, "utf8").trim() === String(process.pid)) unlinkSync(file);
          } catch {
            // gone already
          }
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
    }
    checkTrusted(file, "file");
    const pid = Number.parseInt(readFileSync(file, "utf8").trim(), 10);
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) return { holder: pid };
    // Left by a process that has ended (killed, a CI timeout): nothing else removes it.
    try {
      unlinkSync(file);
    } catch {
      // another run removed it first
    }
  }
}

export interface LockOptions {
  wait: boolean;
  signal: AbortSignal;
  /** Said once, when the sync starts waiting. */
  waiting: (line: string) => void;
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
      const got = tryLockFile(`${lib.target.file}.lock`);
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
