/**
 * Who could have changed a file or folder pep reads (the config file, ETag cache entries):
 * one rule for both, as ssh applies to `~/.ssh`. A file must belong to the user (or root)
 * and be writable by no one else; a folder likewise, unless it is sticky (a 1777 tmp),
 * where nobody may rename or remove a file they do not own.
 */
import type { Stats } from "node:fs";

/** The user running pep; undefined where there are no POSIX owners (Windows). */
export const currentUid = (): number | undefined => process.getuid?.();

export type Unsafe = { owner: number } | { mode: number };

/** What makes `st` unsafe to trust for `uid`, if anything. */
export function unsafeOwnership(what: "file" | "folder", st: Stats, uid: number): Unsafe | undefined {
  if (st.uid !== uid && st.uid !== 0) return { owner: st.uid };
  const mode = st.mode & 0o7777;
  const sticky = (mode & 0o1000) !== 0;
  if ((mode & 0o022) !== 0 && (what === "file" || !sticky)) return { mode };
  return undefined;
}

/** The mode as `ls` readers know it: "0666". */
export const octalMode = (mode: number): string => (mode & 0o777).toString(8).padStart(4, "0");
