/**
 * The command line, read once. `readInvocation(argv)` finds what every later step needs
 * from the raw words (which commands they name, the `-o` word, the `--cursor` given, the
 * words a resume command repeats); once commander has parsed them, `parsed()` adds the
 * command, its typed options and the global options. Nothing after this reads `argv`.
 */
import { GLOBAL_OPTIONS, splitFields } from "../api/globals.js";
import type { OptionDef } from "../api/options.js";
import { COMMANDS, GROUPS } from "../commands/registry.js";
import { profileName } from "../config/profile.js";
import type { CommandDef, CommandInput } from "../core/command.js";
import type { GlobalOptions } from "../core/command-context.js";
import type { IO } from "../core/io.js";
import { envSwitch } from "../core/switches.js";
import { explicitMachine } from "./format-choice.js";

export interface Invocation {
  /** The words after `pep`, as typed: what a resume command repeats. */
  readonly argv: readonly string[];
  /** The words commander parses (`pep help a b` is `a b --help`). */
  readonly words: readonly string[];
  /** `pep help globals`. */
  readonly helpGlobals: boolean;
  /** `pep help <words…>`: the words to check against the tree. */
  readonly helpTarget: readonly string[] | undefined;
  /** The first two words that are not options: the group and command as typed. */
  readonly commandWords: readonly string[];
  /** The definitions to build: the one command the words name, else all of them. */
  readonly defs: readonly CommandDef[];
  /** The `-o` word as typed, read even when commander cannot parse the rest. */
  readonly outputWord: string | undefined;
  /** The `--profile` word as typed (help reads the profile's pager before commander parses). */
  readonly profileWord: string | undefined;
  /** The `--cursor` the user gave. */
  readonly cursorGiven: string | undefined;
  /** Failures are JSON objects before the format is settled (`-o json`, PEP_OUTPUT). */
  readonly machineErrors: boolean;
}

/** What commander found: the command, its input and the global options. */
export interface ParsedInvocation extends Invocation {
  readonly def: CommandDef;
  readonly input: CommandInput;
  readonly globals: GlobalOptions;
  /** `--fields`, split once. */
  readonly fields: readonly string[] | undefined;
  /** --profile, else PEP_PROFILE, else `default`. */
  readonly profile: string;
  /** The run talks to the built-in sandbox. */
  readonly sandbox: boolean;
  /** `--offline` or PEP_OFFLINE said whether to read the library; undefined: the profile's `offline` decides. */
  readonly offlineSwitch: boolean | undefined;
}

/** Global options that take a value: the word after them is not a command word. */
const VALUED = (() => {
  const s = new Set<string>();
  for (const o of GLOBAL_OPTIONS as readonly OptionDef[])
    if (o.value !== undefined) {
      s.add(`--${o.long}`);
      if (o.short) s.add(`-${o.short}`);
    }
  return s;
})();

export function readInvocation(argv: readonly string[], env: IO["env"]): Invocation {
  const help = argv[0] === "help" && argv.length > 1;
  const outputWord = lastValue(argv, "-o", "--output");
  const commandWords = positionalWords(argv);
  return {
    argv,
    // `pep help peptides list` is `pep peptides list --help` (commander's help takes one word).
    words: help ? [...argv.slice(1), "--help"] : helpOfCommandNamed(argv, commandWords),
    // Global flags may sit anywhere around the two words (`pep help globals --no-pager`).
    helpGlobals: commandWords.length === 2 && commandWords[0] === "help" && commandWords[1] === "globals",
    helpTarget: argv[0] === "help" ? argv.slice(1) : undefined,
    commandWords,
    defs: definitionsFor(argv, commandWords),
    outputWord,
    cursorGiven: lastValue(argv, undefined, "--cursor"),
    profileWord: lastValue(argv, undefined, "--profile"),
    machineErrors: explicitMachine(outputWord, env),
  };
}

/** The invocation with what commander parsed. */
export function parsed(
  inv: Invocation,
  def: CommandDef,
  input: CommandInput,
  globals: GlobalOptions,
  env: IO["env"],
): ParsedInvocation {
  return {
    ...inv,
    def,
    input,
    globals,
    fields: splitFields(globals.fields),
    profile: profileName(globals.profile, env),
    sandbox: !def.offline && (globals.sandbox === true || envSwitch(env, "PEP_SANDBOX")),
    offlineSwitch:
      globals.offline === true
        ? true
        : env.PEP_OFFLINE !== undefined && env.PEP_OFFLINE.trim() !== ""
          ? envSwitch(env, "PEP_OFFLINE")
          : undefined,
  };
}

/**
 * The command that `argv` names, as its words ("peptides list"), or "pep" when the words
 * name none or several (help, a group alone, a typo). bin/code-cache.js keys its saves on it.
 */
export function commandOf(argv: readonly string[]): string {
  const defs = definitionsFor(argv, positionalWords(argv));
  return defs.length === 1 ? defs[0]!.path.join(" ") : "pep";
}

/**
 * The words commander parses. With `-h`/`--help`, the command's words go first: commander
 * stops at an option it does not know before the command (`pep --bad sandbox -h`) and
 * would show pep's own help, not the help of the command named. Global options are taken
 * after the command as before it, so nothing else changes.
 */
function helpOfCommandNamed(argv: readonly string[], words: readonly string[]): string[] {
  const end = argv.indexOf("--");
  const head = end === -1 ? argv : argv.slice(0, end);
  if (words.length === 0 || !head.some((w) => w === "-h" || w === "--help")) return [...argv];
  const at: number[] = [];
  for (let i = 0; i < head.length && at.length < words.length; i++) {
    const a = head[i]!;
    if (a.startsWith("-")) {
      if (VALUED.has(a)) i++;
      continue;
    }
    at.push(i);
  }
  if (at.length === 0 || at[0] === 0) return [...argv];
  return [...at.map((i) => argv[i]!), ...argv.filter((_, i) => !at.includes(i))];
}

function positionalWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length && words.length < 2; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    if (a.startsWith("-")) {
      if (VALUED.has(a)) i++;
      continue;
    }
    words.push(a);
  }
  return words;
}

/**
 * The definitions a run builds into commander: when the words name one command exactly
 * (`peptides list`, `search`), that one alone, as building every command's options is a
 * few milliseconds of each run; otherwise (help, a mistyped, partial or missing command)
 * all of them, so that help, errors and suggestions see the whole tree.
 */
function definitionsFor(argv: readonly string[], words: readonly string[]): readonly CommandDef[] {
  if (argv.includes("--") || words.includes("help")) return COMMANDS;
  const named = (def: CommandDef, word: string | undefined) =>
    word !== undefined && (def.path[def.path.length - 1] === word || def.aliases?.includes(word) === true);
  const match = COMMANDS.filter((def) =>
    def.path.length === 1
      ? named(def, words[0])
      : (def.path[0] === words[0] || GROUPS[def.path[0]!]?.aliases?.includes(words[0] ?? "") === true) &&
        named(def, words[1]),
  );
  return match.length === 1 ? match : COMMANDS;
}

/** The value of the last `-o x`, `-ox`, `--output x` or `--output=x` before `--`. */
function lastValue(argv: readonly string[], short: string | undefined, long: string): string | undefined {
  let found: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === "--") break;
    if (w === long || (short !== undefined && w === short)) found = argv[++i];
    else if (w.startsWith(`${long}=`)) found = w.slice(long.length + 1);
    else if (short !== undefined && w.startsWith(short) && w.length > short.length && w[short.length] !== "-")
      found = w.slice(short.length);
  }
  return found;
}
