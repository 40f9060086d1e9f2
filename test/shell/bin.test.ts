/**
 * bin/pep.js answers a bare --version, and a bare --help on a pipe, without loading the
 * program: what it prints must be what the program would print.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { isBuilt, ROOT, scratch, spawnPep } from "../helpers/cli.js";
import path from "node:path";

describe.skipIf(!isBuilt())("the executable's quick answers", () => {
  const version = (JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string }).version;

  it("--version and -V print the package version, exit 0", async () => {
    const s = scratch();
    try {
      for (const flag of ["--version", "-V"]) {
        const r = await spawnPep([flag], { env: s.env });
        expect(r).toEqual({ code: 0, out: `${version}\n`, err: "" });
      }
    } finally {
      s.cleanup();
    }
  });

  it("--help and -h on a pipe print exactly the help the program renders", async () => {
    const s = scratch();
    try {
      // `pep help` always runs the program; a second word does too.
      const full = await spawnPep(["help"], { env: s.env });
      const withFlag = await spawnPep(["--help", "--no-color"], { env: s.env });
      expect(full.code).toBe(0);
      expect(full.out).toContain("Usage: pep <command> [subcommand] [flags]");
      expect(withFlag.out).toBe(full.out);
      for (const flag of ["--help", "-h"]) {
        const quick = await spawnPep([flag], { env: s.env });
        expect(quick).toEqual({ code: 0, out: full.out, err: "" });
      }
    } finally {
      s.cleanup();
    }
  });
});
