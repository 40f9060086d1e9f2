/**
 * Whether the process that left a lock is still the one at work. A process id alone
 * says little: after SIGKILL the process may linger as a zombie that nobody reaps (a
 * container's first process), and the id may have been given to an unrelated process
 * since. Where /proc exists (Linux), a holder is alive only if its process exists, is not
 * a zombie, and started no later than the lock was made (its start time: field 22 of
 * /proc/<pid>/stat, in clock ticks since boot, plus the boot time from /proc/stat).
 * Elsewhere, `kill(pid, 0)` answers.
 */
import { readFileSync } from "node:fs";

/** Linux reports process times in USER_HZ, 100 a second on every architecture. */
const TICKS_PER_SECOND = 100;

/** Start times are known to the tick; the boot time only to the second. */
const SLACK_MS = 1_000;

let bootMs: number | null | undefined;

function bootTimeMs(): number | null {
  if (bootMs !== undefined) return bootMs;
  try {
    const m = /^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"));
    bootMs = m ? Number(m[1]) * 1000 : null;
  } catch {
    bootMs = null;
  }
  return bootMs;
}

/** What /proc says of `pid`: its state letter and start time (ms since the epoch); null: no /proc; "gone". */
export function procInfo(pid: number): { state: string; startMs: number } | "gone" | null {
  let text: string;
  try {
    text = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ESRCH") return bootTimeMs() === null ? null : "gone";
    return null;
  }
  const boot = bootTimeMs();
  // The name (field 2) is in parentheses and may hold spaces or ")": read after the last one.
  const fields = text.slice(text.lastIndexOf(")") + 2).split(" ");
  const state = fields[0] ?? "";
  const ticks = Number(fields[19]);
  if (boot === null || !Number.isFinite(ticks)) return null;
  return { state, startMs: boot + (ticks * 1000) / TICKS_PER_SECOND };
}

/** This process's start time (ms since the epoch), where /proc tells it. */
export function ownStartMs(): number | undefined {
  const info = procInfo(process.pid);
  return info === null || info === "gone" ? undefined : info.startMs;
}

/** Whether `pid` exists at all (a process of another user counts: it answers EPERM). */
function exists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Whether process `pid` can be the one that made a lock at `sinceMs` (ms since the
 * epoch): it exists, is no zombie, and had started by then.
 */
export function holderAlive(pid: number, sinceMs: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return true;
  const info = procInfo(pid);
  if (info === "gone") return false;
  if (info === null) return exists(pid);
  if (info.state === "Z" || info.state === "X" || info.state === "x") return false;
  return info.startMs <= sinceMs + SLACK_MS;
}
