/**
 * `pep cache clear`: removes every entry of the ETag cache, and the compiled code that
 * bin/code-cache.js keeps beside it (`code-cache/`, Node's `node-compile-cache/`). The run
 * itself saves none back at exit (bin/code-cache.js knows this command).
 */
import { lstatSync, readdirSync, rmSync } from "node:fs";
import path from "node:path";
import { cacheDir } from "../../config/locations.js";
import { clearCache } from "../../http/cache.js";
import type { CommandModule } from "../../core/command.js";
import { megabytes } from "./units.js";

/** The folders of compiled code in the cache folder, as bin/code-cache.js names them. */
export const COMPILED_CODE = ["code-cache", "node-compile-cache"] as const;

export const run: CommandModule["run"] = async (_input, ctx) => {
  const dir = cacheDir(ctx.io.env);
  const done = clearCache(dir);
  ctx.notice(
    `removed ${done.entries} ${done.entries === 1 ? "entry" : "entries"} (${megabytes(done.bytes)}) from ${done.dir}`,
  );
  const compiled = clearCompiledCode(dir);
  if (compiled.files > 0) ctx.notice(`removed compiled code: ${compiled.files} files (${megabytes(compiled.bytes)})`);
  return { kind: "none" };
};

/** Removes the compiled-code folders below `dir`; what they held. A link is removed, not followed. */
export function clearCompiledCode(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  const count = (p: string): void => {
    const st = lstatSync(p, { throwIfNoEntry: false });
    if (!st) return;
    if (!st.isDirectory()) {
      files++;
      bytes += st.size;
      return;
    }
    let names: string[] = [];
    try {
      names = readdirSync(p);
    } catch {
      // unreadable: rmSync below says whether it can go
    }
    for (const n of names) count(path.join(p, n));
  };
  for (const name of COMPILED_CODE) {
    const p = path.join(dir, name);
    count(p);
    try {
      rmSync(p, { recursive: true, force: true });
    } catch {
      // not ours to remove: what is left is still checked before it is ever read
    }
  }
  return { files, bytes };
}
