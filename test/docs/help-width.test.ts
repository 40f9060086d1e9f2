/**
 * Help fits the terminal it is read on: at 60, 80, 120 and 200 columns no line of any
 * command's help is wider, no word is broken across lines, the command's own options and
 * examples come before the pointer to the global options, and `pep help globals` lists
 * them all.
 */
import { describe, expect, it } from "vitest";
import { GLOBAL_OPTIONS } from "../../src/api/globals.js";
import { COMMANDS, GROUPS } from "../../src/commands/registry.js";
import { runPep } from "../helpers/cli.js";

const WIDTHS = [60, 80, 120, 200];
const targets = [[], ...Object.keys(GROUPS).map((g) => [g]), ...COMMANDS.map((d) => [...d.path])];

/** The help's words, in order, each line's indent and a shell continuation left out. */
const wordsOf = (text: string) =>
  text
    .split("\n")
    .flatMap((l) => l.replace(/ \\$/, "").trim().split(/\s+/))
    .filter((w) => w !== "" && w !== "$");

describe("help at the terminal's width", () => {
  it.each(targets.map((t) => [t.join(" ") || "(pep)", t] as const))("pep %s --help", async (_, words) => {
    const def = COMMANDS.find((d) => d.path.join(" ") === words.join(" "));
    for (const columns of WIDTHS) {
      const r = await runPep([...words, "--help"], { columns });
      expect(r.code).toBe(0);
      const lines = r.out.split("\n");
      const wide = lines.filter((l) => l.length > columns);
      expect(wide, `${columns} columns`).toEqual([]);
      // Every word of the description is whole in the help: none was cut at a line's end.
      const said = new Set(wordsOf(r.out));
      const text = `${def?.summary ?? ""} ${def?.description ?? ""}`;
      const missing = text.split(/\s+/).filter((w) => w !== "" && !said.has(w));
      expect(missing, `${columns} columns`).toEqual([]);
      if (words.length > 0) {
        const pointer = r.out.indexOf("Global options (pep help globals):");
        expect(pointer, `${columns} columns`).toBeGreaterThan(0);
        expect(r.out.indexOf("Options:")).toBeLessThan(pointer);
        if (def?.examples?.length) expect(r.out.indexOf("Examples:")).toBeLessThan(pointer);
        // The global options are pointed at, not repeated.
        expect(r.out).not.toContain("--api-key-file <path|->");
      }
    }
  });

  it("the pointer names every global option, from their definitions", async () => {
    const r = await runPep(["studies", "list", "--help"], { columns: 80 });
    const pointer = r.out.slice(r.out.indexOf("Global options (pep help globals):"));
    for (const o of GLOBAL_OPTIONS) {
      const flag = "short" in o && o.short ? `-${o.short}` : `--${o.long}`;
      expect(wordsOf(pointer).map((w) => w.replace(/,$/, ""))).toContain(flag);
    }
  });

  it("pep help globals: each global option with its description, within the width", async () => {
    for (const columns of WIDTHS) {
      const r = await runPep(["help", "globals"], { columns });
      expect(r.code).toBe(0);
      expect(r.out.split("\n").filter((l) => l.length > columns)).toEqual([]);
      for (const o of GLOBAL_OPTIONS) expect(r.out).toContain(`--${o.long}`);
      expect(r.out).toContain("atomically");
    }
  });

  it("an example too long for the width continues after a backslash, between words", async () => {
    const r = await runPep(["studies", "list", "--help"], { columns: 60 });
    const examples = r.out.slice(r.out.indexOf("Examples:"), r.out.indexOf("Global options"));
    expect(examples).toMatch(/ \\\n {6}\S/);
    // Joined again, the lines give back the command as written.
    const joined = examples.replace(/ \\\n {6}/g, " ");
    expect(joined).toContain("pep studies --evidence-classification human_controlled_trial,human_study --sort oldest");
  });
});
