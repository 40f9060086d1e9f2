/**
 * `run(argv, deps)`: the program shell. Parses the command line, builds the context,
 * loads and runs the one command asked for, hands its result to the output layer, and
 * turns every failure into one message and one exit code. Nothing else decides an exit
 * code.
 */
import { CommanderError } from "commander";
import { constants } from "node:os";
import type { OutputFormat } from "../api/enums.js";
import { splitFields } from "../api/globals.js";
import type { CommandDef, CommandInput, Result } from "../core/command.js";
import { DEFAULT_PROFILE, profileName } from "../config/profile.js";
import type { ResolvedConfig, SandboxSource } from "../config/types.js";
import { createContext, type Deps, type GlobalOptions } from "./context.js";
import { ApiError, EXIT, InterruptedError, PepError, UsageError } from "../core/errors.js";
import { colorEnabled, processIO, type IO, type Pager } from "../core/io.js";
import { buildProgram, checkHelpTarget, definitionsFor, FAILED_COMMAND, globalsHelp } from "./program.js";
import { report } from "./report.js";
import { chooseFormat, explicitMachine, outputWord } from "./format-choice.js";

export { resumeCommand } from "./resume.js";

const osSignals: Partial<Record<NodeJS.Signals, number>> = constants.signals;

/** Drops a --file temp file when a second Ctrl-C exits at once, before the run unwinds. */
const discardOnHardExit = new Set<() => void>();

/**
 * The command that `argv` names, as its words ("peptides list"), or "pep" when the words
 * name none or several (help, a group alone, a typo). bin/code-cache.js keys its saves on it.
 */
export function commandOf(argv: readonly string[]): string {
  const defs = definitionsFor(argv);
  return defs.length === 1 ? defs[0]!.path.join(" ") : "pep";
}

/** Runs `pep` with the words after the executable name; resolves to the exit code. */
export async function run(argv: readonly string[], deps: Deps = {}): Promise<number> {
  const interrupt = new AbortController();
  // Per run, not per module: runs in one process (tests, embedders) never see another's signal.
  const ended: Ended = { by: undefined };
  let io: IO;
  let detach = () => {};
  if (deps.io) {
    io = deps.io;
  } else {
    io = processIO(interrupt.signal);
    detach = attachProcessSignals(interrupt, io, ended);
  }
  let exitCode: number = EXIT.ok;
  let failure: unknown;
  const machine = explicitMachine(outputWord(argv), io.env);
  const program = buildProgram(
    io,
    async (def, input, globals) => {
      exitCode = await execute(def, input, globals, io, argv, deps, ended);
    },
    { quietErrors: machine, defs: definitionsFor(argv) },
  );
  try {
    // `pep help peptides list` is `pep peptides list --help` (commander's help takes one word).
    const words = argv[0] === "help" && argv.length > 1 ? [...argv.slice(1), "--help"] : [...argv];
    if (argv[0] === "help" && argv[1] === "globals" && argv.length === 2) {
      io.stdout.write(globalsHelp(program));
      return EXIT.ok;
    }
    if (argv[0] === "help") checkHelpTarget(program, argv.slice(1));
    await program.parseAsync(words, { from: "user" });
  } catch (err) {
    failure = err;
  } finally {
    detach();
  }
  if (failure === undefined) return exitCode === EXIT.interrupted && !deps.io ? interruptedExit(ended) : exitCode;
  if (failure instanceof CommanderError) {
    if (
      failure.code === "commander.helpDisplayed" ||
      failure.code === "commander.version" ||
      failure.code === "commander.help"
    )
      return EXIT.ok;
    // commander already printed "error: …"; point at help like gh does.
    const where = (failure as { [FAILED_COMMAND]?: string })[FAILED_COMMAND] ?? "pep";
    const help = `Run '${where} --help' for usage.`;
    if (machine) {
      const message = failure.message
        .replace(/^error: /, "")
        .replace(/\s*\n\s*/g, " ")
        .trim();
      return report(new UsageError(message, { hints: [help] }), io, argv, { verbose: false, machine });
    }
    if (failure.code !== "commander.executeSubCommandAsync") io.stderr.write(`${help}\n`);
    return EXIT.usage;
  }
  return report(failure, io, argv, { verbose: false, machine });
}

/** Words for what a run wrote: "1 study", "40 peptides", "3 items". */
const NOUNS: Partial<Record<string, readonly [string, string]>> = {
  peptide: ["peptide", "peptides"],
  "peptide-profile": ["peptide", "peptides"],
  "study-detail": ["study", "studies"],
  "vendor-detail": ["vendor", "vendors"],
  study: ["study", "studies"],
  vendor: ["vendor", "vendors"],
  offer: ["offer", "offers"],
  product: ["product", "products"],
  category: ["category", "categories"],
  "research-area": ["research area", "research areas"],
};

function countOf(n: number, result: Result): string {
  const [one, many] = (result.kind === "list" || result.kind === "item" || result.kind === "batch"
    ? NOUNS[result.resource]
    : undefined) ?? ["item", "items"];
  return `${n} ${n === 1 ? one : many}`;
}

/** A command whose stdin and stdout carry a protocol takes no key from stdin and no --file. */
function refuseStdio(def: CommandDef, globals: GlobalOptions): void {
  const name = `pep ${def.path.join(" ")}`;
  if (globals.apiKeyFile?.trim() === "-") {
    throw new UsageError(`--api-key-file - cannot be used with ${name}: standard input carries the protocol`, {
      hints: ["Give the key in a file (--api-key-file <path>), PEP_API_KEY or the profile (`pep auth login`)."],
    });
  }
  if (globals.file !== undefined)
    throw new UsageError(`--file cannot be used with ${name}: results go to the client over standard output`);
}

/** `--fields` chooses a list's fields and columns: a command that shows one thing refuses it. */
async function refuseFields(def: CommandDef): Promise<never> {
  const { COMMANDS } = await import("../commands/registry.js");
  const lists = COMMANDS.filter((d) => d.list || d.fields).map((d) => d.path.join(" "));
  throw new UsageError(`--fields chooses the columns of a list; pep ${def.path.join(" ")} does not print one`, {
    hints: [`Lists take it: ${lists.map((l) => `pep ${l}`).join(", ")}. With -o json, --jq picks fields of anything.`],
  });
}

/**
 * A 404 from the built-in sandbox is most often a real name (`bpc-157`) asked of data
 * that is synthetic: say so, and how to see the names it has.
 */
function hintSandboxNames(err: unknown): void {
  if (!(err instanceof ApiError) || err.status !== 404) return;
  err.hints.push(
    "the sandbox's data is synthetic: real peptide, study and vendor names are not in it; list its names with `pep --sandbox peptides list` (or studies list, vendors list)",
  );
}

/** Runs one command: context, sandbox, the command's module, the output layer. */
async function execute(
  def: CommandDef,
  input: CommandInput,
  globals: GlobalOptions,
  io: IO,
  argv: readonly string[],
  deps: Deps,
  ended: Ended,
): Promise<number> {
  const color = colorEnabled(io.env, io.stdoutIsTTY, globals.color);
  const fields = splitFields(globals.fields);
  const sandbox = !def.offline && (globals.sandbox === true || truthy(io.env.PEP_SANDBOX));
  if (def.stdioProtocol) refuseStdio(def, globals);
  if (globals.fields !== undefined && !def.list && !def.fields) await refuseFields(def);
  let resolved: Promise<ResolvedConfig> | undefined;
  let storePromise: Promise<import("../config/store.js").ConfigStore> | undefined;
  const store = () => (storePromise ??= import("../config/store.js").then((m) => m.openConfigStore(io.env)));
  // The sandbox, once started, is the top source of the config (its URL and key).
  let sandboxSource: SandboxSource | undefined;
  const config = () =>
    (resolved ??= import("../config/resolve.js").then(async ({ resolveConfig }) =>
      resolveConfig(globals, io, await store(), { sandbox: sandboxSource }),
    ));

  let format: OutputFormat | undefined;
  // Failures are JSON objects when the user chose a JSON format (-o, PEP_OUTPUT, the
  // profile), readable lines otherwise, also on a pipe. Until the format is settled, -o
  // and PEP_OUTPUT decide.
  let machineErrors = explicitMachine(globals.output, io.env);
  let ctx: ReturnType<typeof createContext> | undefined;
  let stopSandbox: (() => Promise<void>) | undefined;
  let fileTarget: import("../output/file.js").AtomicFile | undefined;
  let discard: (() => void) | undefined;
  let pager: Pager | undefined;
  let held: import("node:stream").PassThrough | undefined;
  const profile = profileName(globals.profile, io.env);
  try {
    // An unknown profile is refused before anything else is read or started.
    if (!def.createsProfile && profile !== DEFAULT_PROFILE)
      await (await import("../config/preflight.js")).checkProfile(profile, globals.profile, io.env, store);
    // Started before anything reads the config (the output format may), so that every
    // read sees it.
    if (sandbox) {
      const { startSandbox, SANDBOX_KEYS } = await import("../sandbox/index.js");
      const sb = await startSandbox({ port: 0, host: "127.0.0.1", ...(deps.sandbox ?? {}) });
      stopSandbox = () => sb.close();
      sandboxSource = { baseUrl: sb.baseUrl, apiKey: SANDBOX_KEYS.full };
    }
    // `auth login` with no base URL stops here, before the key is read (--api-key-file is read with the config).
    if (def.needsBaseUrl)
      await (await import("../config/preflight.js")).checkBaseUrlKnown(
        profile,
        globals.baseUrl,
        io.env,
        store,
        sandboxSource,
      );
    const chosen = await chooseFormat(def, globals, io, () =>
      def.offline ? Promise.resolve(undefined) : config().then((c) => c.output),
    );
    format = chosen.format;
    machineErrors = chosen.explicit === true && (format === "json" || format === "ndjson");
    ctx = createContext({ io, globals, profile, fields, deps, config, store });
    if (chosen.warning) ctx.notice(chosen.warning);
    if (stopSandbox && sandboxSource) {
      ctx.onCleanup(stopSandbox);
      stopSandbox = undefined;
    }
    // A --file that cannot be written is a usage error, found before any request.
    if (globals.file !== undefined)
      await (await import("../output/file.js")).checkFileTarget(pathFrom(io, globals.file));
    // An invalid --jq expression is a usage error, found before any request.
    let jq: typeof import("../output/jq.js") | undefined;
    if (globals.jq !== undefined) {
      jq = await import("../output/jq.js");
      await jq.checkJq(globals.jq);
    }
    // Ids from standard input (`-`) and the key from standard input cannot share it.
    if (globals.apiKeyFile?.trim() === "-" && input.args.includes("-"))
      throw new UsageError("--api-key-file - and ids from - both read standard input; give the key another way", {
        hints: ["Give the key in a file (--api-key-file <path>), PEP_API_KEY or the profile (`pep auth login`)."],
      });
    const mod = await def.load();
    const result: Result = await mod.run(input, ctx);
    if (io.signal.aborted) throw new InterruptedError();

    const { render } = await import("../output/render.js");
    let out = io.stdout;
    let outIsTTY = io.stdoutIsTTY;
    if (globals.file !== undefined && result.kind !== "none") {
      const { openAtomicFile } = await import("../output/file.js");
      const target = await openAtomicFile(pathFrom(io, globals.file));
      fileTarget = target;
      discard = () => target.discardSync();
      discardOnHardExit.add(discard);
      out = target.stream;
      outIsTTY = false;
    }
    let stderr = io.stderr;
    let signal = io.signal;
    if (outIsTTY && fileTarget === undefined && io.canPage && globals.pager !== false && result.kind !== "none") {
      pager = await openPager(io, def.offline ? undefined : (await config()).pager, ctx);
      if (pager) {
        // Notices wait until the pager is gone (they would land inside its screen); no spinner.
        ctx.waits.paging();
        held = new (await import("node:stream")).PassThrough();
        stderr = held;
        out = pager.stream;
        signal = AbortSignal.any([io.signal, pager.signal]);
      }
    }
    let filtered: Awaited<ReturnType<typeof import("../output/jq.js").jqStream>> | undefined;
    if (jq && globals.jq !== undefined) {
      if (result.kind === "text" || result.kind === "none")
        throw new UsageError(`--jq: pep ${def.path.join(" ")} does not print JSON`);
      filtered = await jq.jqStream(out, {
        expr: globals.jq,
        raw: globals.jqRaw === true,
        perItem: format === "ndjson",
        // jq's output is the API's text: on a terminal, without its control sequences.
        terminal: outIsTTY,
      });
      out = filtered.stream;
      outIsTTY = false;
    }
    // A batch's failed ids are told as they come, in the order of the ids; the run goes on
    // and ends with the first one's exit code.
    let batchExit: number | undefined;
    const machine = machineErrors;
    const onFailure = (id: string, err: unknown) => {
      if (sandbox) hintSandboxNames(err);
      const code = report(err, io, argv, { verbose: globals.verbose === true, machine, subject: id, profile });
      batchExit ??= code;
    };
    const written = await render(result, {
      format,
      out,
      outIsTTY,
      columns: io.columns,
      // FORCE_COLOR colours a pipe too (colorEnabled); a --file never gets colour codes.
      // Links stay terminal-only: a pipe's reader may not understand OSC 8, nor every pager.
      color: color && fileTarget === undefined && filtered === undefined,
      hyperlinks: outIsTTY && color && pager === undefined,
      fields: fields?.length ? fields : undefined,
      stderr,
      stderrIsTTY: io.stderrIsTTY,
      paging: pager !== undefined,
      quiet: globals.quiet === true,
      signal,
      stderrColor: colorEnabled(io.env, io.stderrIsTTY, globals.color),
      env: io.env,
      waits: ctx.waits,
      onFailure,
    });
    await filtered?.finish();
    if (io.signal.aborted) throw new InterruptedError();
    await closePager(pager, held, io);
    pager = undefined;
    if (fileTarget) {
      await fileTarget.commit();
      fileTarget = undefined;
      // On a terminal, a person is told where the output went (a script knows already).
      if (io.stderrIsTTY && globals.file !== undefined && result.kind !== "none") {
        ctx.notice(`wrote ${countOf(written, result)} to ${globals.file}`);
      }
    }
    if (batchExit !== undefined) return batchExit;
    return result.kind === "none" && result.exitCode !== undefined ? result.exitCode : EXIT.ok;
  } catch (err) {
    if (fileTarget) await fileTarget.abort().catch(() => {});
    // Quitting the pager (q) ends the run: quietly, with what was read.
    if (pager?.closed && !io.signal.aborted) {
      await closePager(pager, held, io);
      return EXIT.ok;
    }
    await closePager(pager, held, io);
    const e =
      io.signal.aborted && !(err instanceof PepError && err.exitCode !== EXIT.unexpected)
        ? new InterruptedError()
        : err;
    if (sandbox) hintSandboxNames(e);
    return report(e, io, argv, {
      machine: machineErrors,
      verbose: globals.verbose === true,
      facts: { command: def.path, file: globals.file },
      endedBy: ended.by,
      profile,
    });
  } finally {
    if (discard) discardOnHardExit.delete(discard);
    await ctx?.cleanup();
    await stopSandbox?.().catch(() => {});
  }
}

/** The pager for this run, or undefined (none chosen, or it cannot be started: said on stderr). */
async function openPager(
  io: IO,
  configured: string | undefined,
  ctx: { notice(line: string): void },
): Promise<Pager | undefined> {
  const { pagerCommand, startPager } = await import("../core/io.js");
  const chosen = pagerCommand(io.env, configured);
  if (!chosen) return undefined;
  const pager = await startPager(chosen.command, io.env);
  if (!pager)
    ctx.notice(`warning: cannot run the pager "${chosen.command}" (from ${chosen.where}); printing without it`);
  return pager;
}

/** Ends the pager's input and waits for the user to quit it; then the held notices go out. */
async function closePager(
  pager: Pager | undefined,
  held: import("node:stream").PassThrough | undefined,
  io: IO,
): Promise<void> {
  if (!pager) return;
  if (!pager.closed) pager.stream.end();
  await pager.exited;
  held?.end();
  const text = held?.read() as Buffer | string | null | undefined;
  if (text) io.stderr.write(text);
}

function pathFrom(io: IO, p: string): string {
  if (p.trim() === "") throw new UsageError("--file needs a path");
  return p.startsWith("/") ? p : `${io.cwd.replace(/\/+$/, "")}/${p}`;
}

function truthy(v: string | undefined): boolean {
  return v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
}

/**
 * The signals that end a run: each aborts it, so a --file temp file is removed and the
 * target left as it was, and the run exits 128 + the signal's number (130 for Ctrl-C,
 * 129 when the terminal hangs up, 131 for Ctrl-\\, 143 for `kill`).
 */
const ENDING_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGQUIT"] as const;

/** The signal that ended the run, when one did. */
interface Ended {
  by: NodeJS.Signals | undefined;
}

/** 128 + the number of the signal that ended the run; 130 when none is known. */
function interruptedExit(ended: Ended): number {
  const n = ended.by === undefined ? undefined : osSignals[ended.by];
  return n === undefined ? EXIT.interrupted : 128 + n;
}

/**
 * A signal aborts the run; a second one exits at once. A closed stdout ends the run
 * quietly; a closed stderr (`pep -v 2>&1 | head -1`, a hung-up terminal) only loses what
 * was still to be said there, and the run ends with the code it earns.
 */
function attachProcessSignals(controller: AbortController, io: IO, ended: Ended): () => void {
  let count = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    count++;
    if (count > 1) {
      for (const fn of discardOnHardExit) fn();
      process.exit(interruptedExit(ended));
    }
    ended.by = signal;
    controller.abort(new InterruptedError());
  };
  const onPipeError = (e: NodeJS.ErrnoException) => {
    if (e.code === "EPIPE") {
      // The reader went away (`pep … | head`): stop fetching and exit without noise.
      process.exit(EXIT.ok);
    }
  };
  // Nothing more can be said on a stderr that failed; the run goes on without it.
  const onStderrError = () => {};
  for (const s of ENDING_SIGNALS) process.on(s, onSignal);
  io.stdout.on("error", onPipeError);
  io.stderr.on("error", onStderrError);
  return () => {
    // An interrupted run keeps its handlers until the process exits: a second signal
    // landing while it unwinds must still exit at once, not kill it by the signal's default.
    if (count > 0) return;
    for (const s of ENDING_SIGNALS) process.off(s, onSignal);
  };
}
