/**
 * Builds a fresh commander tree from the command definitions, once per run. Nothing
 * here runs a command: the action hands the definition and the parsed input back to
 * `main.ts`, which loads the command's code only then.
 */
import { Command, type CommanderError, type Help, Option } from "commander";
import { GLOBAL_OPTIONS, type GlobalOptions } from "../api/globals.js";
import { flagString, type OptionDef } from "../api/options.js";
import { COMMANDS, GROUPS, optionsOf } from "../commands/registry.js";
import { type CommandDef, type CommandInput, descriptionOf } from "../core/command.js";
import { closest } from "../core/suggest.js";
import { UsageError } from "../core/errors.js";
import type { IO } from "../core/io.js";
import { rootHelp, wrapWords } from "./root-help.js";

function describe(o: OptionDef): string {
  let text = o.description;
  // -o lists its formats after a colon: "output format (default: …): table, json, …".
  if (o.choices) text += o.key === "output" ? `: ${o.choices.join(", ")}` : ` (one of: ${o.choices.join(", ")})`;
  if (o.default !== undefined && !o.description.includes("default")) text += ` (default: ${String(o.default)})`;
  return text;
}

function toOption(o: OptionDef): Option {
  const opt = new Option(flagString(o), describe(o));
  if (opt.attributeName() !== o.key)
    throw new Error(
      `option ${flagString(o)}: key "${o.key}" is not "${opt.attributeName()}", the key its value is parsed under`,
    );
  if (o.repeatable) opt.argParser((value: string, previous: string[] | undefined) => [...(previous ?? []), value]);
  if (o.hidden) opt.hideHelp();
  return opt;
}

/** Words of a shell line split at spaces outside quotes (the quotes kept). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  let current = "";
  let quote: string | undefined;
  for (const ch of line) {
    if (quote) {
      if (ch === quote) quote = undefined;
      current += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      current += ch;
    } else if (ch === " ") {
      if (current !== "") words.push(current);
      current = "";
    } else current += ch;
  }
  if (current !== "") words.push(current);
  return words;
}

/**
 * One example as it is typed: `  $ pep …`, its comment after it when both fit, else on a
 * line of its own above it; a command longer than the width continues on the next line
 * after a ` \`, broken only between words, so that it still runs when pasted.
 */
export function exampleLines(example: string, width: number): string[] {
  const hash = example.search(/\s+#\s/);
  const command = (hash < 0 ? example : example.slice(0, hash)).trim();
  const comment = hash < 0 ? undefined : example.slice(hash).trim();
  const one = `  $ ${command}`;
  if (comment !== undefined && one.length + 2 + comment.length <= width) return [`${one}  ${comment}`];
  const lines: string[] = comment !== undefined ? [`  ${comment}`] : [];
  if (one.length <= width) return [...lines, one];
  let line = "  $";
  for (const w of shellWords(command)) {
    if (line.length + 1 + w.length + 2 > width && line.trim() !== "$" && line.trim() !== "") {
      lines.push(`${line} \\`);
      line = `      ${w}`;
    } else line += ` ${w}`;
  }
  lines.push(line);
  return lines;
}

export function examplesText(def: { examples?: readonly string[] | undefined }, width = 80): string {
  if (!def.examples?.length) return "";
  return `\nExamples:\n${def.examples.flatMap((e) => exampleLines(e, width)).join("\n")}\n`;
}

/** Below this many columns for a description, an item's description goes under its term. */
const MIN_DESCRIPTION = 32;

/**
 * Help laid out for the terminal it is read on: descriptions wrap at word boundaries to
 * the width, and when the width leaves too little room beside the flags each
 * description goes under its flag, indented, instead of being broken mid-word by the
 * terminal. Global options are not repeated under every command: a pointer to them ends
 * its help (`globalsPointer`).
 */
function helpConfig(): Partial<Help> {
  return {
    sortSubcommands: false,
    showGlobalOptions: false,
    minWidthToWrap: 1,
    formatItem(term: string, termWidth: number, description: string, helper: Help): string {
      const width = helper.helpWidth ?? 80;
      if (!description) return `  ${term}`;
      if (width - termWidth - 4 >= MIN_DESCRIPTION) {
        const wrapped = helper.boxWrap(description, width - termWidth - 4);
        const pad = " ".repeat(termWidth + 4);
        return `  ${term.padEnd(termWidth)}  ${wrapped.replace(/\n/g, `\n${pad}`)}`;
      }
      const wrapped = helper.boxWrap(description, Math.max(10, width - 6));
      return `  ${term}\n      ${wrapped.replace(/\n/g, "\n      ")}`;
    },
  };
}

/** "Global options (pep help globals): -o, --fields, …", from GLOBAL_OPTIONS, wrapped. */
export function globalsPointer(width: number): string {
  const flags = (GLOBAL_OPTIONS as readonly OptionDef[])
    .filter((o) => !o.hidden)
    .map((o) => (o.short ? `-${o.short}` : `--${o.long}`));
  return `\n${wrapWords(`Global options (pep help globals): ${flags.join(", ")}`, width, "  ")}\n`;
}

/** `pep help globals`: every global option with its description, wrapped to the width. */
export function globalsHelp(program: Command): string {
  const helper = program.createHelp();
  helper.prepareContext({ helpWidth: program.configureOutput().getOutHelpWidth?.() ?? 80 });
  const options = helper.visibleOptions(program);
  const termWidth = Math.max(...options.map((o) => helper.optionTerm(o).length));
  const items = options.map((o) =>
    helper.formatItem(helper.optionTerm(o), termWidth, helper.optionDescription(o), helper),
  );
  const intro = helper.boxWrap(
    "Global options: they go before or after any command (pep --sandbox peptides list).",
    helper.helpWidth ?? 80,
  );
  return `${intro}\n\n${items.join("\n")}\n`;
}

export type RunHook = (def: CommandDef, input: CommandInput, globals: GlobalOptions) => Promise<void>;

interface BuildOptions {
  defs?: readonly CommandDef[];
  /** Where help and the version go (stdout by default): main.ts pages the help. */
  writeOut?: (text: string) => void;
  /** The group and command words as typed (Invocation.commandWords). */
  typedWords?: readonly string[];
}

export function buildProgram(io: IO, onRun: RunHook, options: BuildOptions = {}): Command {
  const program = rootCommand(io, options.writeOut ?? ((text) => io.stdout.write(text)));
  const groups = new Map<string, Command>();
  for (const def of options.defs ?? COMMANDS) {
    const parent = def.path.length === 2 ? groupCommand(program, groups, def.path[0]!, io) : program;
    addCommand(parent, def, io, onRun, options);
  }
  return program;
}

/** `pep` itself: its help, version and global options. */
function rootCommand(io: IO, writeOut: (text: string) => void): Command {
  const program = new Command("pep");
  program
    .description("Read the peptide research API from the command line: profiles, studies, vendors and prices.")
    .version(__PEP_VERSION__, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "show help for a command")
    .showSuggestionAfterError(true)
    .configureOutput({
      writeOut,
      // commander writes here only the help of a bare `pep` or `pep config`: asked for
      // by leaving the command out, so on stdout (and paged) as `--help` is, like gh's.
      writeErr: writeOut,
      getOutHelpWidth: () => io.columns,
      getErrHelpWidth: () => io.columns,
      // commander's own errors are told by the caller in pep's voice (error:, hint:), or as
      // one JSON object under a JSON output format.
      outputError: () => {},
    })
    .exitOverride(tagged(program));
  // Commands first, then the global flags, as gh lays it out; subcommands keep helpConfig's.
  program.configureHelp({ ...helpConfig(), formatHelp: (cmd, helper) => rootHelp(cmd, helper) });
  for (const o of GLOBAL_OPTIONS) program.addOption(toOption(o));
  return program;
}

/** The group `name` (`pep peptides`), made the first time one of its commands is added. */
function groupCommand(program: Command, groups: Map<string, Command>, name: string, io: IO): Command {
  const known = groups.get(name);
  if (known) return known;
  const info = GROUPS[name];
  const group = program
    .command(name)
    .description(info?.summary ?? name)
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .configureHelp(helpConfig());
  group.exitOverride(tagged(group));
  if (info?.aliases) group.aliases([...info.aliases]);
  group.addHelpText("after", () => groupHelpAfter(name, io.columns));
  groups.set(name, group);
  return group;
}

/**
 * The one rule for a group typed alone, as its help says it: it runs its default command
 * (the one that only reads), and prints this help when it has none; when the default
 * cannot run for a missing base URL or key, the help follows the error line.
 */
export function aloneRule(group: string, width: number): string {
  const def = COMMANDS.find((d) => d.path.length === 2 && d.path[0] === group && d.isDefault);
  const text = def
    ? `pep ${group} alone runs pep ${def.path.join(" ")} (and shows this help when that cannot run for a missing base URL or key).`
    : `pep ${group} alone shows this help.`;
  return wrapWords(text, width);
}

/** What a group's help says after its commands: the rule for it alone, examples, the globals. */
export function groupHelpAfter(name: string, width: number): string {
  return `\n${aloneRule(name, width)}\n${examplesText(GROUPS[name] ?? {}, width)}${globalsPointer(width)}`;
}

/** One command from its definition: names, arguments, options, help, and its action. */
function addCommand(parent: Command, def: CommandDef, io: IO, onRun: RunHook, options: BuildOptions): void {
  const name = def.path[def.path.length - 1]!;
  const cmd = parent.command(name, { isDefault: def.isDefault ?? false });
  const description = descriptionOf(def);
  cmd
    .description(def.summary + (description ? `\n\n${description}` : ""))
    .summary(def.summary)
    .exitOverride(tagged(cmd));
  cmd.configureHelp(helpConfig());
  if (def.aliases?.length) cmd.aliases([...def.aliases]);
  for (const a of def.args ?? []) {
    const spec = a.required ? `<${a.name}${a.variadic ? "..." : ""}>` : `[${a.name}${a.variadic ? "..." : ""}]`;
    cmd.argument(spec, a.description);
  }
  for (const o of optionsOf(def)) cmd.addOption(toOption(o));
  // Its own options, then its examples, then where the global options are.
  cmd.addHelpText("after", () => examplesText(def, io.columns) + globalsPointer(io.columns));
  cmd.allowExcessArguments(true);
  cmd.action(async (...params: unknown[]) => {
    const self = params[params.length - 1] as Command;
    refuseExtraWords(def, self, parent, options.typedWords);
    const args = (self.processedArgs as unknown[]).flatMap((v) =>
      Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)],
    );
    const globals = self.optsWithGlobals() as GlobalOptions;
    await onRun(def, { args, opts: self.opts() }, globals);
  });
}

/**
 * Words past a command's arguments. A group's default command (`pep peptides` = `pep
 * peptides list`) would take a mistyped subcommand as an excess argument: it gets a
 * suggestion instead. Named (`pep peptides list extra`), it is the command that got too
 * many arguments.
 */
function refuseExtraWords(def: CommandDef, self: Command, parent: Command, typedWords?: readonly string[]): void {
  const taken = (def.args ?? []).length;
  if ((def.args ?? []).some((a) => a.variadic) || self.args.length <= taken) return;
  const typed = typedWords?.[1] ?? "";
  const named = def.path.length === 1 || self.name() === typed || self.aliases().includes(typed);
  if (def.isDefault && parent.parent !== null && !named) throw unknownSubcommand(parent, self.args[taken]!);
  throw tooManyArguments(def, self.args.slice(taken));
}

/** The command whose parsing failed, so the usage hint can name its help. */
export const FAILED_COMMAND = Symbol("pep.failedCommand");

function tagged(cmd: Command): (err: CommanderError) => never {
  return (err) => {
    const names: string[] = [];
    for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
    Object.assign(err, { [FAILED_COMMAND]: names.join(" ") });
    throw err;
  };
}

/**
 * The words of `pep help <words…>` checked against the command tree, so `pep help nosuch`
 * is an unknown command (exit 2) rather than the top-level help.
 */
export function checkHelpTarget(program: Command, words: readonly string[]): void {
  let at = program;
  for (const word of words) {
    if (word.startsWith("-")) return;
    const next = at.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (!next) throw unknownSubcommand(at, word);
    at = next;
  }
}

/** `pep peptides list extra`: the command named, what it takes, and the words it did not. */
function tooManyArguments(def: CommandDef, extra: readonly string[]): UsageError {
  const name = `pep ${def.path.join(" ")}`;
  const args = def.args ?? [];
  const takes = args.length === 0 ? "takes no arguments" : `takes ${args.map((a) => `<${a.name}>`).join(" ")}`;
  const words = extra.map((w) => `'${w}'`).join(", ");
  return new UsageError(`too many arguments for '${name}': it ${takes} (got ${words})`, {
    hints: [`Run \`${name} --help\` for usage.`],
  });
}

/** `pep peptides lst`: the error commander gives an unknown command, with the closest one. */
function unknownSubcommand(group: Command, word: string): UsageError {
  const names = group.commands.filter((c) => c.name() !== "help").flatMap((c) => [c.name(), ...c.aliases()]);
  const match = closest(word, names);
  const best = match === undefined ? undefined : [match];
  const where = group.parent ? `pep ${group.name()}` : "pep";
  const err = new UsageError(`unknown command '${word}'${group.parent ? ` for '${where}'` : ""}`);
  err.hints.push(
    best
      ? `Did you mean \`${best[0]}\`? (\`${where} ${best[0]}\`)`
      : `commands: ${group.commands
          .filter((c) => c.name() !== "help")
          .map((c) => c.name())
          .join(", ")}`,
  );
  return err;
}
