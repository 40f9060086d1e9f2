/**
 * What touches the world outside the program: the file system, and `process` (its
 * environment, ids, streams, signals, exit). Everything else takes what it needs as
 * arguments (the run's IO, its clock, its paths), which is what lets the tests run pep
 * in-process. These lists are the truth CONTRIBUTING.md#the-outside-world states: a new
 * file that reaches out fails here until it is added with its reason, and a listed file
 * that no longer does fails too, so the list never grows stale.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { externalRuntimeImports, type Node, parse, type SourceFile, sources, walk } from "./source-graph.js";

/** Files that read or write the file system, and why. */
const FILE_SYSTEM: Readonly<Record<string, string>> = {
  "src/core/io.ts": "the run's real IO: standard streams, the terminal, the pager",
  "src/core/dirs.ts": "the config and cache folders, made private",
  "src/config/store.ts": "the config file: read, checked, written atomically",
  "src/config/key-file.ts": "--api-key-file: reads at most a few KiB of the key's file",
  "src/http/cache.ts": "the ETag cache's entries",
  "src/output/file.ts": "--file: the temp file renamed over the target",
  "src/output/file-claim.ts": "--file: one writer per target among concurrent runs",
  "src/output/partial.ts": "--file: the state kept to resume a cut export",
  "src/cli/partial-run.ts": "--file: reads the kept state back to resume",
  "src/commands/cache/clear.ts": "`pep cache clear` removes the cache's entries",
  "src/cli/execute.ts": "--file: the target and its folder checked before the first request",
  "src/core/trusted-file.ts":
    "side files (partials, state, locks): opened without following links, checked, made O_EXCL; the one atomic writer",
  "src/core/lock-file.ts": "the lock beside a --file target or a library: made whole, read back, removed",
  "src/core/process-alive.ts": "/proc/<pid>/stat: whether a lock's process still lives and when it started",
  "src/library/location.ts": "the library's SQLite file and folder: made private, checked like the config",
  "src/output/manifest.ts": "--manifest: the finished file's digest, the manifest written atomically",
  "src/cli/sql-early.ts": "pep sql's early start: the config file's text, for a postgres:// URL in it",
};

/** Files that use `process` itself, and what for. */
const PROCESS: Readonly<Record<string, string>> = {
  "src/core/io.ts": "the real IO: env, argv-free streams, TTY facts, columns",
  "src/cli/main.ts": "the one exit status and the real IO of a run",
  "src/cli/signals.ts": "Ctrl-C and SIGTERM: stop cleanly, then exit",
  "src/cli/partial-run.ts": "the pid recorded with a cut export's state",
  "src/core/owner.ts": "the user's uid, to check owners",
  "src/core/temp-name.ts": "the pid in a temp file's name",
  "src/core/builtin.ts": "Node's built-in module loader",
  "src/http/transport.ts": "Node's flags (NODE_OPTIONS) that change TLS and proxies",
  "src/output/file.ts": "the user's uid, to check a --file target",
  "src/output/hyperlinks.ts": "the platform: Windows consoles get no OSC 8 links, as supports-hyperlinks decides",
  "src/mcp/http.ts": "--socket: the umask, so that only this user may connect",
  "src/core/lock-file.ts": "the pid in a lock",
  "src/core/process-alive.ts": "whether a pid lives (kill 0), and this process's own start",
  "src/library/sqlite.ts": "node:sqlite from Node's loader, its experimental warning held back on Node 22",
  "src/library/sqlite-runner.ts":
    "pep sql's SQLite query in a process of its own (Node's own executable), killed on exit",
  "src/cli/sql-early.ts":
    "pep sql's early start: Node's version and its loader (node:child_process), before the program",
  "src/library/sqlite-child.ts": "that process's own side: node:sqlite from Node's loader, its parent's messages",
};

/** Files that read the environment (`process.env`). */
const ENVIRONMENT = ["src/core/io.ts", "src/http/transport.ts"];

const FS_MODULES = new Set(["node:fs", "node:fs/promises", "fs", "fs/promises"]);

function processUses(source: SourceFile): string[] {
  const used = new Set<string>();
  walk(source.ast.program, (node, parent) => {
    if (node.type !== "Identifier" || node.name !== "process") return;
    const member = parent?.type === "MemberExpression" && parent.computed === false;
    if (member && parent.object === node) used.add(String((parent.property as Node).name));
    // `x.process` names a property, and so does the key of `{ process: … }`; `process[k]`,
    // `typeof process`, `{ process }` and an argument `f(process)` reach it whole.
    else if (
      !(member && parent.property === node) &&
      !(parent?.type === "Property" && parent.key === node && !parent.shorthand)
    )
      used.add("(process)");
  });
  return [...used];
}

/** node:fs imported, or loaded where first used (core/builtin.ts). */
const touchesFs = sources
  .filter((s) => externalRuntimeImports(s).some((m) => FS_MODULES.has(m)) || /builtin(<[^>]*>)?\("node:fs/.test(s.text))
  .map((s) => s.file);
const usesProcess = sources.filter((s) => processUses(s).length > 0).map((s) => s.file);
const readsEnv = sources.filter((s) => processUses(s).includes("env")).map((s) => s.file);

describe("the outside world", () => {
  it("only the listed files touch the file system, and each listed file does", () => {
    expect(touchesFs.sort()).toEqual(Object.keys(FILE_SYSTEM).sort());
  });

  it("only the listed files use process, and each listed file does", () => {
    expect(usesProcess.sort()).toEqual(Object.keys(PROCESS).sort());
  });

  it("CONTRIBUTING.md's lists name the same files, each in its own list", () => {
    const text = readFileSync(path.join(ROOT, "CONTRIBUTING.md"), "utf8");
    /** The bullet starting with `start`, up to the next bullet or blank line. */
    const bullet = (start: string) => {
      const from = text.indexOf(start);
      expect(from, start).toBeGreaterThan(0);
      const ends = ["\n- ", "\n\n"].map((e) => text.indexOf(e, from + 1)).filter((i) => i !== -1);
      return text.slice(from, Math.min(...ends));
    };
    const named = (list: string) => [...list.matchAll(/`([\w/-]+\.ts)`/g)].map((m) => `src/${m[1]!}`);
    expect(named(bullet("- the file system:")).sort()).toEqual(Object.keys(FILE_SYSTEM).sort());
    expect(named(bullet("- `process` itself")).sort()).toEqual(Object.keys(PROCESS).sort());
  });

  it("the environment is read in core/io.ts (the run's IO), and Node's own flags in http/transport.ts", () => {
    expect(readsEnv.sort()).toEqual([...ENVIRONMENT].sort());
  });

  it("the reader sees process and node:fs however they are reached", () => {
    const text = 'const a = process.pid; const b = await import("node:fs/promises"); const c = { process: 1 }.process;';
    const source = { file: "x.ts", text, ast: parse("x.ts", text) };
    expect(processUses(source)).toEqual(["pid"]);
    const whole = "const e = process[key]; f(process);";
    expect(processUses({ file: "y.ts", text: whole, ast: parse("y.ts", whole) })).toEqual(["(process)"]);
    expect(externalRuntimeImports(source)).toEqual(["node:fs/promises"]);
  });
});
