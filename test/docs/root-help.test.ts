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
import { ROOT_HELP_COMMANDS } from "../../src/cli/root-help.js";
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

describe("a group typed alone: one rule", () => {
  it("runs its default command, prints its help when it has none, and its help under the error when the default cannot run", async () => {
    const tmp = scratch("pep-group-alone-");
    try {
      for (const group of Object.keys(GROUPS)) {
        const help = await runPep([group, "--help"], { columns: 80, env: tmp.env });
        expect(help.out, group).toMatch(
          new RegExp(`^pep ${group} alone (runs pep ${group} \\w+|shows this help)`, "m"),
        );
      }
      // No base URL: the one-line error, then what the group offers, on stderr; exit 2.
      const bare = await runPep(["peptides"], { columns: 80, env: tmp.env });
      expect(bare.code).toBe(2);
      expect(bare.out).toBe("");
      expect(bare.err).toMatch(/^error: no API base URL is configured\n/);
      expect(bare.err).toContain("Usage: pep peptides");
      expect(bare.err).toMatch(/pep peptides alone runs pep\s+peptides\s+list/);
      // Named, the command's error stays one error (no group help).
      const named = await runPep(["peptides", "list"], { columns: 80, env: tmp.env });
      expect(named.code).toBe(2);
      expect(named.err).not.toContain("Usage: pep peptides");
      // A machine format keeps the error one JSON object.
      const json = await runPep(["peptides", "-o", "json"], { columns: 80, env: tmp.env });
      expect(json.err.trim().split("\n")).toHaveLength(1);
      // No key for a keyed group: exit 3 and the group's help.
      const vendors = await runPep(["vendors"], {
        columns: 80,
        env: { ...tmp.env, PEP_BASE_URL: "http://127.0.0.1:9/v1" },
      });
      expect(vendors.code).toBe(3);
      expect(vendors.err).toContain("Usage: pep vendors");
      // The contract's forms: the group's default runs.
      const listed = await runPep(["--sandbox", "peptides", "-o", "ids", "--limit", "2"], { env: tmp.env });
      expect(listed.code).toBe(0);
      expect(listed.out.trim().split("\n")).toHaveLength(2);
    } finally {
      tmp.cleanup();
    }
  });
});

describe("pep --help", () => {
  it("one screen: usage, every command once in a group, one line on --sandbox, where to learn more", async () => {
    for (const columns of [60, 80, 120, 200]) {
      const r = await runPep(["--help"], { columns });
      expect(r.code).toBe(0);
      const lines = r.out.replace(/\n$/, "").split("\n");
      // A 24-row terminal shows it all, with the prompt after it from 80 columns up.
      expect(lines.length, `${columns} columns`).toBeLessThanOrEqual(columns >= 80 ? 23 : 24);
      for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(columns);
      const usage = lines.findIndex((l) => l.startsWith("Usage: pep <command>"));
      expect(usage).toBeGreaterThanOrEqual(0);
      // Each top-level command once, in the rows under a section title.
      const rows = lines.slice(usage).filter((l) => /^ {2}\S/.test(l));
      const names = rows.flatMap((l) =>
        l
          .trim()
          .split(/\s{2,}/)[0]!
          .split(", "),
      );
      expect([...names].sort()).toEqual([...topLevel].sort());
      for (const g of Object.keys(GROUPS)) expect(names).toContain(g);
      expect(r.out).toContain("pep --sandbox peptides list");
      expect(r.out).toContain("pep help globals");
      expect(r.out).toContain("man pep");
    }
    expect([...ROOT_HELP_COMMANDS].sort()).toEqual([...topLevel].sort());
  });

  it("pep help globals has every global flag", async () => {
    const r = await runPep(["help", "globals"], { columns: 120 });
    expect(r.code).toBe(0);
    for (const o of GLOBAL_OPTIONS) expect(r.out, `--${o.long}`).toContain(`--${o.long}`);
  });

  it("pep help globals takes global flags in any position", async () => {
    const plain = await runPep(["help", "globals"], { columns: 120 });
    for (const argv of [
      ["help", "globals", "--no-pager"],
      ["--no-pager", "help", "globals"],
      ["help", "--no-pager", "globals"],
      ["help", "globals", "--no-color"],
    ]) {
      const r = await runPep(argv, { columns: 120 });
      expect(r.code, `${argv.join(" ")}: ${r.err}`).toBe(0);
      expect(r.out).toBe(plain.out);
    }
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
      const r = await onTerminal(["help", "globals"], { ...tmp.env, PEP_PROFILE: "w" });
      expect(r.code, r.screen).toBe(0);
      expect(readFileSync(paged, "utf8")).toContain("--no-pager");
      // pep --help is one screen: on the terminal itself, never through the pager.
      rmSync(paged, { force: true });
      const root = await onTerminal(["--help"], { ...tmp.env, PEP_PAGER: pager });
      expect(root.code, root.screen).toBe(0);
      expect(existsSync(paged)).toBe(false);
      expect(root.screen).toContain("Usage: pep <command>");
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
