import { spawnSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CATEGORIES, CITATION_FORMATS, EVIDENCE_LEVELS, OUTPUT_FORMATS, PEPTIDE_SORTS } from "../../src/api/enums.js";
import { COMMANDS, GROUPS } from "../../src/commands/registry.js";
import { SHELLS } from "../../src/docs/completion.js";
import { runPep, scratch } from "../helpers/cli.js";

const has = (shell: string) => spawnSync(shell, ["-c", "exit 0"]).status === 0;
const topLevel = [...new Set(COMMANDS.map((d) => d.path[0]!))];

let tmp: ReturnType<typeof scratch>;
const scripts: Record<string, string> = {};
beforeAll(async () => {
  tmp = scratch("pep-completion-");
  for (const shell of SHELLS) {
    const r = await runPep(["completion", shell], { env: tmp.env });
    expect(r.code, r.err).toBe(0);
    scripts[shell] = path.join(tmp.dir, `pep.${shell}`);
    writeFileSync(scripts[shell]!, r.out);
  }
});
afterAll(() => tmp.cleanup());

/** Completions bash offers for the words typed, the last one being completed. */
function bash(...words: string[]): string[] {
  const quoted = words.map((w) => `'${w.replace(/'/g, `'\\''`)}'`).join(" ");
  const r = spawnSync(
    "bash",
    [
      "--norc",
      "-c",
      `source ${scripts.bash}; COMP_WORDS=(${quoted}); COMP_CWORD=${words.length - 1}; _pep_completions; printf '%s\\n' "\${COMPREPLY[@]}"`,
    ],
    { encoding: "utf8", cwd: tmp.dir },
  );
  expect(r.stderr).toBe("");
  expect(r.status).toBe(0);
  return r.stdout.split("\n").filter(Boolean);
}

describe("pep completion", () => {
  it("rejects a shell it does not know with exit 2, naming the choices", async () => {
    const r = await runPep(["completion", "powershell"], { env: tmp.env });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/bash, zsh, fish/);
  });

  it("offers the shells themselves as the argument of completion, as its definition lists them", () => {
    const def = COMMANDS.find((d) => d.path.join(" ") === "completion")!;
    expect(def.args?.[0]?.choices).toEqual([...SHELLS]);
    expect(bash("pep", "completion", "")).toEqual([...SHELLS]);
  });
});

describe("bash completion script, sourced in a real bash", () => {
  it("completes the top-level commands and help", () => {
    const got = bash("pep", "");
    for (const name of topLevel) expect(got).toContain(name);
    expect(got).toContain("help");
    expect(bash("pep", "pep")).toEqual(["peptides"]);
  });

  it("completes a group's verbs", () => {
    const verbs = COMMANDS.filter((d) => d.path[0] === "peptides" && d.path.length === 2).map((d) => d.path[1]);
    expect(verbs.length).toBeGreaterThan(1);
    expect(bash("pep", "peptides", "")).toEqual(verbs);
    expect(Object.keys(GROUPS)).toContain("peptides");
  });

  it("completes the enum values of a flag with choices", () => {
    expect(bash("pep", "peptides", "list", "--category", "")).toEqual([...CATEGORIES]);
    expect(bash("pep", "peptides", "list", "--evidence-level", "c")).toEqual(
      EVIDENCE_LEVELS.filter((l) => l.startsWith("c")),
    );
    // The default command of a group takes its flags without the verb.
    expect(bash("pep", "peptides", "--sort", "")).toEqual([...PEPTIDE_SORTS]);
    // --flag=value, split by COMP_WORDBREAKS into three words.
    expect(bash("pep", "peptides", "list", "--category", "=", "")).toEqual([...CATEGORIES]);
  });

  it("offers -o formats the command prints: citations only for study commands", () => {
    expect(bash("pep", "peptides", "list", "-o", "")).toEqual([...OUTPUT_FORMATS]);
    expect(bash("pep", "studies", "list", "--output", "")).toEqual([...OUTPUT_FORMATS, ...CITATION_FORMATS]);
    expect(bash("pep", "-o", "")).toEqual([...OUTPUT_FORMATS, ...CITATION_FORMATS]);
  });

  it("completes flags, own and global, and skips flag values when finding the command", () => {
    expect(bash("pep", "peptides", "list", "--ca")).toEqual(["--category"]);
    expect(bash("pep", "peptides", "list", "--sand")).toEqual(["--sandbox"]);
    expect(bash("pep", "--profile", "work", "peptides", "list", "--cat")).toEqual(["--category"]);
    expect(bash("pep", "-o", "json", "pep")).toEqual(["peptides"]);
  });

  it("resolves an alias to its command", () => {
    const aliased = COMMANDS.find((d) => d.aliases?.length && d.options?.length);
    if (!aliased) return expect.fail("no aliased command with options to test");
    const flag = `--${aliased.options![0]!.long}`;
    expect(bash("pep", ...aliased.path.slice(0, -1), aliased.aliases![0]!, flag.slice(0, 4))).toContain(flag);
  });

  it("completes file names for --api-key-file and nothing for free text", () => {
    writeFileSync(path.join(tmp.dir, "key.txt"), "x");
    expect(bash("pep", "--api-key-file", "key")).toEqual(["key.txt"]);
    expect(bash("pep", "--base-url", "")).toEqual([]);
  });
});

describe.skipIf(!has("zsh"))("zsh completion script", () => {
  it("parses (zsh -n)", () => {
    const r = spawnSync("zsh", ["-n", scripts.zsh!], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("offers the same values through compadd and _describe", () => {
    // compadd and _describe stand in for the completion system: they print what they are given.
    const zsh = (...words: string[]) => {
      const quoted = words.map((w) => `'${w}'`).join(" ");
      const program = [
        "compdef() { :; }",
        `source ${scripts.zsh}`,
        'compadd() { [[ "$1" == -- ]] && shift; print -l -- "$@"; }',
        '_describe() { local -a arr; arr=("${(@P)${@[-1]}}"); print -l -- "${arr[@]%%:*}"; }',
        `words=(${quoted}); CURRENT=${words.length}`,
        "_pep",
      ].join("\n");
      const r = spawnSync("zsh", ["-f", "-c", program], { encoding: "utf8" });
      expect(r.stderr).toBe("");
      return r.stdout.split("\n").filter(Boolean);
    };
    expect(zsh("pep", "peptides", "list", "--category", "")).toEqual([...CATEGORIES]);
    expect(zsh("pep", "peptides", "")).toEqual(COMMANDS.filter((d) => d.path[0] === "peptides").map((d) => d.path[1]));
    expect(zsh("pep", "studies", "get", "x", "-o", "")).toEqual([...OUTPUT_FORMATS, ...CITATION_FORMATS]);
    expect(zsh("pep", "")).toEqual(expect.arrayContaining([...topLevel, "help"]));
  });
});

describe.skipIf(!has("fish"))("fish completion script", () => {
  it("parses (fish -n)", () => {
    const r = spawnSync("fish", ["-n", scripts.fish!], { encoding: "utf8" });
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
  });

  it("completes commands, verbs, flag values and formats in a real fish", () => {
    const fish = (line: string) => {
      const r = spawnSync("fish", ["--no-config", "-c", `source ${scripts.fish}; complete -C '${line}'`], {
        encoding: "utf8",
      });
      expect(r.stderr).toBe("");
      return r.stdout
        .split("\n")
        .filter(Boolean)
        .map((l) => l.split("\t")[0]);
    };
    expect(fish("pep ")).toEqual(expect.arrayContaining([...topLevel, "help"]));
    expect(fish("pep peptides ")).toEqual(expect.arrayContaining(["list", "get"]));
    expect(fish("pep peptides list --category ")).toEqual(expect.arrayContaining([...CATEGORIES]));
    expect(fish("pep peptides list --category ")).toHaveLength(CATEGORIES.length);
    expect(fish("pep studies list -o ")).toEqual(expect.arrayContaining(["bibtex", "csv"]));
    expect(fish("pep peptides list -o ")).not.toContain("bibtex");
    expect(fish("pep completion ").sort()).toEqual([...SHELLS].sort());
  });
});
