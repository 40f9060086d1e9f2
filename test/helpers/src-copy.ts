/**
 * A copy of src/ in a temporary folder, to change one fact and watch what follows: the
 * copy has the project's tsconfig and node_modules, and `pep(argv)` runs the copy's own
 * program in-process (its `run(argv, deps)` with a test IO), sandbox included.
 */
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { ROOT } from "./cli.js";

export interface SrcCopy {
  dir: string;
  /** Inserts `text` right after `anchor` in the copy's `file` (the anchor must be there once). */
  insertAfter(file: string, anchor: string, text: string): void;
  /** Replaces `from` (there once) with `to` in the copy's `file`. */
  replaceOnce(file: string, from: string, to: string): void;
  /** Writes a new file of the copy. */
  write(file: string, text: string): void;
  exists(file: string): boolean;
  /** The files tsc reports errors in, or [] when the copy compiles. */
  typeErrors(): string[];
  /** The copy's `pep <argv>`, in-process. */
  pep(argv: string[], stdin?: string): Promise<{ code: number; out: string; err: string }>;
  /** Imports a module of the copy (`src/docs/man-pages.ts`). */
  load<T>(file: string): Promise<T>;
  /** The files of the copy (src/ and `also`) changed from the project's (edited or added), sorted. */
  changedFiles(): string[];
  cleanup(): void;
}

function once(s: string, anchor: string, file: string): number {
  const at = s.indexOf(anchor);
  if (at === -1 || s.indexOf(anchor, at + 1) !== -1)
    throw new Error(`${file}: the anchor must be there once: ${anchor}`);
  return at;
}

function listFiles(dir: string, base = dir): string[] {
  return execFileSync("find", [dir, "-type", "f"], { encoding: "utf8" })
    .split("\n")
    .filter((f) => f !== "")
    .map((f) => path.relative(base, f))
    .sort();
}

/** A copy of src/ and of `also` (files of the repository: `README.md`, `docs/api.md`). */
export function copySources(prefix = "pep-src-copy-", also: readonly string[] = []): SrcCopy {
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  for (const rel of ["src", ...also]) cpSync(path.join(ROOT, rel), path.join(dir, rel), { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
  const tsconfig = JSON.parse(readFileSync(path.join(ROOT, "tsconfig.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify({ ...tsconfig, include: ["src"] }));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "pep-src-copy", type: "module" }));
  const at = (file: string) => path.join(dir, file);
  return {
    dir,
    insertAfter(file, anchor, text) {
      const s = readFileSync(at(file), "utf8");
      const i = once(s, anchor, file) + anchor.length;
      writeFileSync(at(file), s.slice(0, i) + text + s.slice(i));
    },
    replaceOnce(file, from, to) {
      const s = readFileSync(at(file), "utf8");
      const i = once(s, from, file);
      writeFileSync(at(file), s.slice(0, i) + to + s.slice(i + from.length));
    },
    write(file, text) {
      mkdirSync(path.dirname(at(file)), { recursive: true });
      writeFileSync(at(file), text);
    },
    exists: (file) => existsSync(at(file)),
    typeErrors() {
      try {
        execFileSync(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "--noEmit", "-p", "."], {
          cwd: dir,
          encoding: "utf8",
        });
        return [];
      } catch (err) {
        const out = String((err as { stdout?: string }).stdout ?? "");
        if (!/error TS/.test(out)) throw err;
        return [...new Set([...out.matchAll(/^(src\/[^(]+)\(\d+,\d+\): error/gm)].map((m) => m[1]!))].sort();
      }
    },
    async pep(argv, stdin) {
      const { run } = (await import(at("src/cli/main.ts"))) as typeof import("../../src/cli/main.js");
      const { testIO } = (await import(at("src/core/io.ts"))) as typeof import("../../src/core/io.js");
      const io = testIO({
        env: { PEP_CONFIG_DIR: at("config"), PEP_CACHE_DIR: at("cache") },
        ...(stdin === undefined ? {} : { stdin }),
      });
      const code = await run(argv, { io });
      return { code, out: io.out(), err: io.err() };
    },
    load: async <T>(file: string) => (await import(at(file))) as T,
    changedFiles() {
      const mine = ["src", ...also].flatMap((rel) => listFiles(path.join(dir, rel), dir)).sort();
      return mine.filter((f) => {
        const original = path.join(ROOT, f);
        return !existsSync(original) || readFileSync(original, "utf8") !== readFileSync(at(f), "utf8");
      });
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
