/**
 * Where the library lives: `--db`, else `PEP_DB`, else the profile's `db`, else one SQLite
 * file per profile in the data folder (`$PEP_DATA_DIR`, else `$XDG_DATA_HOME/pep`, else
 * `~/.local/share/pep`), `library/<profile>.sqlite`. A `postgres://` (or `postgresql://`)
 * URL puts it in PostgreSQL.
 *
 * The file, its side files (`-wal`, `-journal`, `-shm`, the lock) and its folder are
 * checked before SQLite opens anything, as the config file is (core/owner.ts): no
 * symbolic link, the user's own (or root's), writable by no one else, the folder with no
 * sticky exception and every folder above it the user's or root's; a folder pep makes
 * is 0700 and the file 0600.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, realpathSync } from "node:fs";
import path from "node:path";
import { UsageError } from "../core/errors.js";
import { makeDirs } from "../core/dirs.js";
import { currentUid, octalMode, unsafeOwnership } from "../core/owner.js";
import { isPostgresUrl } from "../config/db-value.js";
import { dataDir } from "../config/locations.js";

export { checkDbValue, isPostgresUrl, maskDbUrl } from "../config/db-value.js";
export { dataDir, sandboxLibraryFile } from "../config/locations.js";

type Env = Record<string, string | undefined>;

export type LibraryTarget = { kind: "sqlite"; file: string } | { kind: "postgres"; url: string };

/** The default library file of `profile`. */
export function defaultLibraryFile(env: Env, profile: string): string {
  return path.join(dataDir(env), "library", `${profile}.sqlite`);
}

/** Where this run's library is: the value chosen, else the profile's default file. */
export function libraryTarget(value: string | undefined, env: Env, cwd: string, profile: string): LibraryTarget {
  if (value !== undefined && isPostgresUrl(value)) return { kind: "postgres", url: value.trim() };
  if (value !== undefined) return { kind: "sqlite", file: path.resolve(cwd, value) };
  return { kind: "sqlite", file: defaultLibraryFile(env, profile) };
}

function refuse(what: string, reason: string): never {
  throw new UsageError(`the library ${what} is not safe to use: ${reason}`, {
    hints: ["it must be your own, not a symbolic link, and writable by no one else (chmod go-w)"],
  });
}

/** Checks `p` (a folder or file), if it exists: not a link, owned by the user or root, no group/other write. */
export function checkTrusted(p: string, what: "file" | "folder"): boolean {
  let st: ReturnType<typeof lstatSync>;
  try {
    st = lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw new UsageError(`cannot read the library ${what} ${p}: ${(err as Error).message}`);
  }
  if (st.isSymbolicLink()) refuse(`${what} ${p}`, "it is a symbolic link");
  if (what === "folder" ? !st.isDirectory() : !st.isFile()) refuse(`${what} ${p}`, `it is not a ${what}`);
  const uid = currentUid();
  if (uid === undefined) return true;
  const bad = unsafeOwnership(what, st, uid);
  if (bad && "owner" in bad) refuse(`${what} ${p}`, `it belongs to user ${bad.owner}`);
  if (bad && "mode" in bad) refuse(`${what} ${p}`, `it is writable by others (mode ${octalMode(bad.mode)})`);
  return true;
}

/** The files SQLite opens by path beside a library: its journals, its shared memory, and pep's sync lock. */
export const SIDE_SUFFIXES = ["-wal", "-journal", "-shm", ".lock"] as const;

/**
 * The library's folder: writable by its owner alone (a sticky folder such as /tmp is no
 * exception here: SQLite opens `-wal`, `-journal` and `-shm` by name, and whoever may put
 * a file there first writes the library's answers), owned by the user or root, and every
 * folder above it owned by the user or root and, when others may write it, sticky (so no
 * one else can rename the library's folder away and put theirs in its place).
 */
function checkLibraryFolder(folder: string): void {
  checkTrusted(folder, "folder");
  const uid = currentUid();
  if (uid === undefined) return;
  const st = lstatSync(folder);
  if ((st.mode & 0o022) !== 0)
    refuse(
      `folder ${folder}`,
      `others can write in it (mode ${(st.mode & 0o7777).toString(8).padStart(4, "0")}), so they could put a -wal or -journal file there that SQLite would read as the library's`,
    );
  const above = (p: string): string[] => {
    const out: string[] = [];
    for (let d = path.dirname(p); ; d = path.dirname(d)) {
      out.push(d);
      if (path.dirname(d) === d) return out;
    }
  };
  let real = folder;
  try {
    real = realpathSync(folder);
  } catch {
    /* checked as given */
  }
  for (const d of new Set([...above(folder), ...above(real)])) {
    const a = lstatSync(d, { throwIfNoEntry: false });
    if (!a) continue;
    if (a.uid !== uid && a.uid !== 0)
      refuse(`folder ${folder}`, `the folder ${d} above it belongs to user ${a.uid}, who could replace it`);
    if (a.isDirectory() && (a.mode & 0o022) !== 0 && (a.mode & 0o1000) === 0)
      refuse(`folder ${folder}`, `the folder ${d} above it can be written by others (mode ${octalMode(a.mode)})`);
  }
}

/**
 * Makes sure the library file can be used before SQLite opens anything: its folder exists
 * (made 0700 when missing, as the data folder above it when that is pep's own) and passes
 * `checkLibraryFolder`, and the file and every side file SQLite or pep opens by path
 * beside it (`SIDE_SUFFIXES`) pass `checkTrusted`, each refused by name. With `create`, a
 * missing file is made empty with mode 0600; otherwise it must exist.
 */
export function prepareLibraryFile(file: string, create: boolean): { exists: boolean } {
  const folder = path.dirname(file);
  if (!checkTrusted(folder, "folder")) {
    if (!create) return { exists: false };
    try {
      makeDirs(folder, 0o700);
    } catch (err) {
      throw new UsageError(`cannot make the library folder ${folder}: ${(err as Error).message}`);
    }
  }
  checkLibraryFolder(folder);
  for (const suffix of SIDE_SUFFIXES) checkTrusted(`${file}${suffix}`, "file");
  if (checkTrusted(file, "file")) return { exists: true };
  if (!create) return { exists: false };
  let fd: number;
  try {
    fd = openSync(file, constants.O_CREAT | constants.O_EXCL | constants.O_WRONLY | (constants.O_NOFOLLOW ?? 0), 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "EEXIST") return { exists: checkTrusted(file, "file") };
    throw new UsageError(`cannot make the library file ${file}: ${(err as Error).message}`);
  }
  try {
    if (!fstatSync(fd).isFile()) refuse(`file ${file}`, "it is not a file");
  } finally {
    closeSync(fd);
  }
  return { exists: true };
}
