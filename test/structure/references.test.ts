/**
 * Notes that hold: every file of the project that CONTRIBUTING.md, docs/ or a comment in
 * src/ names (`src/config/store.ts`, `commands/shared/list.ts`, `key-display.ts`) exists,
 * so a rename or a split cannot leave a note pointing at nothing. A partial path is
 * looked for from src/, src/commands/, the naming file's folder and the folders above it.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";
import { sources } from "./source-graph.js";

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
});
