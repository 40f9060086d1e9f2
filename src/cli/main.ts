/**
 * `run(argv, deps)`: the program shell. Reads the command line once (`readInvocation`),
 * lets commander parse it, runs the one command asked for (`execute`), and turns every
 * failure into one message and one exit code (`report`). Nothing else decides an exit
 * code.
 */
import { CommanderError } from "commander";
import type { Deps } from "../core/context.js";
import { EXIT, UsageError } from "../core/errors.js";
import { processIO, type IO } from "../core/io.js";
import { execute } from "./execute.js";
import { readInvocation, type Invocation, parsed } from "./invocation.js";
import { buildProgram, checkHelpTarget, FAILED_COMMAND, globalsHelp } from "./program.js";
import { report } from "./report.js";
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
  const program = buildProgram(
    io,
    async (def, input, globals) => {
      exitCode = await execute(parsed(inv, def, input, globals, io.env), io, deps, ending);
    },
    { quietErrors: inv.machineErrors, defs: inv.defs, typedWords: inv.commandWords },
  );
  try {
    if (inv.helpGlobals) {
      io.stdout.write(globalsHelp(program));
      return EXIT.ok;
    }
    if (inv.helpTarget) checkHelpTarget(program, inv.helpTarget);
    await program.parseAsync(inv.words, { from: "user" });
    return exitCode;
  } catch (err) {
    if (err instanceof CommanderError) return commanderFailure(err, inv, io);
    return report(err, io, inv, { verbose: false, machine: inv.machineErrors });
  }
}

/** commander's own stops: help and version are a success; a parse error is a usage error. */
function commanderFailure(failure: CommanderError, inv: Invocation, io: IO): number {
  if (
    failure.code === "commander.helpDisplayed" ||
    failure.code === "commander.version" ||
    failure.code === "commander.help"
  )
    return EXIT.ok;
  // commander already printed "error: …"; point at help like gh does.
  const where = (failure as { [FAILED_COMMAND]?: string })[FAILED_COMMAND] ?? "pep";
  const help = `Run '${where} --help' for usage.`;
  if (inv.machineErrors) {
    const message = failure.message
      .replace(/^error: /, "")
      .replace(/\s*\n\s*/g, " ")
      .trim();
    return report(new UsageError(message, { hints: [help] }), io, inv, { verbose: false, machine: true });
  }
  if (failure.code !== "commander.executeSubCommandAsync") io.stderr.write(`${help}\n`);
  return EXIT.usage;
}
