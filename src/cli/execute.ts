import { loadCommand } from "../commands/loaders.js";
import { COMMANDS } from "../commands/registry.js";
import { DEFAULT_PROFILE } from "../config/profile.js";
import type { ConfigStore } from "../config/store.js";
import type { ResolvedConfig, SandboxSource } from "../config/config-types.js";
import type { Result } from "../core/command.js";
import type { Deps } from "../core/command-context.js";
import { EXIT, InterruptedError, PepError, UsageError } from "../core/errors.js";
import type { IO } from "../core/io.js";
import { createContext } from "./run-context.js";
import { chooseFormat } from "./format-choice.js";
import type { ParsedInvocation } from "./invocation.js";
import { deliver } from "./pipeline.js";
import { hintSandboxNames, type Prepared } from "./prepared.js";
import { report } from "./report.js";
import { isSetupMissing } from "./setup-missing.js";
import type { Ending } from "./signals.js";

/** Resources a run may have started, released whatever happens. */
interface Held {
  stopSandbox?: (() => Promise<void>) | undefined;
  /** The `--file` target's lock, released when the run ends. */
  releaseLock?: (() => void) | undefined;
  ctx?: ReturnType<typeof createContext> | undefined;
  /** Before the format is settled, -o and PEP_OUTPUT decide how failures are told. */
  machineErrors: boolean;
  /** The run answers from the library: a printed resume command says `--offline` too. */
  offline?: boolean;
}

/** Runs one parsed command; resolves to its exit code. */
export async function execute(
  inv: ParsedInvocation,
  io: IO,
  deps: Deps,
  ending: Ending,
  groupHelp?: () => string,
): Promise<number> {
  const held: Held = { machineErrors: inv.machineErrors };
  try {
    refuseCombinations(inv);
    const prepared = await finishingPartial(await prepare(inv, io, deps, ending, held));
    return await runAndDeliver(prepared, inv);
  } catch (err) {
    const near = held.ctx ? await (await import("./nearest-hint.js")).addNearestNames(inv, held.ctx, err) : false;
    const code = await fail(inv, io, ending, held, err, near);
    // `pep peptides` alone, stopped by a missing base URL or key: what the group offers.
    if (groupHelp && !held.machineErrors && isSetupMissing(err) && typedAlone(inv)) io.stderr.write(`\n${groupHelp()}`);
    return code;
  } finally {
    held.releaseLock?.();
    await held.ctx?.cleanup();
    await held.stopSandbox?.().catch(() => {});
  }
}

/** The group's default command, reached by typing the group alone (`pep peptides`). */
function typedAlone(inv: ParsedInvocation): boolean {
  return inv.def.isDefault === true && inv.commandWords.length === 1 && inv.def.path.length === 2;
}

/** Options that cannot go with this command: refused before anything is read or sent. */
function refuseCombinations(inv: ParsedInvocation): void {
  const { def, globals, input } = inv;
  const name = `pep ${def.path.join(" ")}`;
  const keyHints = ["Give the key in a file (--api-key-file <path>), PEP_API_KEY or the profile (`pep auth login`)."];
  if (def.stdioProtocol) {
    // Its standard input and output carry a protocol: no key from stdin, no --file.
    if (globals.apiKeyFile?.trim() === "-")
      throw new UsageError(`--api-key-file - cannot be used with ${name}: standard input carries the protocol`, {
        hints: keyHints,
      });
    if (globals.file !== undefined)
      throw new UsageError(`--file cannot be used with ${name}: results go to the client over standard output`);
  }
  if (globals.fields !== undefined && !def.list && !def.fields)
    throw new UsageError(`--fields chooses the columns of a list; ${name} does not print one`, {
      hints: [
        `Lists take it: ${COMMANDS.filter((d) => d.list || d.fields)
          .map((d) => `pep ${d.path.join(" ")}`)
          .join(", ")}. With -o json, --jq picks fields of anything.`,
      ],
    });
  if (globals.manifest === true && globals.file === undefined)
    throw new UsageError("--manifest goes with --file: it describes the file an export wrote", {
      hints: ["e.g. `pep studies export --file studies.csv --manifest`"],
    });
  if (def.printsText?.(input.opts)) {
    if (globals.jq !== undefined) throw new UsageError(`--jq: ${name} prints a page's address here, not JSON`);
    if (globals.file !== undefined)
      throw new UsageError(`--file: ${name} prints a page's address here, not data to export`, {
        hints: ["Redirect it to keep it: > page.txt"],
      });
  }
  if (globals.apiKeyFile?.trim() === "-" && input.args.includes("-"))
    throw new UsageError("--api-key-file - and ids from - both read standard input; give the key another way", {
      hints: keyHints,
    });
}

/**
 * Everything settled before the command runs: the profile is known, the sandbox is up,
 * the format is chosen, and `--file` and `--jq` are checked, all before any request.
 */
async function prepare(inv: ParsedInvocation, io: IO, deps: Deps, ending: Ending, held: Held): Promise<Prepared> {
  const startedAt = new Date();
  const { def, globals, profile } = inv;
  let storePromise: Promise<ConfigStore> | undefined;
  const store = () => (storePromise ??= import("../config/store.js").then((m) => m.openConfigStore(io.env)));
  let sandboxSource: SandboxSource | undefined;
  let resolved: Promise<ResolvedConfig> | undefined;
  const config = () =>
    (resolved ??= import("../config/resolve.js").then(async ({ resolveConfig }) =>
      resolveConfig(globals, io, await store(), { sandbox: sandboxSource }),
    ));
  const preflight = () => import("../config/preflight.js");
  // An unknown profile is refused before anything else is read or started (`pep mcp`
  // starts anyway and reports it to its client).
  if (!def.createsProfile && !def.reportsConfig && profile !== DEFAULT_PROFILE)
    await (await preflight()).checkProfile(profile, globals.profile, io.env, store);
  // An offline run the library cannot answer is refused before anything else starts
  // (`pep mcp` starts anyway: each tool says what the library cannot answer).
  const offline = await offlineRun(inv, store);
  held.offline = offline;
  if (inv.globals.maxAge !== undefined) {
    // Checked before the library is opened: a bad value says so even where there is none.
    (await import("../library/freshness.js")).parseDuration(inv.globals.maxAge, "--max-age");
    if (!offline && !["sql", "changes"].includes(inv.def.path.join(" ")))
      throw new UsageError(
        "--max-age says how old the local library may be: it goes with --offline, pep sql and pep changes",
        { hints: ["e.g. `pep --offline --max-age 7d studies list`"] },
      );
  }
  if (inv.globals.asOf !== undefined) {
    (await import("../library/as-of.js")).parseAsOf(inv.globals.asOf);
    // An answer as of a past sync is old by design: how old the library may be says nothing of it.
    if (inv.globals.maxAge !== undefined)
      throw new UsageError(
        "--max-age refuses a library synced too long ago, and --as-of answers as the library was at a past sync: they do not go together",
        {
          hints: [
            "check the library's freshness without --as-of: `pep sync --status`, or `pep --offline --max-age 7d …`",
          ],
        },
      );
    if (!offline)
      throw new UsageError(
        "--as-of reads the local library as it was at a sync: it goes with --offline (pep changes takes --from and --to)",
        { hints: ["e.g. `pep --offline --as-of 2026-03-01 studies export --file s.csv --manifest`"] },
      );
  }
  if (offline && !def.reportsConfig)
    (await import("../offline/refusals.js")).refuseOffline(def, inv.input.opts, globals);
  // Started before anything reads the config (the output format may), so every read sees it.
  // `--offline --sandbox` reads the sandbox's library and starts none (config and the like still see it).
  if (inv.sandbox && (!offline || def.reportsConfig)) {
    const { startSandbox, SANDBOX_KEYS } = await import("../sandbox/index.js");
    const sb = await startSandbox({ port: 0, host: "127.0.0.1", ...(deps.sandbox ?? {}) });
    held.stopSandbox = () => sb.close();
    sandboxSource = { baseUrl: sb.baseUrl, apiKey: SANDBOX_KEYS.full };
  }
  // `auth login` with no base URL stops here, before the key is read.
  if (def.needsBaseUrl)
    await (await preflight()).checkBaseUrlKnown(profile, globals.baseUrl, io.env, store, sandboxSource);
  // A --file that cannot be written is a usage error, found before its name is judged.
  const file = globals.file === undefined ? undefined : pathFrom(io, globals.file);
  if (file !== undefined) await (await import("../output/file.js")).checkFileTarget(file);
  if (file !== undefined && globals.manifest === true)
    await (await import("../output/manifest.js")).checkManifestTarget(file);
  const chosen = await chooseFormat(def, globals, io, () =>
    def.offline ? Promise.resolve(undefined) : config().then((c) => c.output),
  );
  const machineErrors =
    (chosen.explicit === true && isJson(chosen.format)) ||
    (file !== undefined && (inv.machineErrors || (!def.offline && isJson((await config()).output))));
  held.machineErrors = machineErrors;
  const ctx = createContext({ io, globals, profile, fields: inv.fields, deps, config, store, offline });
  held.ctx = ctx;
  if (chosen.warning) ctx.notice(chosen.warning);
  if (file !== undefined) held.releaseLock = await lockFileTarget(file, ending, ctx.notice);
  if (globals.jq !== undefined) await (await import("../output/jq.js")).checkJq(globals.jq);
  return { inv, io, ending, ctx, format: chosen.format, machineErrors, config, file, startedAt, offline };
}

/**
 * Whether the run answers from the library: `--offline` or PEP_OFFLINE, else the
 * profile's `offline`. Commands that need no API are never offline.
 */
async function offlineRun(inv: ParsedInvocation, store: () => Promise<ConfigStore>): Promise<boolean> {
  if (inv.def.offline) return false;
  if (inv.offlineSwitch !== undefined) return inv.offlineSwitch;
  if ((await store()).profile(inv.profile).offline !== true) return false;
  // The profile's `offline` is for the commands the library serves: `pep sync`, `auth`,
  // `health` and the like still run online under it (the flag and PEP_OFFLINE refuse them).
  return inv.def.reportsConfig === true || (await import("../offline/refusals.js")).servedOffline(inv.def);
}

const isJson = (f: string | undefined) => f === "json" || f === "ndjson";

/**
 * One pep writes a `--file` target at a time: its lock is taken before any request
 * (a live holder: exit 1, target_busy) and let go when the run ends, or at once on a
 * second signal. A device or pipe written in place takes none.
 */
async function lockFileTarget(file: string, ending: Ending, notice: (l: string) => void): Promise<() => void> {
  const { stat } = await import("node:fs/promises");
  // What the path names in the end: `/dev/stdout` is a link to a device, written in place.
  const st = await stat(file).catch(() => undefined);
  if (st && !st.isFile()) return () => {};
  const { lockTarget } = await import("../output/file-claim.js");
  const lock = lockTarget(file, notice);
  const forget = ending.onHardExit(() => lock.release());
  return () => {
    forget();
    lock.release();
  };
}

/**
 * A `--file` list export that an earlier run cut short goes on from its partial, when
 * the partial is trusted, made by the same content key, young enough, and its last page
 * still holds what it held (cli/partial-run.ts); otherwise it starts over, saying why.
 */
async function finishingPartial(p: Prepared): Promise<Prepared> {
  const listing = p.inv.def.list === true || p.inv.def.fields === true;
  if (p.file === undefined || !listing || p.format === "table") return p;
  const run = await import("./partial-run.js");
  const found = await run.partialToFinish(p, p.file);
  if (!found) return p;
  const moved = await run.stillLinesUp(p, p.inv, found.partial);
  if (moved !== undefined) {
    run.startOver(p, moved);
    return p;
  }
  const { partialPaths } = await import("../output/partial.js");
  const n = found.partial.items;
  p.ctx.notice(
    `going on from ${partialPaths(p.inv.globals.file ?? p.file).data} (${n} item${n === 1 ? "" : "s"} kept, ${run.ageText(Date.now() - Date.parse(found.partial.created_at))} ago)`,
  );
  return { ...p, inv: found.inv, partial: found.partial };
}

/** Runs the command and delivers its result; a stored cursor the API refuses starts the list over. */
async function runAndDeliver(p: Prepared, original: ParsedInvocation): Promise<number> {
  try {
    return await deliver(p, await runCommand(p));
  } catch (err) {
    const { StoredCursorRefused, startOver } = await import("./partial-run.js");
    if (!(err instanceof StoredCursorRefused)) throw err;
    const status = (err.cause as { status?: number }).status;
    startOver(p, `the API refused the stored cursor (HTTP ${status})`);
    const fresh: Prepared = { ...p, inv: original, partial: undefined };
    return deliver(fresh, await runCommand(fresh));
  }
}

/** The command's own code, loaded now; it returns data, never prints. */
async function runCommand(p: Prepared): Promise<Result> {
  const mod = await loadCommand(p.inv.def);
  const result = await mod.run(p.inv.input, p.ctx);
  if (p.io.signal.aborted) throw new InterruptedError();
  // Commands that print text with no request are told here; those after one, before it.
  if (p.inv.globals.jq !== undefined && (result.kind === "text" || result.kind === "none"))
    throw noJson(`pep ${p.inv.def.path.join(" ")}`);
  return result;
}

const noJson = (name: string) => new UsageError(`--jq: ${name} does not print JSON`);

/** Tells a failure of the run and returns its exit code. */
async function fail(
  inv: ParsedInvocation,
  io: IO,
  ending: Ending,
  held: Held,
  err: unknown,
  named = false,
): Promise<number> {
  const e =
    io.signal.aborted && !(err instanceof PepError && err.exitCode !== EXIT.unexpected) ? new InterruptedError() : err;
  // The nearest names say more than the general word on the sandbox's names.
  if (inv.sandbox && !named) hintSandboxNames(e);
  // A --file export cut short may have kept what it fetched: the hint says where.
  const partial =
    inv.globals.file !== undefined && typeof err === "object" && err !== null
      ? (await import("./partial-run.js")).keptPartials.get(err)
      : undefined;
  return report(e, io, inv, {
    machine: held.machineErrors,
    verbose: inv.globals.verbose === true,
    facts: { command: inv.def.path, file: inv.globals.file, partial, offline: held.offline === true },
    endedBy: ending.signal,
    profile: inv.profile,
  });
}

function pathFrom(io: IO, p: string): string {
  if (p.trim() === "") throw new UsageError("--file needs a path");
  return p.startsWith("/") ? p : `${io.cwd.replace(/\/+$/, "")}/${p}`;
}
