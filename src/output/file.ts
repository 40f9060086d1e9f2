/**
 * `--file <path>`: output goes to a temp file beside the target and is renamed onto the
 * path as given only when the run succeeds, so the target is either the old file or the
 * whole new one, never half-written (an error or Ctrl-C calls `abort()`, which removes
 * the temp file). Same folder, so the rename is atomic on one file system. The target is
 * never resolved (no `realpath`): a symbolic link at the name is replaced by the new
 * file, never followed, so a link another process swaps in between a check and the
 * rename changes nothing behind it (core/trusted-file.ts writes this way for every
 * file). The folders on the way are followed as the kernel follows them, except where
 * its `protected_symlinks` rule would refuse (see `refuseUnsafeLinks`). A target that is
 * a device or a named pipe (`/dev/stdout`, a FIFO) is written in place: renaming over
 * it would replace the device or pipe with a plain file.
 */
import { closeSync, constants, createWriteStream, readFileSync, unlinkSync } from "node:fs";
import { access, lstat, open, readlink, stat, unlink } from "node:fs/promises";
import path from "node:path";
import type { Writable } from "node:stream";
import { finished } from "node:stream/promises";
import { OutputError, outputReasonOf, UsageError } from "../core/errors.js";
import { createExclusive, openTrusted, replaceWith, tempBeside } from "../core/trusted-file.js";
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

/** Which user pep runs as; undefined where files have no POSIX owners (Windows). */
const currentUid = (): number | undefined => process.getuid?.();

/** In a sticky folder everyone can write (`/tmp`), what `st` (found there) belongs to when that is neither the user nor the folder's owner. */
async function strangerIn(folder: string, st: { uid: number }, uid: number): Promise<number | undefined> {
  const f = await stat(folder);
  return (f.mode & 0o1002) === 0o1002 && st.uid !== uid && st.uid !== f.uid ? f.uid : undefined;
}

function refusal(message: string, at: string): NodeJS.ErrnoException {
  const e: NodeJS.ErrnoException = new Error(message);
  e.code = "EACCES";
  e.syscall = "open";
  e.path = at;
  return e;
}

/**
 * In a sticky folder everyone can write (`/tmp`), another user's name is not pep's to
 * use. The kernel's `fs.protected_symlinks` rule, applied by pep itself to the folders on
 * the way (the rule may be off): a symbolic link there is followed only when it belongs
 * to the user or to the folder's owner, since anyone else's may point anywhere. The last
 * name is never followed, only replaced: it is refused when it is someone else's there
 * (the kernel refuses that rename to anyone but root).
 */
async function refuseUnsafeLinks(requested: string): Promise<void> {
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
    if (pending.length === 0) {
      const owner = await strangerIn(current, st, uid);
      if (owner !== undefined)
        throw refusal(
          `--file: not replacing ${next}: it belongs to uid ${st.uid}, in ${current}, a sticky folder everyone can write (which belongs to uid ${owner}); remove it or write elsewhere`,
          next,
        );
      return;
    }
    if (!st.isSymbolicLink()) {
      current = next;
      continue;
    }
    if (++hops > 40) return; // a loop of links: the folder's check says so
    const owner = await strangerIn(current, st, uid);
    if (owner !== undefined)
      throw refusal(
        `--file: not following the symbolic link ${next}: it belongs to uid ${st.uid}, in ${current}, a sticky folder everyone can write (which belongs to uid ${owner}), so someone else could point it at any folder of yours (the protected_symlinks rule); remove the link or write elsewhere`,
        next,
      );
    const link = await readlink(next);
    if (path.isAbsolute(link)) current = path.parse(link).root;
    pending = [...link.split(path.sep).filter((c) => c !== ""), ...pending];
  }
}

/** The folder the target is written in, which must exist (a usage error before any request). */
async function existingFolder(target: string): Promise<string> {
  const folder = path.dirname(target);
  const st = await stat(folder).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ELOOP") throw new UsageError(`--file: ${folder} is a loop of symbolic links`);
    return undefined;
  });
  if (!st)
    throw new UsageError(`--file: the folder ${folder} does not exist`, {
      hints: [`create it first (mkdir -p ${folder})`],
    });
  if (!st.isDirectory()) throw new UsageError(`--file: ${folder} is not a folder`);
  return folder;
}

/** A device, a pipe or a socket, reached by the name or through a link: written in place. */
const inPlace = (st: { isFile(): boolean; isDirectory(): boolean } | undefined) =>
  st !== undefined && !st.isFile() && !st.isDirectory();

/**
 * Checks before any request that `--file` can be written: a name the file system takes,
 * not a folder, not a read-only file, and a temp file can be created beside it (created
 * and removed at once). `openAtomicFile` creates its own when the output is ready.
 */
export async function checkFileTarget(target: string): Promise<void> {
  await refuseUnsafeLinks(target);
  const own = await lstat(target).catch((err: NodeJS.ErrnoException) => {
    if (err.code === "ENAMETOOLONG") throw new UsageError(`--file: the name is too long (ENAMETOOLONG)`);
    return undefined;
  });
  if (own?.isDirectory()) throw new UsageError(`--file: ${target} is a folder`);
  const st = own?.isSymbolicLink() ? await stat(target).catch(() => undefined) : own;
  if (inPlace(st)) {
    await access(target, constants.W_OK).catch((err: NodeJS.ErrnoException) => {
      throw new UsageError(`--file: cannot write to ${target}${err.code ? ` (${err.code})` : ""}`);
    });
    return;
  }
  if (own?.isFile()) await refuseReadOnly(target, own.mode, "file");
  const folder = await existingFolder(target);
  await refuseReadOnly(folder, (await stat(folder)).mode, "folder", target);
  const probe = tempBeside(target);
  try {
    closeSync(createExclusive(probe));
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
  throw new OutputError(
    `--file ${target}: ${what === "file" ? "the file" : `its folder ${where}`} cannot be written (${code}, mode ${(mode & 0o777).toString(8).padStart(4, "0")})`,
    { reason: "permission_denied", hints: [`make it writable (chmod u+w ${where}) or write elsewhere`] },
  );
}

/**
 * A device or a pipe, written in place: there is nothing to keep whole. Opened without
 * O_CREAT or O_TRUNC, so a plain file swapped in at the name since it was looked at is
 * left untouched: undefined then, and the file is replaced like any other.
 */
async function openInPlace(target: string): Promise<AtomicFile | undefined> {
  const handle = await open(target, constants.O_WRONLY);
  if ((await handle.stat()).isFile()) {
    await handle.close();
    return undefined;
  }
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
 * Creates the temp file beside `target` (core/trusted-file.ts createExclusive: O_EXCL |
 * O_NOFOLLOW, mode 0600 whatever the umask: what it holds may become a partial that only
 * the user reads), after removing the temp files that dead writers of the same target left (output/file-claim.ts). Returns it with the mode the
 * target gets on commit: the replaced file's (only a plain file at the name itself: a
 * link is replaced, and what it pointed at says nothing), else 0666 less the umask.
 */
async function openTemp(target: string): Promise<{ temp: string; fd: number; mode: number }> {
  const temp = tempBeside(target);
  removeDeadTemps(temp);
  const st = await lstat(target).catch(() => undefined);
  if (st?.isDirectory()) throw new UsageError(`--file: ${target} is a folder`);
  const mode = st?.isFile() ? st.mode & 0o777 : 0o666 & ~currentUmask();
  try {
    return { temp, fd: createExclusive(temp), mode };
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new OutputError(`--file ${target}: cannot write in ${path.dirname(target)}${code ? ` (${code})` : ""}`, {
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
  await refuseUnsafeLinks(requested);
  if (inPlace(await stat(requested).catch(() => undefined))) {
    const device = await openInPlace(requested);
    if (device) return device;
  }
  await existingFolder(requested);
  const { temp, fd, mode } = await openTemp(requested);
  let earlier: Buffer | undefined;
  try {
    earlier = options.from === undefined ? undefined : await keptText(options.from);
  } catch (err) {
    closeSync(fd);
    await unlink(temp).catch(() => undefined);
    throw err;
  }
  // The stream owns the descriptor and closes it when it ends or is destroyed.
  const stream = createWriteStream("", { fd });
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
        // Onto the path as given: a link at the name is replaced, never followed.
        replaceWith(temp, into ?? requested);
      } catch (err) {
        stream.destroy();
        await unlink(temp).catch(() => undefined);
        throw err;
      }
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
