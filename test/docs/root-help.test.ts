/**
 * `pep --help` in gh's layout: the usage line, the commands in groups with one line each
 * (every top-level command of the program, none twice), then the global flags, one short
 * line each, then where to learn more; on the first 40 rows of an 80-column terminal the
 * commands are all there. On a terminal it goes through the pager (as output does), and
 * not under --no-pager, TERM=dumb or through a pipe.
 */
import { chmodSync, existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GLOBAL_OPTIONS } from "../../src/api/globals.js";
import { COMMANDS, GROUPS } from "../../src/commands/registry.js";
import { isBuilt, runPep, scratch } from "../helpers/cli.js";
import { hasScript, onTerminal } from "../helpers/terminal.js";

const topLevel = [...new Set(COMMANDS.map((d) => d.path[0]!))];

describe("pep with no command", () => {
  it("prints the same help as pep --help, on stdout, exit 0; a group with no command its own help", async () => {
    const bare = await runPep([], { columns: 80 });
    expect(bare.code).toBe(0);
    expect(bare.err).toBe("");
    expect(bare.out).toBe((await runPep(["--help"], { columns: 80 })).out);
    const group = await runPep(["auth"], { columns: 80 });
    expect(group.code).toBe(0);
    expect(group.err).toBe("");
    expect(group.out).toMatch(/^Usage: pep auth /);
    expect(group.out).toBe((await runPep(["auth", "--help"], { columns: 80 })).out);
  });
});

describe("pep --help", () => {
  it("usage, then every command in a group, then the flags, then learn more", async () => {
    const r = await runPep(["--help"], { columns: 80 });
    expect(r.code).toBe(0);
    const lines = r.out.split("\n");
    const at = (prefix: string) => lines.findIndex((l) => l.startsWith(prefix));
    const usage = at("Usage: pep <command>");
    const flags = at("Flags");
    const more = at("Learn more:");
    expect(usage).toBeGreaterThan(0);
    expect(flags).toBeGreaterThan(usage);
    expect(more).toBeGreaterThan(flags);
    // Each top-level command once, between the usage line and the flags.
    const commandRows = lines.slice(usage, flags).filter((l) => /^ {2}\S/.test(l));
    const names = commandRows.map((l) => l.trim().split(/\s+/)[0]);
    expect(names.filter((n) => n !== "help").sort()).toEqual([...topLevel].sort());
    for (const g of Object.keys(GROUPS)) expect(names).toContain(g);
    // All of them before row 40: on the first screen of a 40-row terminal.
    expect(Math.max(...commandRows.map((l) => lines.indexOf(l)))).toBeLessThan(40);
    // Every global flag after the commands, in one short line at 120 columns.
    const wide = (await runPep(["--help"], { columns: 120 })).out.split("\n");
    const flagRows = wide.slice(wide.findIndex((l) => l.startsWith("Flags")) + 1);
    for (const o of GLOBAL_OPTIONS) {
      const row = flagRows.find((l) => l.includes(`--${o.long}`));
      expect(row, `--${o.long}`).toBeDefined();
      expect(flagRows[flagRows.indexOf(row!) + 1], `--${o.long} fits one line`).not.toMatch(/^ {10,}\S/);
    }
    expect(r.out).toContain("pep help globals");
  });

  it("pep help and pep -h are the same text", async () => {
    const a = await runPep(["--help"], { columns: 80 });
    const b = await runPep(["-h"], { columns: 80 });
    expect(b.out).toBe(a.out);
  });
});

/** A pager script that keeps what it read in `<dir>/paged.txt`. */
function keepingPager(dir: string): { pager: string; paged: string } {
  const pager = path.join(dir, "keep-pager");
  writeFileSync(pager, `#!/bin/sh\ncat > '${dir}/paged.txt'\n`);
  chmodSync(pager, 0o755);
  return { pager, paged: path.join(dir, "paged.txt") };
}

describe.skipIf(!hasScript || !isBuilt())("pep --help on a terminal", () => {
  it("goes through the pager: PEP_PAGER, PAGER, the profile's pager", async () => {
    const tmp = scratch("pep-help-pager-");
    try {
      const { pager, paged } = keepingPager(tmp.dir);
      for (const [argv, env] of [
        [["--help"], { PEP_PAGER: pager }],
        [["help", "globals"], { PAGER: pager }],
        [["studies", "list", "--help"], { PAGER: pager }],
      ] as const) {
        rmSync(paged, { force: true });
        const r = await onTerminal([...argv], { ...tmp.env, ...env });
        expect(r.code, r.screen).toBe(0);
        expect(existsSync(paged), argv.join(" ")).toBe(true);
        expect(readFileSync(paged, "utf8")).toMatch(/--no-pager|Usage: pep/);
        expect(r.screen, argv.join(" ")).not.toContain("Usage: pep");
      }
      expect((await runPep(["--profile", "w", "config", "set", "pager", pager], { env: tmp.env })).code).toBe(0);
      rmSync(paged, { force: true });
      const r = await onTerminal(["--profile", "w", "--help"], tmp.env);
      expect(r.code, r.screen).toBe(0);
      expect(readFileSync(paged, "utf8")).toContain("Usage: pep <command>");
    } finally {
      tmp.cleanup();
    }
  });

  it("is printed as it is with --no-pager, under TERM=dumb, and through a pipe", async () => {
    const tmp = scratch("pep-help-pager-");
    try {
      const { pager, paged } = keepingPager(tmp.dir);
      const cases: [string[], Record<string, string>, string][] = [
        [["--help", "--no-pager"], { PAGER: pager }, ""],
        [["--help"], { PAGER: pager, TERM: "dumb" }, ""],
        [["--help"], { PAGER: pager }, `| cat > '${tmp.dir}/piped.txt'`],
      ];
      for (const [argv, env, redirect] of cases) {
        const r = await onTerminal(argv, { ...tmp.env, ...env }, { redirect });
        expect(r.code, r.screen).toBe(0);
        expect(existsSync(paged), `${argv.join(" ")} ${JSON.stringify(env)} ${redirect}`).toBe(false);
      }
      expect(readFileSync(path.join(tmp.dir, "piped.txt"), "utf8")).toContain("Usage: pep <command>");
    } finally {
      tmp.cleanup();
    }
  });
});
