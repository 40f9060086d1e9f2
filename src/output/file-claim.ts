/**
 * One writer per `--file` target. A writer's temp file beside the target carries its
 * process id (`.<name>.<pid>-<n>.tmp`, core/temp-name.ts), so the temp files say who is
 * writing: a run that finds a live process's temp file for the same target fails at once
 * (exit 1) naming it, and removes the temp files of processes that no longer exist (a run
 * killed with SIGKILL, a CI timeout), which nothing else would ever remove.
 */
import { readdir, unlink } from "node:fs/promises";
import path from "node:path";
import { OutputError } from "../core/errors.js";

/** Another process is writing the same target. */
export class TargetBusyError extends OutputError {
  constructor(target: string, pid: number) {
    super(`--file ${target}: another pep (process ${pid}) is writing it`, {
      hints: ["wait for it to finish, or write to another file"],
    });
  }
}

/** Whether process `pid` exists (one of another user counts: it answers EPERM). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The temp files of `prefix` (`.<name>.`) in `folder`, with the process that made each. */
async function tempsIn(folder: string, prefix: string): Promise<Array<{ file: string; pid: number }>> {
  const names = await readdir(folder).catch(() => [] as string[]);
  const found: Array<{ file: string; pid: number }> = [];
  for (const n of names) {
    if (!n.startsWith(prefix) || !n.endsWith(".tmp")) continue;
    const m = /^([0-9a-z]+)-[0-9a-z]+\.tmp$/.exec(n.slice(prefix.length));
    if (m) found.push({ file: path.join(folder, n), pid: Number.parseInt(m[1]!, 36) });
  }
  return found;
}

/**
 * Refuses `target` while another live process writes it, and removes the temp files of
 * processes that have ended. With `mine` (this run's temp file, once made), two runs that
 * started together both see each other: the one with the higher process id gives way.
 */
export async function claimTarget(target: string, tempPath: string, mine = false): Promise<void> {
  const folder = path.dirname(tempPath);
  // `.<name>.<pid>-<n>.tmp` -> `.<name>.`: what every writer's temp file for the target starts with.
  const stem = path.basename(tempPath).slice(0, -".tmp".length);
  const prefix = stem.slice(0, stem.lastIndexOf(".") + 1);
  for (const t of await tempsIn(folder, prefix)) {
    if (t.pid === process.pid) continue;
    if (!alive(t.pid)) {
      await unlink(t.file).catch(() => undefined);
      continue;
    }
    if (!mine || t.pid < process.pid) throw new TargetBusyError(target, t.pid);
  }
}
