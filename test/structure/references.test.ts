/**
 * Notes that hold: every file of the project that CONTRIBUTING.md, docs/ or a comment in
 * src/ or test/ names (`src/config/store.ts`, `commands/shared/list.ts`, `key-display.ts`)
 * exists, so a rename or a split cannot leave a note pointing at nothing. A partial path
 * is looked for from src/, src/commands/, the naming file's folder and the folders above
 * it. And what a note cites is in the repository: no section of a document it does not
 * hold ("contract section 5"); a note names the file (`docs/cli.md`, "Exit codes").
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { sources } from "./source-graph.js";

/** Every file of test/ (its helpers too), as `test/...` with its text; not this one, whose examples name nothing. */
function testFiles(dir = "test"): Array<{ file: string; text: string }> {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === "__screens__" ? [] : testFiles(rel);
    return /\.(ts|mjs)$/.test(e.name) && rel !== "test/structure/references.test.ts"
      ? [{ file: rel, text: readFileSync(path.join(ROOT, rel), "utf8") }]
      : [];
  });
}

/** A citation of a document by number that the repository does not hold. */
const UNHELD = /\bcontract,? (section|§)\s*\d/i;

const DOCS = ["CONTRIBUTING.md", ...readdirSync(path.join(ROOT, "docs")).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith(".md"),
);

/** Paths with a folder (`a/b.ts`, `src/x/y.mjs`, `docs/cli.md`), outside URLs and placeholders. */
const PATH = /(?<![\w/.:<>-])((?:[\w-]+\/)+[\w.-]+\.(?:ts|mjs|md))\b/g;

function resolves(from: string, named: string): boolean {
  if (named.startsWith("dist/") || named.startsWith("node_modules/")) return true;
  const candidates = [named, `src/${named}`, `src/commands/${named}`];
  for (let dir = path.posix.dirname(from); dir !== "."; dir = path.posix.dirname(dir))
    candidates.push(path.posix.join(dir, named));
  return candidates.some((c) => existsSync(path.join(ROOT, c)));
}

function dangling(file: string, text: string): string[] {
  return [...text.matchAll(PATH)]
    .map((m) => m[1]!)
    .filter((named) => !resolves(file, named))
    .map((n) => `${file}: ${n}`);
}

describe("files named by the notes and comments", () => {
  it("the reader finds paths, whole or partial, and tells a missing one", () => {
    expect(dangling("src/api/x.ts", "see `api/endpoints.ts` and src/cli/main.ts, or `api/gone.ts`")).toEqual([
      "src/api/x.ts: api/gone.ts",
    ]);
  });

  it("exist, for CONTRIBUTING.md and docs/", () => {
    expect(DOCS.flatMap((f) => dangling(f, readFileSync(path.join(ROOT, f), "utf8")))).toEqual([]);
  });

  it("exist, for the comments and strings of src/", () => {
    expect(sources.flatMap((s) => dangling(s.file, s.text))).toEqual([]);
  });

  it("exist, for the comments and strings of test/", () => {
    expect(testFiles().flatMap((s) => dangling(s.file, s.text))).toEqual([]);
  });

  it("a test whose head says it runs the real executable spawns it", () => {
    const head = (text: string) => /^\/\*\*[\s\S]*?\*\//.exec(text)?.[0] ?? "";
    const claims = testFiles().filter(
      (t) => t.file.endsWith(".test.ts") && /real executable|real `bin\/pep\.js`/.test(head(t.text)),
    );
    expect(claims.length).toBeGreaterThan(5);
    const spawns = /\b(spawnPep|spawnPepTty|onTerminal|startPep|BIN|spawn|spawnSync|execFileSync)\(|\bBIN\b/;
    expect(claims.filter((t) => !spawns.test(t.text)).map((t) => t.file)).toEqual([]);
  });

  it("cite only documents of the repository: no numbered section of a contract it does not hold", () => {
    expect(UNHELD.test("invariants (contract section 5)")).toBe(true);
    const texts = [
      ...sources,
      ...testFiles(),
      ...DOCS.map((f) => ({ file: f, text: readFileSync(path.join(ROOT, f), "utf8") })),
    ];
    expect(texts.filter((s) => UNHELD.test(s.text)).map((s) => s.file)).toEqual([]);
  });
});
