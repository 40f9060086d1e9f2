/**
 * What the steps of a run share once it is prepared (cli/execute.ts), and what they both
 * say about the sandbox.
 */
import type { OutputFormat } from "../api/enums.js";
import type { ResolvedConfig } from "../config/config-types.js";
import { ApiError } from "../core/errors.js";
import type { IO } from "../core/io.js";
import type { RunContext } from "./run-context.js";
import type { ParsedInvocation } from "./invocation.js";
import type { PartialState } from "../output/partial.js";
import type { Ending } from "./signals.js";

/** What the steps after `prepare` share. */
export interface Prepared {
  readonly inv: ParsedInvocation;
  readonly io: IO;
  readonly ending: Ending;
  readonly ctx: RunContext;
  readonly format: OutputFormat;
  /** Failures are JSON objects: the user chose a JSON format (-o, PEP_OUTPUT, the profile). */
  readonly machineErrors: boolean;
  /** The run's settings (flags > environment > profile; the sandbox above all). */
  config(): Promise<ResolvedConfig>;
  /** The absolute path of `--file`, when given. */
  readonly file: string | undefined;
  /** When the run started (a manifest's `started_at`). */
  readonly startedAt: Date;
  /** Answers come from the library (--offline, PEP_OFFLINE or the profile's `offline`). */
  readonly offline: boolean;
  /** The partial export this run finishes (the same command, cut short before). */
  readonly partial?: PartialState | undefined;
}

/**
 * A 404 from the built-in sandbox is most often a real name (`bpc-157`) asked of data
 * that is synthetic: say so, and how to see the names it has.
 */
export function hintSandboxNames(err: unknown): void {
  if (!(err instanceof ApiError) || err.status !== 404) return;
  err.hints.push(
    "the sandbox's data is synthetic: real peptide, study and vendor names are not in it; list its names with `pep --sandbox peptides list` (or studies list, vendors list)",
  );
}

/** Whether CSV/TSV cells are guarded: the flag or the profile's `formula_guard` (config read only then). */
export async function formulaGuardOf(p: Prepared): Promise<boolean> {
  if (p.format !== "csv" && p.format !== "tsv") return true;
  if (p.inv.globals.formulaGuard === false) return false;
  return p.inv.def.offline ? true : (await p.config()).formulaGuard;
}
