import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/commands/registry.js";
import type { CommandDef } from "../../src/core/command.js";
import { completionData, type NodeData } from "../../src/docs/completion-data.js";
import { docSources } from "../../src/commands/registry.js";
import { commandTree } from "../../src/docs/tree.js";
import { runPep, scratch } from "../helpers/cli.js";
import { pepWords } from "../helpers/examples.js";

const src = docSources("0.0.0");
const nodes = new Map<string, NodeData>(completionData(commandTree(src)).map((n) => [n.path, n]));
const name = (def: CommandDef) => def.path.join(" ");

/** Walks an example's words as the completion scripts do; returns the problems found. */
function problems(words: string[]): string[] {
  const found: string[] = [];
  let node = nodes.get("")!;
  let npos = 0;
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w.startsWith("-") && w !== "-") {
      const [flag, inline] = w.includes("=")
        ? [w.slice(0, w.indexOf("=")), w.slice(w.indexOf("=") + 1)]
        : [w, undefined];
      const f = node.flags.find((x) => x.names.includes(flag!));
      if (!f) {
        found.push(`unknown flag ${flag} for "pep ${node.path}"`);
        continue;
      }
      if (f.value.kind === "none") continue;
      const value = inline ?? words[++i];
      if (value === undefined) found.push(`${flag} lacks its value`);
      else if (f.value.kind === "words" && !/[$`]/.test(value)) {
        for (const v of value.split(","))
          if (!f.value.words.includes(v)) found.push(`${flag} ${v}: not one of ${f.value.words.join(", ")}`);
      }
      continue;
    }
    const child = npos === 0 ? node.children.find((c) => c.word === w) : undefined;
    if (child) node = nodes.get(child.path)!;
    else npos++;
  }
  if (node.path === "") found.push("names no command");
  return found;
}

describe("help of every command", () => {
  it("each definition has a one-line summary and two or three real examples", () => {
    const gaps: string[] = [];
    for (const def of COMMANDS) {
      if (!def.summary.trim() || def.summary.includes("\n") || def.summary.endsWith("."))
        gaps.push(`${name(def)}: summary must be one line without a final period`);
      if ((def.examples?.length ?? 0) < 2)
        gaps.push(`${name(def)}: ${def.examples?.length ?? 0} example(s), needs at least 2`);
    }
    expect(gaps).toEqual([]);
  });

  it("each example runs a command that exists, with flags it takes and values they allow", () => {
    const bad: string[] = [];
    for (const def of COMMANDS) {
      for (const example of def.examples ?? []) {
        const words = pepWords(example);
        if (!words) {
          bad.push(`${name(def)}: "${example}" runs no pep command`);
          continue;
        }
        for (const p of problems(words)) bad.push(`${name(def)}: "${example}": ${p}`);
      }
    }
    expect(bad).toEqual([]);
  });

  it("reads example command lines like a shell", () => {
    expect(pepWords("pep studies list --search 'tendon healing' -o csv > a.csv  # note")).toEqual([
      "studies",
      "list",
      "--search",
      "tendon healing",
      "-o",
      "csv",
    ]);
    expect(pepWords("source <(pep completion bash)")).toEqual(["completion", "bash"]);
    expect(pepWords("cat k | pep auth login --with-key")).toEqual(["auth", "login", "--with-key"]);
    expect(problems(["peptides", "list", "--category", "nope"])).toEqual([
      "--category nope: not one of fat-loss, cognitive, muscle-recovery, longevity, glp1-metabolic, cosmetic, experimental",
    ]);
    expect(problems(["peptides", "list", "--bogus"])).toEqual(['unknown flag --bogus for "pep peptides list"']);
  });

  it("--help prints the summary, every flag with its allowed values and default, and the examples, exit 0", async () => {
    const tmp = scratch("pep-help-");
    try {
      for (const def of COMMANDS) {
        const r = await runPep([...def.path, "--help"], { env: tmp.env, columns: 200 });
        expect(r.code, name(def)).toBe(0);
        const help = r.out.replace(/\s+/g, " ");
        expect(help).toContain(def.summary);
        expect(help).toContain("Examples:");
        for (const e of def.examples ?? []) expect(help).toContain(e.replace(/\s+/g, " "));
        for (const o of src.optionsOf(def).filter((x) => !x.hidden)) {
          const long = `--${o.long}`;
          if (long) expect(help, `${name(def)} ${long}`).toContain(long);
          if (o.choices?.length) expect(help, `${name(def)} ${long}`).toContain(o.choices.join(", "));
          if (o.default !== undefined && !/default/i.test(o.description))
            expect(help).toContain(`(default: ${String(o.default)})`);
        }
      }
    } finally {
      tmp.cleanup();
    }
  });

  it("pep help <command> shows that command's help", async () => {
    const tmp = scratch("pep-help-");
    try {
      const r = await runPep(["help", "search"], { env: tmp.env, columns: 200 });
      expect(r.code).toBe(0);
      expect(r.out).toContain("Usage: pep search");
      const g = await runPep(["help", "peptides"], { env: tmp.env, columns: 200 });
      expect(g.code).toBe(0);
      expect(g.out).toContain("Usage: pep peptides");
      expect(g.out).toMatch(/\blist\b/);
      // Two words: the subcommand's own help, not the group's.
      const sub = await runPep(["help", "studies", "export"], { env: tmp.env, columns: 200 });
      expect(sub.code).toBe(0);
      expect(sub.out).toContain("Usage: pep studies export");
      expect(sub.out).toContain("--peptide");
      const unknown = await runPep(["help", "nosuch"], { env: tmp.env });
      expect(unknown.code).toBe(2);
      expect(unknown.err).toMatch(/unknown command 'nosuch'/);
      expect(unknown.out).toBe("");
    } finally {
      tmp.cleanup();
    }
  });

  it("a mistyped command exits 2 and suggests the closest one", async () => {
    const tmp = scratch("pep-help-");
    try {
      const r = await runPep(["peptdes"], { env: tmp.env });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/unknown command 'peptdes'/);
      // In pep's voice: error:, then hints.
      expect(r.err).toMatch(/^error: unknown command 'peptdes'$/m);
      expect(r.err).toMatch(/^hint: Did you mean `peptides`\?$/m);
      expect(r.err).toContain("hint: Run `pep --help` for usage.");
      // A bad flag points at the help of the command that refused it.
      const flag = await runPep(["peptides", "list", "--bogus"], { env: tmp.env });
      expect(flag.code).toBe(2);
      expect(flag.err).toContain("unknown option '--bogus'");
      expect(flag.err).toContain("hint: Run `pep peptides list --help` for usage.");
      const v = await runPep(["vendor"], { env: tmp.env });
      expect(v.code).toBe(2);
      expect(v.err).toMatch(/vendors/);
      // A group whose plain form runs its list still suggests a mistyped subcommand.
      for (const [argv, suggestion] of [
        [["peptides", "lst"], "list"],
        [["studies", "exprt"], "export"],
        [["vendors", "comapre"], "compare"],
        [["help", "peptides", "lsit"], "list"],
      ] as const) {
        const s = await runPep([...argv], { env: tmp.env });
        expect(s.code, argv.join(" ")).toBe(2);
        expect(s.err).toContain(`unknown command '${argv[argv.length - 1]}'`);
        expect(s.err).toContain(`Did you mean \`${suggestion}\`?`);
        expect(s.out).toBe("");
      }
    } finally {
      tmp.cleanup();
    }
  });
});
