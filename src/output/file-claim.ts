/**
 * One writer per `--file` target: `<file>.lock` (core/lock-file.ts), taken before any
 * request and released when the run ends, holds the writer's process id and start time.
 * A second run for the same target while the first is alive fails at once (exit 1,
 * `target_busy`) naming the process and the lock; a lock whose process is gone (SIGKILL,
 * a CI timeout, a zombie, a reused process id) is removed with a notice. Temp files of
 * writers that are gone (`.<name>.<pid>-<n>.tmp`, core/temp-name.ts), which nothing else
 * would ever remove, are removed too, when they are the user's own plain files.
 */
import { lstatSync, readdirSync } from "node:fs";
import path from "node:path";
import { OutputError, outputReasonOf } from "../core/errors.js";
import { acquireLock, type HeldLock, LockBusyError } from "../core/lock-file.js";
import { holderAlive } from "../core/process-alive.js";
import { distrustOf, NAME_MAX, sideName, unlinkQuietly } from "../core/trusted-file.js";

/** Another process is writing the same target. */
export class TargetBusyError extends OutputError {
  constructor(
    target: string,
    readonly pid: number,
    readonly lockPath: string,
  ) {
    super(`--file ${target}: another pep (process ${pid}) is writing it`, {
      reason: "target_busy",
      hints: [
        "wait for it to finish, or write to another file",
        `if no pep is writing it (the process is another program), remove ${lockPath}`,
      ],
    });
  }
}

/**
 * The lock of a target: `<target>.lock`, beside it; for a name near the file system's
 * limit, `.<name shortened>.<hash of the name>.lock`, still one per target.
 */
export function lockPathOf(target: string): string {
  const plain = `${target}.lock`;
  if (Buffer.byteLength(path.basename(plain)) <= NAME_MAX) return plain;
  let h = 0x811c9dc5;
  for (const b of Buffer.from(path.basename(target))) h = Math.imul(h ^ b, 0x01000193) >>> 0;
  return sideName(target, ".", `.${h.toString(36)}.lock`);
}

/**
 * Takes the lock of `target` (an absolute path) before any request; throws TargetBusyError
 * while another live pep holds it. Notices: a stale lock removed, an untrusted one ignored.
 */
export function lockTarget(target: string, notice: (line: string) => void): HeldLock {
  const file = lockPathOf(target);
  try {
    return acquireLock(file, notice);
  } catch (err) {
    if (err instanceof LockBusyError) throw new TargetBusyError(target, err.pid, err.lockPath);
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutputError(`--file ${target}: cannot create its lock ${file}${code ? ` (${code})` : ""}`, {
      cause: err,
      reason: outputReasonOf(code),
    });
  }
}

/**
 * Removes the temp files that writers of the same target left when they died: the ones
 * named like `tempPath` (`.<name>.<pid>-<n>.tmp`) whose process is gone, and only when
 * they are the user's own plain files (a link or another user's file is left alone).
 */
export function removeDeadTemps(tempPath: string): void {
  const folder = path.dirname(tempPath);
  // `.<name>.<pid>-<n>.tmp` -> `.<name>.`: what every writer's temp file for the target starts with.
  const stem = path.basename(tempPath).slice(0, -".tmp".length);
  const prefix = stem.slice(0, stem.lastIndexOf(".") + 1);
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return;
  }
  for (const n of names) {
    if (!n.startsWith(prefix) || !n.endsWith(".tmp")) continue;
    const m = /^([0-9a-z]+)-[0-9a-z]+\.tmp$/.exec(n.slice(prefix.length));
    if (!m) continue;
    const file = path.join(folder, n);
    const st = lstatSync(file, { throwIfNoEntry: false });
    if (!st || distrustOf("file", st) !== undefined) continue;
    if (!holderAlive(Number.parseInt(m[1]!, 36), st.mtimeMs)) unlinkQuietly(file);
  }
}
