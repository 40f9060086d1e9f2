/**
 * `run(argv, deps)`: the program shell. Reads the command line once (`readInvocation`),
 * lets commander parse it, runs the one command asked for (`execute`), and turns every
 * failure into one message and one exit code (`report`). Nothing else decides an exit
 * code.
 */
import { CommanderError } from "commander";
import type { Deps } from "../core/command-context.js";
import { EXIT, UsageError } from "../core/errors.js";
import { processIO, type IO } from "../core/io.js";
import { execute } from "./execute.js";
import { readInvocation, type Invocation, parsed } from "./invocation.js";
import { buildProgram, checkHelpTarget, FAILED_COMMAND, globalsHelp, groupHelpAfter } from "./program.js";
import { report } from "./report.js";
import { ROOT_HELP_FIRST_LINE } from "./root-help.js";
import { attachProcessSignals, type Ending, noEnding } from "./signals.js";

export { commandOf } from "./invocation.js";
export { resumeCommand } from "./resume.js";

/** Runs `pep` with the words after the executable name; resolves to the exit code. */
export async function run(argv: readonly string[], deps: Deps = {}): Promise<number> {
  const interrupt = new AbortController();
  let io: IO;
  let ending: Ending & { detach?(): void };
  if (deps.io) {
    io = deps.io;
    ending = noEnding();
  } else {
    // Until the run has settled (its output written, its file renamed), the process's
    // exit status says it failed: a run that never settles cannot pass for a success.
    process.exitCode = EXIT.unexpected;
    io = processIO(interrupt.signal);
    ending = attachProcessSignals(interrupt, io);
  }
  const inv = readInvocation(argv, io.env);
  try {
    const code = await parseAndRun(inv, io, deps, ending);
    return code === EXIT.interrupted ? ending.exitCode() : code;
  } finally {
    ending.detach?.();
  }
}

async function parseAndRun(inv: Invocation, io: IO, deps: Deps, ending: Ending): Promise<number> {
  let exitCode: number = EXIT.ok;
  // Help and the version are held, then printed at once: through the pager on a terminal.
  let held = "";
  const program = buildProgram(
    io,
    async (def, input, globals) => {
      const group = def.path.length === 2 ? program.commands.find((c) => c.name() === def.path[0]) : undefined;
      exitCode = await execute(
        parsed(inv, def, input, globals, io.env),
        io,
        deps,
        ending,
        group && (() => group.helpInformation() + groupHelpAfter(group.name(), io.columns)),
      );
    },
    {
      defs: inv.defs,
      typedWords: inv.commandWords,
      writeOut: (text) => {
        held += text;
      },
    },
  );
  try {
    if (inv.helpGlobals) {
      await showHelp(globalsHelp(program), inv, io);
      return EXIT.ok;
    }
    if (inv.helpTarget) checkHelpTarget(program, inv.helpTarget);
    await program.parseAsync(inv.words, { from: "user" });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === "commander.version") io.stdout.write(held);
      else if (held !== "") await showHelp(held, inv, io);
      return commanderFailure(err, inv, io);
    }
    return report(err, io, inv, { verbose: false, machine: inv.machineErrors });
  }
}

/**
 * Help on a terminal (but `pep --help`, one screen) goes through the pager output goes through (PEP_PAGER, the profile's
 * `pager`, PAGER, `less -FRX`: one screen is left on the terminal as it is); a pipe,
 * `TERM=dumb` without PEP_PAGER, `--no-pager` or a pager that cannot start print it as it is.
 */
async function showHelp(text: string, inv: Invocation, io: IO): Promise<void> {
  // `pep --help` is one screen by design: never paged.
  const oneScreen = text.startsWith(ROOT_HELP_FIRST_LINE);
  if (oneScreen || !(io.stdoutIsTTY && io.canPage) || inv.argv.includes("--no-pager")) {
    io.stdout.write(text);
    return;
  }
  const { pagerCommand, startPager } = await import("../core/io.js");
  const chosen = pagerCommand(io.env, await profilePager(inv, io));
  const pager = chosen ? await startPager(chosen.command, io.env) : undefined;
  if (!pager) {
    io.stdout.write(text);
    return;
  }
  pager.stream.end(text);
  await pager.exited;
}

/** The profile's `pager`, if the config file can be read (help never fails for a config problem). */
async function profilePager(inv: Invocation, io: IO): Promise<string | undefined> {
  try {
    const [{ openConfigStore }, { profileName }] = await Promise.all([
      import("../config/store.js"),
      import("../config/profile.js"),
    ]);
    return openConfigStore(io.env).profile(profileName(inv.profileWord, io.env)).pager;
  } catch {
    return undefined;
  }
}

/**
 * commander's own stops: help and version are a success; a parse error is a usage error,
 * told in pep's voice like every other (`error:`, then `hint:` lines, or one JSON object).
 */
async function commanderFailure(failure: CommanderError, inv: Invocation, io: IO): Promise<number> {
  if (
    failure.code === "commander.helpDisplayed" ||
    failure.code === "commander.version" ||
    failure.code === "commander.help"
  )
    return EXIT.ok;
  // The help of the command that refused it; a global option's slip, the command typed.
  const failed = (failure as { [FAILED_COMMAND]?: string })[FAILED_COMMAND] ?? "pep";
  const where = failed === "pep" && inv.defs.length === 1 ? `pep ${inv.defs[0]!.path.join(" ")}` : failed;
  const text = failure.message.replace(/^error: /, "");
  const suggestion = /\(Did you mean (.+?)\?\)/.exec(text)?.[1];
  const message = text
    .replace(/\s*\(Did you mean .+?\?\)/, "")
    .replace(/\s*\n\s*/g, " ")
    .trim();
  const meant = failure.code === "commander.unknownOption" ? flagByMeaning(text, inv.argv) : undefined;
  const part = meant ? [] : await flagsHoldingIt(failure, text, inv, suggestion);
  const hints = [
    ...(meant ? [meant] : part.length > 0 ? part : suggestion ? [`Did you mean \`${suggestion}\`?`] : []),
    ...(await fieldsHint(failure, inv)),
    `Run \`${where} --help\` for usage.`,
  ];
  return report(new UsageError(message, { hints }), io, inv, { verbose: false, machine: inv.machineErrors });
}

/**
 * Flags other tools spell differently, told by what they mean rather than by spelling
 * (`--format` is not a slip of `--sort`): the output format is `-o` (gh's `--json` too).
 */
const FLAG_MEANINGS: Readonly<Record<string, string>> = {
  "--format": "-o <format>",
  "--output-format": "-o <format>",
  "--fmt": "-o <format>",
  "--json": "-o json",
  "--ndjson": "-o ndjson",
  "--jsonl": "-o ndjson",
  "--csv": "-o csv",
  "--tsv": "-o tsv",
  "--table": "-o table",
  "--ids": "-o ids",
  "--bibtex": "-o bibtex",
  "--ris": "-o ris",
  "--api-key": "--api-key-file <path|->",
  "--key": "--api-key-file <path|->",
  "--token": "--api-key-file <path|->",
  "--debug": "-v",
  "--silent": "-q",
  "--page": "--cursor <c>",
  "--open": "--web",
  "--browser": "--web",
};

/** The hint for an unknown flag that means one of pep's under another name (`--format csv`: `-o csv`). */
function flagByMeaning(message: string, argv: readonly string[]): string | undefined {
  const flag = /unknown option '([^'=]+)/.exec(message)?.[1];
  let meant = flag === undefined ? undefined : FLAG_MEANINGS[flag.toLowerCase()];
  if (!meant || !flag) return undefined;
  if (meant === "-o <format>") {
    const at = argv.findIndex((w) => w === flag || w.startsWith(`${flag}=`));
    const value = argv[at]?.includes("=") ? argv[at]!.slice(flag.length + 1) : argv[at + 1];
    if (value && /^[a-z-]+$/i.test(value)) meant = `-o ${value.toLowerCase()}`;
  }
  return `Did you mean \`${meant}\`? (\`${flag}\` is \`${meant.split(" ")[0]}\` in pep)`;
}

/** An unknown flag that is part of the command's flags: `--evidence`, did you mean `--evidence-level`? */
async function flagsHoldingIt(
  failure: CommanderError,
  text: string,
  inv: Invocation,
  suggestion: string | undefined,
): Promise<string[]> {
  const flag = /unknown option '([^'=]+)/.exec(text)?.[1];
  if (failure.code !== "commander.unknownOption" || flag === undefined) return [];
  const { flagsContaining } = await import("./nearest-flag.js");
  const found = flagsContaining(flag, inv.defs.length === 1 ? inv.defs[0] : undefined, suggestion);
  if (found.length === 0 || (found.length === 1 && found[0] === suggestion)) return [];
  const list = found.map((f) => `\`${f}\``);
  return [`Did you mean ${list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} or ${list.at(-1)}`}?`];
}

/** `--fields` given no value: the fields the command's list can show. */
async function fieldsHint(failure: CommanderError, inv: Invocation): Promise<string[]> {
  if (failure.code !== "commander.optionMissingArgument" || !/--fields\b/.test(failure.message)) return [];
  const calls = inv.defs.length === 1 ? inv.defs[0]!.calls : undefined;
  // Loaded only here: a help or usage run need not build the endpoint table.
  const [{ ENDPOINTS }, { RESOURCES }] = await Promise.all([
    import("../api/endpoints.js"),
    import("../api/resources.js"),
  ]);
  const columns = calls ? RESOURCES[ENDPOINTS[calls].resource].csv : null;
  if (!columns) return ["--fields takes field names, comma-separated (a list command's columns)"];
  const fields = [...new Set(columns.map((c) => c.split(".")[0]!))];
  return [`--fields takes, comma-separated: ${fields.join(", ")}`];
}
