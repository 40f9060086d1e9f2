/**
 * `--file <path>`: output goes to a temp file beside the target and is renamed over it
 * only when the run succeeds, so the target is either the old file or the whole new
 * one, never half-written (an error or Ctrl-C calls `abort()`, which removes the temp
 * file). Same folder, so the rename is atomic on one file system. A symlink is followed
 * (the file it points at is replaced, the link kept), except where the kernel's
 * `protected_symlinks` rule would refuse it (see `refuseProtectedSymlinks`), and a target that is not a regular
 * file (`/dev/null`, a named pipe) is written in place: renaming over it would replace
 * the device or pipe with a plain file.
 */
import { constants, unlinkSync } from "node:fs";
import {
  access,
  lstat,
  open,
  readFile,
  readlink,
  realpath,
  rename,
  stat,
  unlink,
  type FileHandle,
} from "node:fs/promises";
import path from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { OutputError, UsageError } from "../core/errors.js";
import { tempSuffix } from "../core/temp-name.js";
import { claimTarget } from "./file-claim.js";

export interface AtomicFile {
  /** Write the output here. */
  stream: Writable;
  /** Flushes, fsyncs and renames the temp file over the target (or to `into`: a partial export). */
  commit(into?: string): Promise<void>;
  /** What was written can be kept apart from the target (not a device written in place). */
  readonly keepable: boolean;
  /** Drops the temp file; the target is left as it was. */
  abort(): Promise<void>;
  /** `abort()` at once, synchronously, for a process about to exit (a second Ctrl-C). */
  discardSync(): void;
}

async function fsyncFolder(folder: string): Promise<void> {
  // Makes the rename itself durable; not every platform can open a folder, so best effort.
  let handle: FileHandle | undefined;
  try {
    handle = await open(folder, constants.O_RDONLY);
    await handle.sync();
  } catch {
    /* best effort */
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** Longest file name, in bytes, on the usual file systems. */
const NAME_MAX = 255;

/**
 * The temp file beside `target`: `.<name>.<pid>-<n>.tmp` (the process id says who writes
 * the target: output/file-claim.ts), the name shortened when the whole would pass the
 * file system's limit (a target named near that limit stays writable).
 */
function tempPathFor(target: string): string {
  const suffix = `.${tempSuffix()}.tmp`;
  let name = path.basename(target);
  while (name && Buffer.byteLength(`.${name}${suffix}`) > NAME_MAX) name = [...name].slice(0, -1).join("");
  return path.join(path.dirname(target), `.${name}${suffix}`);
}

/** Which user pep runs as; undefined where files have no POSIX owners (Windows). */
const currentUid = (): number | undefined => process.getuid?.();

/**
 * The kernel's `fs.protected_symlinks` rule, applied by pep itself (pep renames over the
 * link's target, which the kernel never checks, and the rule may be off): in a sticky
 * folder that everyone can write (`/tmp`), a symbolic link is followed only when it
 * belongs to the user or to the folder's owner. Anyone else's link there may point at
 * any file of the user's, which `--file` would then replace. Every link on the way is
 * checked, in the path's folders too, as the kernel checks each one it follows.
 */
async function refuseProtectedSymlinks(requested: string): Promise<void> {
  const uid = currentUid();
  if (uid === undefined) return;
  const absolute = path.resolve(requested);
  let current = path.parse(absolute).root;
  let pending = absolute.split(path.sep).filter((c) => c !== "");
  for (let hops = 0; pending.length > 0; ) {
    const name = pending.shift()!;
    if (name === ".") continue;
    if (name === "..") {
      current = path.dirname(current);
      continue;
    }
    const next = path.join(current, name);
    const st = await lstat(next).catch(() => undefined);
    // The rest does not exist yet: nothing more is followed.
    if (!st) return;
    if (!st.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++hops > 40) return; // a loop of links: realTarget says so
    const folder = await stat(current);
    if ((folder.mode & 0o1002) === 0o1002 && st.uid !== uid && st.uid !== folder.uid) {
      const e: NodeJS.ErrnoException = new Error(
        `--file: not following the symbolic link ${next}: it belongs to uid ${st.uid}, in ${current}, a sticky folder everyone can write (which belongs to uid ${folder.uid}), so someone else could point it at any file of yours (the protected_symlinks rule); remove the link or write elsewhere`,
      );
      e.code = "EACCES";
      e.syscall = "open";
      e.path = next;
      throw e;
    }
    const link = await readlink(next);
    if (path.isAbsolute(link)) current = path.parse(link).root;
    pending = [...link.split(path.sep).filter((c) => c !== ""), ...pending];
  }
}

/**
 * Checks before any request that `--file` can be written: a name the file system takes,
 * not a folder, and a temp file can be created beside it (created and removed at once).
 * `openAtomicFile` creates its own when the output is ready.
 */
export async function checkFileTarget(target: string): Promise<void> {
  await refuseProtectedSymlinks(target);
  const folder = path.dirname(target);
  const st = await stat(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENAMETOOLONG") throw new UsageError(`--file: the name is too long (ENAMETOOLONG)`);
    return undefined;
  });
  if (st?.isDirectory()) throw new UsageError(`--file: ${target} is a folder`);
  if (st && !st.isFile()) {
    await access(target, constants.W_OK).catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`--file: cannot write to ${target}${err.code ? ` (${err.code})` : ""}`);
    });
    return;
  }
  const probe = tempPathFor(await realTarget(target));
  try {
    await (await open(probe, "wx")).close();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutputError(`--file: cannot write in ${folder}${code ? ` (${code})` : ""}`);
  }
  await unlink(probe).catch(() => undefined);
}

/**
 * Where a rename must land: the file a symlink points at, or the path itself. A link to a
 * file not made yet (a dangling link) is followed as shell `>` follows it: the file it
 * names is created and the link kept. A folder that does not exist is a usage error.
 */
async function realTarget(target: string): Promise<string> {
  let p = target;
  for (let hops = 0; ; hops++) {
    try {
      return await realpath(p);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === "ELOOP" || hops >= 40)
        throw new UsageError(`--file: ${target} is a loop of symbolic links`);
    }
    const link = await readlink(p).catch(() => undefined);
    if (link === undefined) break;
    p = path.resolve(path.dirname(p), link);
  }
  const folder = path.dirname(p);
  const st = await stat(folder).catch(() => undefined);
  if (!st)
    throw new UsageError(`--file: the folder ${folder} does not exist`, {
      hints: [`create it first (mkdir -p ${folder})`],
    });
  if (!st.isDirectory()) throw new UsageError(`--file: ${folder} is not a folder`);
  return path.join(await realpath(folder), path.basename(p));
}

/** A device or a pipe, written in place: there is nothing to keep whole. */
async function openInPlace(target: string): Promise<AtomicFile> {
  const handle = await open(target, "w");
  const stream = handle.createWriteStream();
  let streamError: unknown;
  stream.on("error", (e) => {
    streamError ??= e;
  });
  return {
    stream,
    keepable: false,
    async commit() {
      if (streamError) throw streamError;
      stream.end();
      await finished(stream);
    },
    async abort() {
      stream.destroy();
      await finished(stream).catch(() => undefined);
    },
    discardSync() {
      stream.destroy();
    },
  };
}

/**
 * Creates `temp` (O_EXCL) with the mode of the file it will replace, once no other live
 * process is writing the same target (output/file-claim.ts).
 */
async function openTemp(requested: string, target: string, temp: string): Promise<FileHandle> {
  await claimTarget(requested, temp);
  // Keep the mode of a file being replaced; a new one gets 0666 less the umask (0644 usually).
  let mode = 0o666;
  try {
    const st = await stat(target);
    if (st.isDirectory()) throw new UsageError(`--file: ${target} is a folder`);
    mode = st.mode & 0o777;
  } catch (err) {
    if (err instanceof UsageError) throw err;
  }
  let handle: FileHandle;
  try {
    handle = await open(temp, "wx", mode);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutputError(`--file: cannot write in ${path.dirname(target)}${code ? ` (${code})` : ""}`);
  }
  if (mode !== 0o666) await handle.chmod(mode).catch(() => undefined);
  try {
    await claimTarget(requested, temp, true);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  return handle;
}

/** `from`: a partial export whose text the new file starts with (the same command, finished). */
export async function openAtomicFile(requested: string, options: { from?: string } = {}): Promise<AtomicFile> {
  // Again here: a link may have been put in place since checkFileTarget looked.
  await refuseProtectedSymlinks(requested);
  const existing = await stat(requested).catch(() => undefined);
  if (existing && !existing.isFile() && !existing.isDirectory()) return openInPlace(requested);
  const target = await realTarget(requested);
  const folder = path.dirname(target);
  const temp = tempPathFor(target);
  const handle = await openTemp(requested, target, temp);
  const earlier = options.from === undefined ? undefined : await readFile(options.from);
  // The stream owns the handle and closes it when it ends or is destroyed.
  const stream = handle.createWriteStream();
  if (earlier) stream.write(earlier);
  let streamError: unknown;
  stream.on("error", (e) => {
    streamError ??= e;
  });
  let settled = false;

  return {
    stream,
    keepable: true,
    async commit(into) {
      if (settled) return;
      settled = true;
      try {
        if (streamError) throw streamError;
        stream.end();
        await finished(stream);
        // fsync applies to the file, so a fresh descriptor flushes what the stream wrote.
        const sync = await open(temp, "r+");
        try {
          await sync.sync();
        } finally {
          await sync.close();
        }
        await rename(temp, into ?? target);
      } catch (err) {
        stream.destroy();
        await unlink(temp).catch(() => undefined);
        throw err;
      }
      await fsyncFolder(folder);
    },
    async abort() {
      if (settled) return;
      settled = true;
      stream.destroy();
      await finished(stream).catch(() => undefined);
      await unlink(temp).catch(() => undefined);
    },
    discardSync() {
      // Also mid-commit: the process exits before the rename, so the temp file must go.
      // After the rename it no longer exists, and unlinking it fails harmlessly.
      settled = true;
      stream.destroy();
      try {
        unlinkSync(temp);
      } catch {
        /* already gone */
      }
    },
  };
}
