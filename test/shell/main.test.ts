import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testIO } from "../../src/core/io.js";
import { resumeCommand, run } from "../../src/cli/main.js";

let dir: string;
let env: Record<string, string>;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "pep-shell-"));
  env = { PEP_CONFIG_DIR: path.join(dir, "config"), PEP_CACHE_DIR: path.join(dir, "cache") };
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("program shell", () => {
  it("prints the package version with --version and -V", async () => {
    const pkg = JSON.parse(readFileSync("package.json", "utf8")) as { version: string };
    for (const flag of ["--version", "-V"]) {
      const io = testIO({ env });
      expect(await run([flag], { io })).toBe(0);
      expect(io.out().trim()).toBe(pkg.version);
    }
  });

  it("shows help with the research-only notice and where the manual is, exit 0", async () => {
    const io = testIO({ env });
    expect(await run(["--help"], { io })).toBe(0);
    expect(io.out()).toContain("Usage: pep");
    expect(io.out()).toContain("not medical advice");
    expect(io.out()).toContain("man pep");
  });

  it("rejects an unknown command with exit 2 and a pointer to help", async () => {
    const io = testIO({ env });
    expect(await run(["frobnicate"], { io })).toBe(2);
    expect(io.err()).toMatch(/unknown command/);
  });

  it("rejects an unknown option with exit 2", async () => {
    const io = testIO({ env });
    expect(await run(["health", "--bogus"], { io })).toBe(2);
    expect(io.err()).toMatch(/unknown option '--bogus'/);
  });

  it("explains how to set a base URL when none is configured (exit 2)", async () => {
    const io = testIO({ env });
    expect(await run(["health"], { io })).toBe(2);
    expect(io.err()).toMatch(/no API base URL is configured/);
    expect(io.err()).toMatch(/--sandbox/);
  });

  it("rejects a base URL without the version segment, naming the flag", async () => {
    const io = testIO({ env });
    expect(await run(["health", "--base-url", "https://api.example.org"], { io })).toBe(2);
    expect(io.err()).toMatch(/--base-url must end in the API's version segment/);
  });

  it("rejects an unknown output format naming the accepted ones", async () => {
    const io = testIO({ env });
    expect(await run(["health", "-o", "xml", "--base-url", "http://127.0.0.1:9/v1"], { io })).toBe(2);
    expect(io.err()).toMatch(/--output must be one of: table, json, ndjson, csv, tsv/);
  });

  it("refuses a citation format on a command that is not about studies", async () => {
    const io = testIO({ env });
    expect(await run(["health", "-o", "bibtex", "--base-url", "http://127.0.0.1:9/v1"], { io })).toBe(2);
    expect(io.err()).toMatch(/only for study commands/);
  });

  it("names a corrupt config file and leaves it untouched", async () => {
    mkdirSync(env.PEP_CONFIG_DIR!, { recursive: true });
    const file = path.join(env.PEP_CONFIG_DIR!, "config.json");
    writeFileSync(file, "{ not json", { mode: 0o600 });
    const io = testIO({ env });
    expect(await run(["health"], { io })).toBe(2);
    expect(io.err()).toContain(file);
    expect(readFileSync(file, "utf8")).toBe("{ not json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it("rejects PEP_TIMEOUT that is not a positive number, naming the variable", async () => {
    const io = testIO({ env: { ...env, PEP_TIMEOUT: "-1", PEP_BASE_URL: "http://127.0.0.1:9/v1" } });
    expect(await run(["health"], { io })).toBe(2);
    expect(io.err()).toMatch(/PEP_TIMEOUT must be seconds per request/);
  });
});

describe("colour", () => {
  const bold = "\x1b[1m";
  const table = async (extraEnv: Record<string, string>, tty: boolean, extra: string[] = []) => {
    const io = testIO({ env: { ...env, ...extraEnv }, tty, columns: 100 });
    const code = await run(["--sandbox", "-q", "categories", "-o", "table", ...extra], { io });
    expect(code, io.err()).toBe(0);
    return io.out();
  };

  it("on a terminal unless NO_COLOR or --no-color; on a pipe only with FORCE_COLOR; never in a --file", async () => {
    expect(await table({}, true)).toContain(bold);
    expect(await table({ NO_COLOR: "1" }, true)).not.toContain("\x1b[");
    expect(await table({}, true, ["--no-color"])).not.toContain("\x1b[");
    expect(await table({}, false)).not.toContain("\x1b[");
    expect(await table({ FORCE_COLOR: "1" }, false)).toContain(bold);
    expect(await table({ FORCE_COLOR: "0" }, true)).not.toContain("\x1b[");
    const file = path.join(dir, "table.txt");
    await table({ FORCE_COLOR: "1" }, false, ["--file", file]);
    expect(readFileSync(file, "utf8")).toContain("NAME");
    expect(readFileSync(file, "utf8")).not.toContain("\x1b[");
  });
});

describe("resume command", () => {
  it("repeats the words typed, replacing any --cursor, quoting what the shell would split", () => {
    expect(resumeCommand(["studies", "list", "--all", "--cursor", "old", "--search", "two words"], "abc+/=")).toBe(
      "pep studies list --all --search 'two words' --cursor=abc+/=",
    );
    expect(resumeCommand(["studies", "--cursor=old"], "it's")).toBe(`pep studies '--cursor=it'\\''s'`);
    // A cursor that starts with `-` stays the value of --cursor, not a flag of its own.
    expect(resumeCommand(["studies", "list"], "-abc")).toBe("pep studies list --cursor=-abc");
  });
});
