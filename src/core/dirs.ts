/**
 * `mkdir -p` one folder at a time. Node's `mkdir(…, { recursive: true })` spins forever on
 * Linux when a parent exists but cannot hold children (a path under /proc, a dangling
 * symlink to an unmounted disk): it reads ENOENT as "make the parent first", the parent
 * answers EEXIST, and round it goes. A config or cache folder in such a place must be an
 * error, not a hang.
 */
import { mkdirSync, statSync } from "node:fs";
import path from "node:path";

function notAFolder(p: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`ENOTDIR: not a directory, mkdir '${p}'`), { code: "ENOTDIR", path: p });
}

/** Creates `dir` and its missing parents with `mode`; throws the first error (ENOENT, EACCES, ENOTDIR…). */
export function makeDirs(dir: string, mode: number): void {
  const missing: string[] = [];
  let p = path.resolve(dir);
  for (;;) {
    try {
      if (!statSync(p).isDirectory()) throw notAFolder(p);
      break;
    } catch (err) {
      const parent = path.dirname(p);
      if ((err as NodeJS.ErrnoException).code !== "ENOENT" || parent === p) throw err;
      missing.push(p);
      p = parent;
    }
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode });
    } catch (err) {
      // Made meanwhile by another run: fine if it is a folder now (statSync throws otherwise).
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || !statSync(d).isDirectory()) throw err;
    }
  }
}
