/**
 * Side files pep writes for itself and reads back later (a `--file` export's partial and
 * its state, a lock, a temp file): the one rule for whether such a file can be trusted,
 * and the one way to create one. Reused by every feature that keeps a file of its own
 * beside the user's data; the ownership rule itself is core/owner.ts, as the config file
 * and the ETag cache apply it.
 *
 * A side file is trusted only when it is
 *   - a plain file, opened with O_NOFOLLOW (never through a symbolic link) and
 *     O_NONBLOCK (a named pipe cannot hang the open);
 *   - owned by the user (or root), writable by no one else;
 *   - in a folder that passes the same rule (a sticky folder such as /tmp passes: nobody
 *     there may rename or remove another's file).
 * A side file is created with O_EXCL | O_NOFOLLOW and mode 0600, so a name planted in
 * advance (a link to one of the user's files) fails the create instead of being written
 * through; a replacement is written that way beside its target and renamed over it.
 * This is also the one module that writes any file atomically (`writeTrusted`,
 * `replaceWith`): the config, the ETag cache, `--file` exports, manifests and state.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  openSync,
  readFileSync,
  renameSync,
  type Stats,
  statSync,
  unlinkSync,
  writeSync,
} from "node:fs";
import path from "node:path";
import { currentUid, octalMode, unsafeOwnership } from "./owner.js";
import { tempSuffix } from "./temp-name.js";

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Longest file name, in bytes, on the usual file systems. */
export const NAME_MAX = 255;

/**
 * `<folder>/<lead><name><tail>`, the name shortened (by whole characters) when the whole
 * would pass NAME_MAX: side files of a target named near the limit stay possible.
 */
export function sideName(file: string, lead: string, tail: string): string {
  let name = path.basename(file);
  while (name && Buffer.byteLength(`${lead}${name}${tail}`) > NAME_MAX) name = [...name].slice(0, -1).join("");
  return path.join(path.dirname(file), `${lead}${name}${tail}`);
}

/** A temp file beside `file` for replacing it: `.<name>.<pid>-<n>.tmp`. */
export const tempBeside = (file: string) => sideName(file, ".", `.${tempSuffix()}.tmp`);

/** Why a file or folder is not trusted, in words that follow its path ("is a symbolic link"). */
export function distrustOf(what: "file" | "folder", st: Stats): string | undefined {
  if (st.isSymbolicLink()) return "is a symbolic link";
  if (what === "file" && !st.isFile()) return "is not a plain file";
  if (what === "folder" && !st.isDirectory()) return "is not a folder";
  const uid = currentUid();
  if (uid === undefined) return undefined;
  const unsafe = unsafeOwnership(what, st, uid);
  if (unsafe === undefined) return undefined;
  return "owner" in unsafe
    ? `belongs to uid ${unsafe.owner}, not to you (uid ${uid})`
    : `can be written by others (mode ${octalMode(unsafe.mode)})`;
}

/** Why the folder `dir` cannot hold trusted side files, if it cannot (missing: undefined). */
export function distrustedFolder(dir: string): string | undefined {
  let st: Stats | undefined;
  try {
    st = lstatSync(dir, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
  if (!st) return undefined;
  // The folder itself may be reached through a link the user made (`exports -> /data/x`):
  // what is judged is the folder the files are in.
  if (st.isSymbolicLink()) {
    try {
      st = statSync(dir);
    } catch {
      return undefined;
    }
  }
  const why = distrustOf("folder", st);
  return why === undefined ? undefined : `the folder ${dir} ${why}`;
}

/** What a file that is not a plain one is, in words: "a named pipe". */
export function kindOfFile(st: Stats): string {
  if (st.isFIFO()) return "a named pipe";
  if (st.isCharacterDevice()) return "a character device";
  if (st.isBlockDevice()) return "a block device";
  if (st.isSocket()) return "a socket";
  if (st.isDirectory()) return "a folder";
  return "not a plain file";
}

/**
 * Opens `file` for reading without waiting (O_NONBLOCK: a named pipe with no writer would
 * hold the open forever, past Ctrl-C) and refuses anything but a plain file with `refuse`.
 */
export function openPlain(file: string, refuse: (kind: string) => Error): number {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  const st = fstatSync(fd);
  if (!st.isFile()) {
    closeSync(fd);
    throw refuse(kindOfFile(st));
  }
  return fd;
}

/** An open trusted file: its descriptor (the caller closes it) and what fstat said. */
export interface TrustedOpen {
  fd: number;
  stat: Stats;
}

/**
 * Opens `file` for reading when it is trusted; `{ why }` when it exists and is not (the
 * reason follows the path: "is a symbolic link"); undefined when there is none.
 */
export function openTrusted(file: string): TrustedOpen | { why: string } | undefined {
  const folder = distrustedFolder(path.dirname(file));
  if (folder !== undefined) {
    const exists = lstatSync(file, { throwIfNoEntry: false });
    return exists ? { why: `is in an untrusted folder (${folder})` } : undefined;
  }
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | NOFOLLOW | NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT") return undefined;
    if (code === "ELOOP" || code === "EMLINK") return { why: "is a symbolic link" };
    return { why: `cannot be opened (${code ?? "error"})` };
  }
  const stat = fstatSync(fd);
  const why = distrustOf("file", stat);
  if (why !== undefined) {
    closeSync(fd);
    return { why };
  }
  return { fd, stat };
}

/** The text of a trusted file; `{ why }` when it is not trusted; undefined when missing. */
export function readTrusted(file: string): { text: string } | { why: string } | undefined {
  const opened = openTrusted(file);
  if (opened === undefined || "why" in opened) return opened;
  try {
    return { text: readFileSync(opened.fd, "utf8") };
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Creates `file` (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0600 whatever the umask) and
 * returns its descriptor; fails with EEXIST when anything at all is there already.
 */
export function createExclusive(file: string): number {
  const fd = openSync(file, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    fchmodSync(fd, 0o600);
  } catch {
    /* a file system without modes */
  }
  return fd;
}

/**
 * A new exclusive temp file beside `file` holding `text`, flushed, with `mode` (0600
 * unless told): its path. What `writeTrusted` renames over a file and a lock links into
 * place; removed on a failure.
 */
export function writeTempBeside(file: string, text: string | Buffer, mode = 0o600): string {
  const temp = tempBeside(file);
  const fd = createExclusive(temp);
  try {
    const data = typeof text === "string" ? Buffer.from(text) : text;
    for (let at = 0; at < data.length; ) at += writeSync(fd, data, at, data.length - at);
    if (mode !== 0o600) fchmodSync(fd, mode);
    fsyncSync(fd);
  } catch (err) {
    closeSync(fd);
    unlinkQuietly(temp);
    throw err;
  }
  closeSync(fd);
  return temp;
}

/** Flushes the folder `dir` (what makes a rename in it durable); best effort: not every platform opens a folder. */
export function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, constants.O_RDONLY);
    fsyncSync(fd);
  } catch {
    /* best effort */
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/**
 * Puts the finished temp file `temp` (made beside `file` by `writeTempBeside` or
 * `createExclusive(tempBeside(file))`) in place: renamed onto `file` as given, never a
 * path resolved from it (a rename replaces a link at the name, it never follows one),
 * then the folder flushed. The temp file is removed when the rename fails.
 */
export function replaceWith(temp: string, file: string): void {
  try {
    renameSync(temp, file);
  } catch (err) {
    unlinkQuietly(temp);
    throw err;
  }
  syncFolder(path.dirname(file));
}

/**
 * The one atomic writer: `text` goes to `file` whole or not at all, for the config, the
 * cache, exports' side files and manifests alike. Written into a new exclusive temp file
 * beside it (O_EXCL | O_NOFOLLOW, 0600, then `mode`), flushed, renamed onto the path as
 * given (`replaceWith`).
 */
export function writeTrusted(file: string, text: string | Buffer, options: { mode?: number } = {}): void {
  replaceWith(writeTempBeside(file, text, options.mode), file);
}

/** Removes `file` when it is there; false when it could not be (another user's, a read-only folder). */
export function unlinkQuietly(file: string): boolean {
  try {
    unlinkSync(file);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "ENOENT";
  }
}
