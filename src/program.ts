/**
 * Builds a fresh commander tree from the command definitions, once per run. Nothing
 * here runs a command: the action hands the definition and the parsed input back to
 * `main.ts`, which loads the command's code only then.
 */
import { Command, type CommanderError, Option } from "commander";
import { GLOBAL_OPTIONS, type GlobalOptions } from "./commands/globals.js";
import { flagString, type OptionDef } from "./commands/options.js";
import { COMMANDS, GROUPS, optionsOf } from "./commands/registry.js";
import type { CommandDef, CommandInput } from "./commands/types.js";
import { closest } from "./suggest.js";
import { UsageError } from "./errors.js";
import type { IO } from "./io.js";
import { RESEARCH_NOTICE } from "./research-notice.js";

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

export function examplesText(def: CommandDef): string {
  if (!def.examples?.length) return "";
  return `\nExamples:\n${def.examples.map((e) => `  $ ${e}`).join("\n")}\n`;
}

export type RunHook = (def: CommandDef, input: CommandInput, globals: GlobalOptions) => Promise<void>;

export function buildProgram(io: IO, onRun: RunHook, options: { quietErrors?: boolean } = {}): Command {
  const program = new Command("pep");
  program
    .description("Read the peptide research API from the command line: profiles, studies, vendors and prices.")
    .version(__PEP_VERSION__, "-V, --version", "print the version")
    .helpOption("-h, --help", "show help")
    .helpCommand("help [command]", "show help for a command")
    .showSuggestionAfterError(true)
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .configureOutput({
      writeOut: (s) => io.stdout.write(s),
      writeErr: (s) => io.stderr.write(s),
      // Under a JSON output format the caller tells parse errors as one JSON object.
      ...(options.quietErrors ? { outputError: () => {} } : {}),
    })
    .exitOverride(tagged(program));
  for (const o of GLOBAL_OPTIONS) program.addOption(toOption(o));
  program.addHelpText(
    "after",
    `\nStart without a key or network:\n  $ pep --sandbox peptides list\n\n${RESEARCH_NOTICE}\nExit codes: 0 ok, 1 bug, 2 usage or 400, 3 auth, 4 not found, 5 rate limited, 6 service or network, 130 interrupted.\n`,
  );

  const groups = new Map<string, Command>();
  for (const def of COMMANDS) {
    let parent = program;
    if (def.path.length === 2) {
      const groupName = def.path[0]!;
      let group = groups.get(groupName);
      if (!group) {
        const info = GROUPS[groupName];
        group = program
          .command(groupName)
          .description(info?.summary ?? groupName)
          .helpCommand(false)
          .showSuggestionAfterError(true)
          .configureHelp({ showGlobalOptions: true });
        group.exitOverride(tagged(group));
        if (info?.aliases) group.aliases([...info.aliases]);
        if (info?.examples?.length)
          group.addHelpText("after", `\nExamples:\n${info.examples.map((e) => `  $ ${e}`).join("\n")}\n`);
        groups.set(groupName, group);
      }
      parent = group;
    }
    const name = def.path[def.path.length - 1]!;
    const cmd = parent.command(name, { isDefault: def.isDefault ?? false });
    cmd
      .description(def.summary + (def.description ? `\n\n${def.description}` : ""))
      .summary(def.summary)
      .exitOverride(tagged(cmd));
    cmd.configureHelp({ showGlobalOptions: true });
    if (def.aliases?.length) cmd.aliases([...def.aliases]);
    for (const a of def.args ?? []) {
      const spec = a.required ? `<${a.name}${a.variadic ? "..." : ""}>` : `[${a.name}${a.variadic ? "..." : ""}]`;
      cmd.argument(spec, a.description);
    }
    for (const o of optionsOf(def)) cmd.addOption(toOption(o));
    const examples = examplesText(def);
    if (examples) cmd.addHelpText("after", examples);
    // A group's default command (`pep peptides` = `pep peptides list`) would take a
    // mistyped subcommand as an excess argument; it gets a suggestion instead.
    const strict = def.isDefault && parent !== program && !(def.args ?? []).some((a) => a.variadic);
    if (strict) cmd.allowExcessArguments(true);
    cmd.action(async (...params: unknown[]) => {
      const self = params[params.length - 1] as Command;
      if (strict && self.args.length > (def.args ?? []).length)
        throw unknownSubcommand(parent, self.args[(def.args ?? []).length]!);
      const args = (self.processedArgs as unknown[]).flatMap((v) =>
        Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)],
      );
      const globals = self.optsWithGlobals() as GlobalOptions;
      await onRun(def, { args, opts: self.opts() }, globals);
    });
  }
  return program;
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

/** `pep peptides lst`: the error commander gives an unknown command, with the closest one. */
function unknownSubcommand(group: Command, word: string): UsageError {
  const names = group.commands.filter((c) => c.name() !== "help").flatMap((c) => [c.name(), ...c.aliases()]);
  const match = closest(word, names);
  const best = match === undefined ? undefined : [match];
  const where = group.parent ? `pep ${group.name()}` : "pep";
  const err = new UsageError(`unknown command '${word}'${group.parent ? ` for '${where}'` : ""}`);
  err.hints.push(
    best
      ? `did you mean '${best[0]}'? (${where} ${best[0]})`
      : `commands: ${group.commands
          .filter((c) => c.name() !== "help")
          .map((c) => c.name())
          .join(", ")}`,
  );
  return err;
}
