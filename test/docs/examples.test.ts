/**
 * Every example of the README, docs/ and the man pages runs, as written, against the sandbox
 * (test/helpers/doc-examples.ts says which lines are examples). Each runs in-process in a
 * folder of its own (the files it writes land there; `~` is that folder). Those of the
 * README's tour run as on a fresh machine (no base URL, no key); the others as a reader who
 * has logged in: PEP_BASE_URL is a sandbox server (`https://api.example.org/v1` and
 * `http://127.0.0.1:4010/v1` in an example stand for it), PEP_API_KEY its full key, and the
 * profiles `work` and `ci` exist, and (on a Node with node:sqlite) the local library has been
 * synced once (PEP_DATA_DIR, shared by those examples). A key file an example reads
 * (`< key.txt`) holds that key; a prompt for the key is typed into.
 *
 * - pep's commands run in-process: those of `$(…)` and `<(…)` first, their output put in
 *   their place; then each command joined by `&&` in turn, stopping at the first failure.
 *   A server (`pep sandbox`, `pep mcp --http`) is stopped once it has printed its banner
 *   (ports given become 0: any free port).
 * - A tool that reads pep's output through a pipe (jq, head …) runs through bash when it
 *   is installed, and must print something other than `null`; a command that does not
 *   take pep's output (`npm install`, `du`, `source`) is the reader's and is not run.
 * - Each pep command exits 0, or the code of its `# exit N` comment, and says something
 *   (on stdout, in the file it wrote, or on stderr; `-q` excepted) with no `error:` line.
 *   A `# real API` example names records only the real service holds: it must reach the
 *   API and be answered (exit 0, or 4 for the name it does not know), never a usage error.
 * - An example of a command the program does not have yet is skipped, saying so.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { optionsOf } from "../../src/api/command-options.js";
import { run } from "../../src/cli/main.js";
import { COMMANDS } from "../../src/commands/registry.js";
import { type TestIO, testIO } from "../../src/core/io.js";
import { type Sandbox, startSandbox } from "../../src/sandbox/index.js";
import { ROOT, scratch } from "../helpers/cli.js";
import {
  commandsOf,
  type DocExample,
  expectationOf,
  manExamples,
  markdownExamples,
  type Segment,
  substitutions,
} from "../helpers/doc-examples.js";
import { pepWords } from "../helpers/examples.js";
import { readManifest } from "../helpers/manifest.js";

const readme = markdownExamples("README.md", readFileSync(path.join(ROOT, "README.md"), "utf8"));
const docs = readdirSync(path.join(ROOT, "docs"))
  .filter((f) => f.endsWith(".md"))
  .flatMap((f) => markdownExamples(`docs/${f}`, readFileSync(path.join(ROOT, "docs", f), "utf8")));
const manPages = readdirSync(path.join(ROOT, "man")).filter((f) => f.endsWith(".1"));
const man = manPages.flatMap((f) => manExamples(`man/${f}`, readFileSync(path.join(ROOT, "man", f), "utf8")));

const KEY = "sbx_full_key";
const TOUR = "A tour of the commands";
const tmp = scratch("pep-doc-examples-");
let sandbox: Sandbox;
/** The reader's local library, synced once before the examples (none on Node 20). */
const libraryDir = path.join(tmp.dir, "library-data");
/** A config folder holding the profiles `work` and `ci`, made once by pep and copied into each example's. */
const profilesDir = path.join(tmp.dir, "profiles-config");
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  for (const profile of ["work", "ci"]) {
    const io = testIO({ env: { PEP_CONFIG_DIR: profilesDir } });
    const code = await run(["--profile", profile, "config", "set", "timeout", "30"], { io });
    if (code !== 0) throw new Error(`the examples' profile ${profile} could not be made: ${io.err()}`);
  }
  if (process.getBuiltinModule?.("node:sqlite")) {
    const io = testIO({
      env: {
        PEP_BASE_URL: sandbox.baseUrl,
        PEP_API_KEY: KEY,
        PEP_DATA_DIR: libraryDir,
        PEP_CONFIG_DIR: path.join(tmp.dir, "lib-config"),
      },
    });
    const code = await run(["sync", "-q"], { io });
    if (code !== 0) throw new Error(`the examples' library could not be synced: ${io.err()}`);
  }
});
afterAll(async () => {
  await sandbox?.close();
  tmp.cleanup();
});

/** The command a line names (`peptides get`, `search`), or undefined when the program has none. */
function commandOf(words: readonly string[]): string | undefined {
  const positional = words.filter((w, i) => !w.startsWith("-") && !(i > 0 && /^(-o|--profile)$/.test(words[i - 1]!)));
  for (const def of COMMANDS) {
    const names = (d: readonly string[]) => d.join(" ");
    if (def.path.length === 2 && names(positional.slice(0, 2)) === names(def.path)) return names(def.path);
    if (def.path.length === 1 && (positional[0] === def.path[0] || def.aliases?.includes(positional[0]!)))
      return def.path[0];
  }
  // A group alone runs its default command (`pep peptides --search x`).
  const byDefault = COMMANDS.find((d) => d.isDefault && d.path[0] === positional[0]);
  return byDefault?.path.join(" ");
}

/** Why an example cannot run on this build, or undefined. */
function notYet(line: string): string | undefined {
  const words = pepWords(line) ?? [];
  if (words.some((w) => /^(--version|-V|--help|-h)$/.test(w)) || words[0] === "help") return undefined;
  const command = commandOf(words);
  if (!command) return `'pep ${words.find((w) => !w.startsWith("-"))}' is not a command of this build yet`;
  const def = COMMANDS.find((d) => d.path.join(" ") === command)!;
  // The library's SQLite file needs node:sqlite (Node 22.5+); Node 20 refuses it (test/library/node-support.test.ts).
  if (["sync", "sql", "changes"].includes(command) && !process.getBuiltinModule?.("node:sqlite"))
    return `'pep ${command}' needs node:sqlite, which Node ${process.versions.node} does not have`;
  const flags = new Set(optionsOf(def).map((o) => `--${o.long}`));
  const missing = words.filter((w) => /^--(web|no-browser)$/.test(w) && !flags.has(w));
  return missing.length ? `'pep ${command}' has no ${missing.join(", ")} in this build yet` : undefined;
}

interface PepResult {
  code: number;
  out: string;
  err: string;
  words: string[];
}

/** Runs pep in-process in `dir` with the example's environment. */
async function pep(words: string[], env: Record<string, string>, dir: string, stdin: string): Promise<PepResult> {
  const serves = words.includes("sandbox") || (words.includes("mcp") && words.includes("--http"));
  const prompts = words.includes("login") && !words.includes("--with-key");
  const argv = serves ? words.map((w, i) => (words[i - 1] === "--port" ? "0" : w)) : words;
  const stop = new AbortController();
  let io: TestIO = testIO({ env, cwd: dir, stdin, signal: stop.signal });
  if (prompts) {
    // A terminal the key is typed into, as the reader would.
    const tty = Object.assign(new PassThrough(), { isRaw: false, setRawMode: (_m: boolean) => undefined });
    io = { ...testIO({ env, cwd: dir, tty: true, signal: stop.signal }), stdin: tty, stdinIsTTY: true } as TestIO;
    setTimeout(() => tty.write(`${KEY}\r`), 20);
  }
  const running = run(argv, { io });
  if (serves) {
    for (let i = 0; i < 250 && io.out() + io.err() === ""; i++) await new Promise((r) => setTimeout(r, 20));
    stop.abort();
  }
  const code = await running;
  return { code: serves && code === 130 ? 0 : code, out: io.out(), err: io.err(), words: [...argv] };
}

const has = (tool: string) => spawnSync("sh", ["-c", `command -v '${tool}'`]).status === 0;
const fileIn = (dir: string, target: string) => path.join(dir, path.basename(target));

/** What a pep run that succeeded said, with the sandbox's notice left out. */
function saidSomething(r: PepResult, seg: Segment, dir: string): boolean {
  if (r.words.includes("-q") || r.words.includes("--quiet")) return true;
  const file = r.words[r.words.indexOf("--file") + 1];
  const written = [seg.stdout, r.words.includes("--file") ? file : undefined].filter((f) => f !== undefined);
  if (written.some((f) => existsSync(fileIn(dir, f!)) && statSync(fileIn(dir, f!)).size > 0)) return true;
  const err = r.err
    .split("\n")
    .filter((l) => l.trim() !== "" && !l.startsWith("sandbox data, synthetic"))
    .join("\n");
  return r.out.trim() !== "" || err !== "";
}

/** Runs one example; returns what went wrong, one line each (nothing: it ran as it says). */
async function runExample(example: DocExample): Promise<{ problems: string[]; missing: string[] }> {
  const missing: string[] = [];
  const dir = mkdtempSync(path.join(tmp.dir, "ex-"));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    HOME: dir,
    PEP_CONFIG_DIR: path.join(dir, ".config", "pep"),
    PEP_CACHE_DIR: path.join(tmp.dir, "cache"),
  };
  // The tour promises to run as written on a fresh machine: no base URL, no key. Elsewhere
  // the reader has logged in.
  if (example.section !== TOUR)
    Object.assign(env, { PEP_BASE_URL: sandbox.baseUrl, PEP_API_KEY: KEY, PEP_DATA_DIR: libraryDir });
  cpSync(profilesDir, env.PEP_CONFIG_DIR!, { recursive: true });
  const { exit, realApi } = expectationOf(example.line);
  const problems: string[] = [];
  const results: PepResult[] = [];
  let line = example.line
    .replaceAll("https://api.example.org/v1", sandbox.baseUrl)
    .replaceAll("http://127.0.0.1:4010/v1", sandbox.baseUrl);
  for (const sub of substitutions(line)) {
    const words = commandsOf(sub.inner, env)[0]![0]!.words.slice(1);
    const r = await pep(words, env, dir, "");
    results.push(r);
    if (r.code !== 0 || r.out.trim() === "")
      return { problems: [`${sub.text} exited ${r.code}, printing ${JSON.stringify(r.out)}: ${r.err}`], missing };
    const value = r.out.trim();
    if (sub.kind === "<") writeFileSync(path.join(dir, "substituted"), r.out);
    line = line.replace(sub.text, sub.kind === "<" ? path.join(dir, "substituted") : value);
  }
  let failed: PepResult | undefined;
  commands: for (const [c, pipeline] of commandsOf(line, env).entries()) {
    let input: string | undefined;
    for (const [s, seg] of pipeline.entries()) {
      const [first, ...rest] = seg.words;
      if (first === "pep") {
        let stdin = input ?? "";
        if (seg.stdin !== undefined) {
          const from = fileIn(dir, seg.stdin);
          if (!existsSync(from)) writeFileSync(from, `${KEY}\n`);
          stdin = readFileSync(from, "utf8");
        }
        // A placeholder key (`PEP_API_KEY=...`, `<key>`) stands for the sandbox's.
        const given = Object.fromEntries(
          Object.entries(seg.env).map(([k, v]) => [k, k === "PEP_API_KEY" && /^(\.\.\.|<key>)$/.test(v) ? KEY : v]),
        );
        const r = await pep(rest, { ...env, ...given }, dir, stdin);
        results.push(r);
        if (seg.stdout !== undefined) writeFileSync(fileIn(dir, seg.stdout), r.out);
        if (seg.stderr !== undefined) writeFileSync(fileIn(dir, seg.stderr), r.err);
        input = seg.stdout === undefined ? r.out : "";
        if (r.code !== 0) {
          failed = r;
          break commands;
        }
        if (!saidSomething(r, seg, dir)) problems.push(`pep ${rest.join(" ")} exited 0 and said nothing`);
        if (/^error:/m.test(r.err)) problems.push(`pep ${rest.join(" ")} exited 0 with an error line: ${r.err}`);
        // A manifest an example writes fits the published schema.
        if (rest.includes("--manifest") && rest.includes("--file")) {
          const made = fileIn(dir, rest[rest.indexOf("--file") + 1]!);
          try {
            readManifest(made);
          } catch (err) {
            problems.push(`pep ${rest.join(" ")}: ${(err as Error).message}`);
          }
        }
      } else if ((s > 0 || c > 0) && has(first!)) {
        const quoted = seg.words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(" ");
        const r = spawnSync("bash", ["-c", quoted], { cwd: dir, input: input ?? "", env, encoding: "utf8" });
        if (r.status !== 0) problems.push(`${seg.words.join(" ")} exited ${r.status}: ${r.stderr}`);
        else if (s > 0 && !/\S/.test(r.stdout.replace(/^null$/gm, "")))
          problems.push(
            `${seg.words.join(" ")} printed nothing but null from pep's output ${JSON.stringify(input?.slice(0, 300))}`,
          );
        input = r.stdout;
      } else if (s > 0) {
        missing.push(first!);
        break;
      }
    }
  }
  if (results.length === 0) problems.push("no pep command ran");
  const code = failed?.code ?? 0;
  if (realApi) {
    if (code !== 0 && code !== 4) problems.push(`a real-API example must reach the API: exit ${code}: ${failed?.err}`);
  } else if (code !== (exit ?? 0))
    problems.push(`exit ${code}, not ${exit ?? 0}: pep ${failed?.words.join(" ")}\n${failed?.err ?? ""}`);
  return { problems, missing };
}

describe("the extraction rule", () => {
  it("takes the lines of ```sh blocks that run pep, joined at ` \\`, and no other block's", () => {
    const md = [
      "## Start",
      "```sh",
      "npm install && npx pep --sandbox peptides list",
      "npm test",
      "# pep in a comment",
      "pep --sandbox studies list \\",
      "  --limit 2   # two",
      "id=$(pep --sandbox peptides list -o ids | head -1)",
      "```",
      "```json",
      '{ "command": "pep" }',
      "```",
      "pep outside a block",
    ].join("\n");
    expect(markdownExamples("x.md", md)).toEqual([
      { where: "x.md:3", line: "npm install && npx pep --sandbox peptides list", section: "Start" },
      { where: "x.md:6", line: "pep --sandbox studies list --limit 2   # two", section: "Start" },
      { where: "x.md:8", line: "id=$(pep --sandbox peptides list -o ids | head -1)", section: "Start" },
    ]);
  });

  it("reads man pages' EXAMPLES blocks back from roff", () => {
    const roff = [
      ".SH SYNOPSIS",
      ".nf",
      "\\fBpep api\\fR [\\fIoptions\\fR]",
      ".fi",
      ".SH EXAMPLES",
      ".nf",
      "pep api /vendors \\-\\-paginate \\-F limit=100 | jq \\-r .name",
      "cat \\(dq$(pep config path)\\(dq",
      ".fi",
    ].join("\n");
    expect(manExamples("m.1", roff).map((e) => e.line)).toEqual([
      "pep api /vendors --paginate -F limit=100 | jq -r .name",
      'cat "$(pep config path)"',
    ]);
  });

  it("reads a line as commands, pipes, assignments and redirections", () => {
    expect(
      commandsOf('PEP_API_KEY=k pep -o json auth status 2> err.json && echo "$HOME ok" | cat', { HOME: "/h" }),
    ).toEqual([
      [{ words: ["pep", "-o", "json", "auth", "status"], env: { PEP_API_KEY: "k" }, stderr: "err.json" }],
      [
        { words: ["echo", "/h ok"], env: {} },
        { words: ["cat"], env: {} },
      ],
    ]);
    expect(expectationOf("pep x get nope   # exit 4: not found")).toEqual({ exit: 4, realApi: false });
    expect(expectationOf("pep peptides get bpc-157  # real API")).toEqual({ exit: undefined, realApi: true });
  });
});

describe("the examples are found", () => {
  it("in the README: the first screen's, and one at least for every command of the program and for pep browse", () => {
    expect(readme.length).toBeGreaterThan(40);
    expect(readme.filter((e) => e.section === TOUR).length).toBeGreaterThan(30);
    expect(readme.map((e) => e.line)).toContain("npm install && npx pep --sandbox peptides list");
    const named = new Set(readme.map((e) => commandOf(pepWords(e.line) ?? [])));
    const missing = COMMANDS.map((d) => d.path.join(" ")).filter((c) => !named.has(c));
    expect(missing).toEqual([]);
    expect(readme.some((e) => /^pep --sandbox browse \S+ --no-browser/.test(e.line))).toBe(true);
    expect(readme.some((e) => / peptides get \S+ --web --no-browser/.test(e.line))).toBe(true);
  });

  it("in the man pages: every command's examples", () => {
    expect(manPages.length).toBeGreaterThan(10);
    for (const def of COMMANDS)
      for (const e of def.examples ?? [])
        expect(
          man.map((m) => m.line),
          e,
        ).toContain(e);
  });

  it("README and CONTRIBUTING keep the two set-up lines CI runs", () => {
    const text = readFileSync(path.join(ROOT, "README.md"), "utf8");
    expect(text).toMatch(/```sh\nnpm install && npx pep --sandbox peptides list\nnpm test\n```/);
  });
});

/**
 * An example written in several places (a command's examples are in its help, its man page
 * and often the README) runs once: the same line, in a fresh folder with the same
 * environment, does the same thing wherever it is written.
 */
const ran = new Map<string, ReturnType<typeof runExample>>();
function once(example: DocExample): ReturnType<typeof runExample> {
  const key = `${example.section === TOUR ? "tour" : "reader"} ${example.line}`;
  const result = ran.get(key) ?? runExample(example);
  ran.set(key, result);
  return result;
}

/** An example that reads or writes the local library (on Node 20 it cannot run: no node:sqlite). */
function usesLibrary(line: string): boolean {
  const words = pepWords(line) ?? [];
  return ["sync", "sql", "changes"].includes(commandOf(words) ?? "") || words.includes("--offline");
}

/**
 * PEP_TEST_EXAMPLES=library: only the examples of the local library run, the others are
 * skipped saying so. .ci/run's Node 24 leg runs them (the machine's Node 20 has no
 * node:sqlite), after the first leg ran every other example.
 */
const onlyLibrary = process.env.PEP_TEST_EXAMPLES === "library";

describe.each([
  ["README.md", readme],
  ["docs/", docs],
  ["man pages", man],
])("examples of the %s, against the sandbox", (_, examples) => {
  const runnable = examples.filter((e) => notYet(e.line) === undefined && (!onlyLibrary || usesLibrary(e.line)));
  const waiting = examples.filter((e) => notYet(e.line) !== undefined);
  const elsewhere = examples.filter((e) => notYet(e.line) === undefined && onlyLibrary && !usesLibrary(e.line));
  it.for(runnable.map((e) => [`${e.where}: ${e.line}`, e] as const))("%s", async ([, example], ctx) => {
    const { problems, missing } = await once(example);
    expect(problems).toEqual([]);
    // pep's part ran and passed; what reads its output through a pipe is not on this machine.
    if (missing.length) ctx.skip(`${missing.join(", ")} not installed: only pep's part ran`);
  });
  for (const e of waiting) it.skip(`${e.where}: ${e.line} (not run: ${notYet(e.line)})`, () => {});
  for (const e of elsewhere)
    it.skip(`${e.where}: ${e.line} (not run: PEP_TEST_EXAMPLES=library, it needs no library)`, () => {});
});
