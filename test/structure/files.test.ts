/**
 * Files of a size one can hold, named for what they hold. No file in src/ is longer than
 * MAX_FILE_LINES unless its head says why (a `Long file:` sentence); no two files of src/
 * share a name, with one exception, where the folder is part of the name: a command's
 * code named by its verb (the modules `src/commands/loaders.ts` loads: `peptides/get.ts`,
 * `vendors/get.ts`, as gh's `pkg/cmd/<noun>/<verb>`) and each noun's `defs.ts`; and a
 * folder's entry, `index.ts`. A noun's other files carry the noun (`auth/auth-options.ts`).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { headOf, sources } from "./source-graph.js";

const MAX_FILE_LINES = 400;

/**
 * Files over the limit that a change in progress is splitting (file -> that change); each
 * entry goes when it lands, and the last test fails while an entry names a file that
 * is no longer long.
 */
const LONG_FILES_BEING_SPLIT: Readonly<Record<string, string>> = {};

/** Names two files of src/ share, and which ones, outside the allowed pattern. */
const SHARED_NAMES_BEING_RENAMED: Readonly<Record<string, string>> = {};

const linesOf = (text: string) => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
const long = sources.filter((s) => linesOf(s.text) > MAX_FILE_LINES);
const saysWhy = (head: string) => /Long file: \S.{20,}/s.test(head);

/** The command modules loaders.ts loads, each a verb in its noun's folder (`src/commands/peptides/get.ts`). */
const VERB_FILES = new Set(
  [
    ...readFileSync(path.join(ROOT, "src/commands/loaders.ts"), "utf8").matchAll(
      /import\("\.\/([\w-]+\/[\w-]+)\.js"\)/g,
    ),
  ].map((m) => `src/commands/${m[1]!}.ts`),
);

/** A file whose folder is part of its name: a command's verb, a noun's defs.ts, or a folder's entry. */
const folderNamed = (file: string) =>
  VERB_FILES.has(file) || /^src\/commands\/[^/]+\/defs\.ts$/.test(file) || file.endsWith("/index.ts");

describe(`files in src/ (at most ${MAX_FILE_LINES} lines, or a reason at the head)`, () => {
  it("are short enough to hold, or say why not", () => {
    const offenders = long
      .filter((s) => !saysWhy(headOf(s)) && LONG_FILES_BEING_SPLIT[s.file] === undefined)
      .map((s) => `${s.file}: ${linesOf(s.text)} lines`);
    expect(offenders).toEqual([]);
  });

  it("the list of files being split names only files still over the limit", () => {
    const stillLong = new Set(long.map((s) => s.file));
    expect(Object.keys(LONG_FILES_BEING_SPLIT).filter((f) => !stillLong.has(f))).toEqual([]);
  });
});

describe("names in src/", () => {
  const byName = new Map<string, string[]>();
  for (const { file } of sources) {
    if (folderNamed(file)) continue;
    const name = file.slice(file.lastIndexOf("/") + 1);
    byName.set(name, [...(byName.get(name) ?? []), file]);
  }
  const shared = [...byName].filter(([, files]) => files.length > 1);

  it("the exception is read from loaders.ts: the verbs it loads", () => {
    expect(VERB_FILES.has("src/commands/peptides/get.ts")).toBe(true);
    expect(VERB_FILES.has("src/commands/auth/auth-options.ts")).toBe(false);
  });

  it("no two files share a name, but a command's verbs, each noun's defs.ts and index.ts", () => {
    expect(shared.filter(([name]) => SHARED_NAMES_BEING_RENAMED[name] === undefined)).toEqual([]);
  });

  it("the names left to rename are still shared, by exactly the files named", () => {
    const now = new Map(shared.map(([name, files]) => [name, files.join(" and ")]));
    for (const [name, files] of Object.entries(SHARED_NAMES_BEING_RENAMED)) expect(now.get(name), name).toBe(files);
  });

  it("a command's files sit in a command folder, one level down", () => {
    expect(sources.map((s) => s.file).filter((f) => /^src\/commands\/[^/]+\/[^/]+\/.+\.ts$/.test(f))).toEqual([]);
  });
});
