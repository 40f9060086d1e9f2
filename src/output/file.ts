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
import { closeSync, constants, readFileSync, unlinkSync } from "node:fs";
import { access, lstat, open, readlink, realpath, rename, stat, unlink, type FileHandle } from "node:fs/promises";
import path from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { OutputError, outputReasonOf, UsageError } from "../core/errors.js";
import { tempSuffix } from "../core/temp-name.js";
import { openTrusted } from "../core/trusted-file.js";
import { removeDeadTemps } from "./file-claim.js";

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
 * not a folder, not a read-only file, and a temp file can be created beside it (created
 * and removed at once). `openAtomicFile` creates its own when the output is ready.
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
  if (st) await refuseReadOnly(target, st.mode, "file");
  const real = await realTarget(target);
  const probe = tempPathFor(real);
  const realFolder = path.dirname(real);
  const folderMode = (await stat(realFolder).catch(() => undefined))?.mode;
  if (folderMode !== undefined) await refuseReadOnly(realFolder, folderMode, "folder", target);
  try {
    await (await open(probe, "wx", 0o600)).close();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutputError(`--file ${target}: cannot write in ${folder}${code ? ` (${code})` : ""}`, {
      reason: outputReasonOf(code),
    });
  }
  await unlink(probe).catch(() => undefined);
}

/**
 * A target (or its folder) that cannot be written, or that was made read-only on purpose
 * (no write bit: `chmod a-w`, which even root is asked to respect), is refused here, before
 * any request, rather than met after the whole download.
 */
async function refuseReadOnly(where: string, mode: number, what: "file" | "folder", target = where): Promise<void> {
  const denied = await access(where, constants.W_OK).then(
    () => undefined,
    (err: NodeJS.ErrnoException) => err.code ?? "EACCES",
  );
  if (denied === undefined && (mode & 0o222) !== 0) return;
  const code = denied ?? "read-only";
  const fix = what === "file" ? `chmod u+w ${where}` : `chmod u+w ${where}`;
  throw new OutputError(
    `--file ${target}: ${what === "file" ? "the file" : `its folder ${where}`} cannot be written (${code}, mode ${(mode & 0o777).toString(8).padStart(4, "0")})`,
    { reason: "permission_denied", hints: [`make it writable (${fix}) or write elsewhere`] },
  );
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
 * Creates `temp` (O_EXCL | O_NOFOLLOW, mode 0600: what it holds may become a partial that
 * only the user reads), after removing the temp files that dead writers of the same
 * target left (output/file-claim.ts). Returns it with the mode the target gets on commit.
 */
async function openTemp(
  requested: string,
  target: string,
  temp: string,
): Promise<{ handle: FileHandle; mode: number }> {
  removeDeadTemps(temp);
  // Keep the mode of a file being replaced; a new one gets 0666 less the umask (0644 usually).
  let mode = 0o666 & ~currentUmask();
  try {
    const st = await stat(target);
    if (st.isDirectory()) throw new UsageError(`--file: ${target} is a folder`);
    mode = st.mode & 0o777;
  } catch (err) {
    if (err instanceof UsageError) throw err;
  }
  try {
    return {
      handle: await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600),
      mode,
    };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutputError(`--file ${requested}: cannot write in ${path.dirname(target)}${code ? ` (${code})` : ""}`, {
      reason: outputReasonOf(code),
    });
  }
}

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The process's umask (read only: reading it this way works in worker threads too). */
function currentUmask(): number {
  try {
    return process.umask();
  } catch {
    return 0o022;
  }
}

/** What a continued export starts with: its partial, checked to be what pep kept. */
export interface KeptStart {
  path: string;
  bytes: number;
  sha256: string;
}

/**
 * The text of a kept partial, read through the trusted-file rule (never a link, only the
 * user's) and checked against the size and digest its state recorded.
 */
async function keptText(from: KeptStart): Promise<Buffer> {
  const { sha256Hex } = await import("./partial.js");
  const opened = openTrusted(from.path);
  if (opened === undefined || "why" in opened)
    throw new OutputError(
      `--file: the kept ${from.path} ${opened?.why ?? "is gone"}; run the command again to start over`,
    );
  let text: Buffer;
  try {
    text = readFileSync(opened.fd);
  } finally {
    closeSync(opened.fd);
  }
  if (text.length !== from.bytes || sha256Hex(text) !== from.sha256)
    throw new OutputError(`--file: ${from.path} changed since it was checked; run the command again to start over`);
  return text;
}

/** `from`: a partial export whose text the new file starts with (the same command, finished). */
export async function openAtomicFile(requested: string, options: { from?: KeptStart } = {}): Promise<AtomicFile> {
  // Again here: a link may have been put in place since checkFileTarget looked.
  await refuseProtectedSymlinks(requested);
  const existing = await stat(requested).catch(() => undefined);
  if (existing && !existing.isFile() && !existing.isDirectory()) return openInPlace(requested);
  const target = await realTarget(requested);
  const folder = path.dirname(target);
  const temp = tempPathFor(target);
  const { handle, mode } = await openTemp(requested, target, temp);
  let earlier: Buffer | undefined;
  try {
    earlier = options.from === undefined ? undefined : await keptText(options.from);
  } catch (err) {
    await handle.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
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
        // fsync applies to the file, so a fresh descriptor (read-only: the temp file may be
        // given a read-only mode) flushes what the stream wrote. A partial stays 0600; the
        // target gets the mode of the file it replaces.
        const sync = await open(temp, constants.O_RDONLY | NOFOLLOW);
        try {
          await sync.sync();
          if (into === undefined) await sync.chmod(mode).catch(() => undefined);
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
