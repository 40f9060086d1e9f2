/**
 * A lock file that frees itself: `<name>` holds `{"pid", "started_ms", "created_ms",
 * "token"}` of the process that made it, created whole in one step (written to an
 * exclusive 0600 temp file, then hard-linked to the name, which fails when the name is
 * taken). A lock whose process is gone, a zombie, or a younger process that got the same
 * id (core/process-alive.ts) is stale: it is removed, with a notice, and taken. A lock
 * that is not a trusted file (core/trusted-file.ts: a link, another user's) is never
 * read as one: it is reported and left alone. Used for a `--file` target; meant for any
 * file one pep at a time may write.
 */
import { linkSync, lstatSync } from "node:fs";
import { holderAlive, ownStartMs, procInfo } from "./process-alive.js";
import { tempSuffix } from "./temp-name.js";
import { readTrusted, unlinkQuietly, writeTempBeside } from "./trusted-file.js";

interface LockRecord {
  pid: number;
  started_ms?: number;
  created_ms: number;
  token: string;
}

/** A live process holds the lock. */
export class LockBusyError extends Error {
  constructor(
    readonly lockPath: string,
    readonly pid: number,
  ) {
    super(`${lockPath} is held by process ${pid}`);
  }
}

export interface HeldLock {
  readonly path: string;
  /** Whether this run holds it (false: an untrusted file sits at its name, reported). */
  readonly held: boolean;
  /** Removes the lock if it is still this run's; safe to call twice and from an exit handler. */
  release(): void;
}

function parse(text: string): LockRecord | undefined {
  try {
    const r = JSON.parse(text) as Partial<LockRecord>;
    if (!Number.isInteger(r.pid) || typeof r.created_ms !== "number" || typeof r.token !== "string") return undefined;
    return r as LockRecord;
  } catch {
    return undefined;
  }
}

/** Why the record's process no longer holds it; undefined when it still does. */
function staleness(r: LockRecord): string | undefined {
  if (!holderAlive(r.pid, r.created_ms)) return `process ${r.pid} is gone`;
  const info = procInfo(r.pid);
  // The same id, started at another time: another process.
  if (r.started_ms !== undefined && info !== null && info !== "gone" && Math.abs(info.startMs - r.started_ms) > 1_000)
    return `process ${r.pid} is gone`;
  return undefined;
}

/** Creates the lock whole; false when the name is taken. */
function tryCreate(file: string, record: LockRecord): boolean {
  const temp = writeTempBeside(file, `${JSON.stringify(record)}\n`);
  try {
    linkSync(temp, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return false;
    throw err;
  } finally {
    unlinkQuietly(temp);
  }
}

/**
 * Takes the lock at `file`, removing a stale one (said through `notice`); throws
 * LockBusyError while a live process holds it.
 */
export function acquireLock(file: string, notice: (line: string) => void): HeldLock {
  const record: LockRecord = {
    pid: process.pid,
    ...(ownStartMs() === undefined ? {} : { started_ms: ownStartMs()! }),
    created_ms: Date.now(),
    token: tempSuffix(),
  };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file, record)) return heldLock(file, record.token);
    const read = readTrusted(file);
    if (read === undefined) continue;
    if ("why" in read) {
      notice(`warning: ignoring the lock ${file}: it ${read.why}`);
      return { path: file, held: false, release() {} };
    }
    const other = parse(read.text);
    const why = other === undefined ? "it is not a lock pep wrote" : staleness(other);
    if (why === undefined) throw new LockBusyError(file, other!.pid);
    if (unlinkQuietly(file)) notice(`removed the stale lock ${file} (${why})`);
  }
  throw new LockBusyError(file, parse(String((readTrusted(file) as { text?: string })?.text ?? ""))?.pid ?? 0);
}

function heldLock(file: string, token: string): HeldLock {
  let released = false;
  // The lock as made: removed only while the name still holds this very file.
  const made = lstatSync(file, { throwIfNoEntry: false });
  return {
    path: file,
    held: true,
    release() {
      if (released) return;
      released = true;
      const now = lstatSync(file, { throwIfNoEntry: false });
      if (!made || !now || now.ino !== made.ino || now.dev !== made.dev) return;
      const read = readTrusted(file);
      // In a folder that fails the trust rule the content is not read back, the inode says it is ours.
      if (read && "text" in read && parse(read.text)?.token !== token) return;
      unlinkQuietly(file);
    },
  };
}
