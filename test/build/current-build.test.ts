/**
 * No stale build under test: the tests that spawn bin/pep.js run dist/, and the global
 * setup (test/global-setup.ts) rebuilds dist/ whenever the build's inputs changed
 * (scripts/source-hash.mjs), so a source edited just before `npx vitest run <one file>`
 * is what that file tests. Followed here on a copy of the project: edit a command's
 * summary, and the executable shows the edit; nothing changed, and the build is reused.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUILD_INPUTS, inputFiles, isCurrent, sourceHash, STAMP } from "../../scripts/source-hash.mjs";
import { ensureBuilt } from "../global-setup.js";
import { ROOT } from "../helpers/cli.js";

let copy: string;

beforeAll(() => {
  copy = mkdtempSync(path.join(os.tmpdir(), "pep-build-copy-"));
  for (const rel of [...BUILD_INPUTS, "bin", "dist"])
    cpSync(path.join(ROOT, rel), path.join(copy, rel), { recursive: true });
  symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
});

afterAll(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
});

function helpOf(root: string, argv: string[]): string {
  const r = spawnSync(process.execPath, [path.join(root, "bin", "pep.js"), ...argv], {
    cwd: root,
    env: { PATH: process.env.PATH, HOME: os.tmpdir(), COLUMNS: "120" },
    encoding: "utf8",
  });
  return r.stdout;
}

describe("the build under test is the sources' build", () => {
  it("this run's dist/ is built from the sources as they are (the global setup saw to it)", () => {
    expect(readFileSync(path.join(ROOT, STAMP), "utf8").trim()).toBe(sourceHash(ROOT));
    expect(isCurrent(ROOT)).toBe(true);
  });

  it("the inputs are every file the bundle is built from: each file of src/, the build scripts, the package files", () => {
    const files = inputFiles(ROOT);
    const src = execFileSync("git", ["ls-files", "src"], { cwd: ROOT, encoding: "utf8" }).trim().split("\n");
    for (const f of src) expect(files).toContain(f);
    for (const f of ["scripts/build.mjs", "package-lock.json", "tsconfig.build.json"]) expect(files).toContain(f);
    // The build script reads these helpers of its own; a new one must be an input too.
    const build = readFileSync(path.join(ROOT, "scripts", "build.mjs"), "utf8");
    for (const m of build.matchAll(/"(?:\.\/)?(?:scripts\/)?([\w-]+\.mjs)"/g))
      expect(files).toContain(`scripts/${m[1]}`);
  });

  it("after an edit, the setup rebuilds and the executable shows it; unchanged, the build is reused", () => {
    expect(isCurrent(copy)).toBe(true);
    expect(ensureBuilt(copy)).toBe("reused");

    const defs = path.join(copy, "src", "commands", "meta", "defs.ts");
    const text = readFileSync(defs, "utf8");
    const summary = /summary: "([^"]+)"/.exec(text)![1]!;
    writeFileSync(defs, text.replace(summary, "Summary edited after the last build"));
    expect(isCurrent(copy)).toBe(false);
    expect(ensureBuilt(copy)).toBe("built");
    expect(helpOf(copy, ["index", "--help"])).toContain("Summary edited after the last build");
    expect(isCurrent(copy)).toBe(true);
    expect(ensureBuilt(copy)).toBe("reused");
  }, 180_000);
});
