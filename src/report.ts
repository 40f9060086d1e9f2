/**
 * How a failure reaches the person or the script: one message, its hints, the command
 * that resumes a cut-short list, and the exit code. Every failure of a run goes through
 * `report()`.
 */
import { ApiError, EXIT, exitCodeFor, PepError } from "./errors.js";
import type { IO } from "./io.js";
import { cleanBlock, cleanLine, inertJson } from "./output/sanitize.js";
import { resumeLines, type RunFacts } from "./resume.js";

export interface ReportOptions {
  /** `--verbose`: a stack trace for a failure that is a bug. */
  verbose: boolean;
  /** An explicit machine output format (json, ndjson) is in force. */
  machine: boolean;
  /** What the run was, for the resume line. */
  facts?: RunFacts;
  /** The signal that ended the run, when one did. */
  endedBy?: NodeJS.Signals | undefined;
  /** The id of a batch that this failure belongs to (`error: <id>: <message>`). */
  subject?: string | undefined;
}

/** Errors of writing stdout or a --file target that the machine, not pep, is behind. */
const OUTPUT_FAILURES = new Set(["ENOSPC", "EDQUOT", "EFBIG", "EIO", "EROFS", "EACCES", "EPERM", "EBADF"]);

function isSystemError(err: unknown): err is NodeJS.ErrnoException & { code: string } {
  return (
    err instanceof Error &&
    typeof (err as NodeJS.ErrnoException).code === "string" &&
    typeof (err as NodeJS.ErrnoException).syscall === "string"
  );
}

/** Prints a failure as one readable line (plus hints) and returns its exit code. */
export function report(err: unknown, io: IO, argv: readonly string[], options: ReportOptions): number {
  const { verbose, machine, facts = {}, endedBy, subject } = options;
  const code = exitCodeFor(err);
  const lines: string[] = [];
  const about = subject === undefined ? "" : `${cleanLine(subject)}: `;
  // API text and what the user typed are cleaned like any printed text: no escape
  // sequences, control characters or bidi overrides, all on one line.
  if (err instanceof ApiError) {
    if (machine && err.envelope)
      lines.push(inertJson(JSON.stringify(subject === undefined ? err.envelope : { ...err.envelope, id: subject })));
    else lines.push(`error: ${about}${cleanLine(err.describe())}`);
    // A command that knows the endpoint's scope and the key's origin explains it in hints.
    for (const h of err.hints) lines.push(h.startsWith("hint:") ? h : `hint: ${h}`);
    if (err.hints.length === 0 && err.status === 401)
      lines.push(
        "hint: the key is missing or not accepted; run `pep auth status`, or `pep auth login` to store a new one",
      );
    if (err.hints.length === 0 && err.status === 403)
      lines.push(
        "hint: the key lacks the scope this endpoint needs; create a key with that scope and run `pep auth login`",
      );
  } else if (err instanceof PepError) {
    if (err.exitCode !== EXIT.interrupted) lines.push(`error: ${about}${cleanLine(err.describe())}`);
    else lines.push(endedBy === undefined || endedBy === "SIGINT" ? "interrupted" : `interrupted (${endedBy})`);
    for (const h of err.hints) lines.push(h.startsWith("hint:") || h.startsWith("  ") ? h : `hint: ${h}`);
  } else if (isSystemError(err) && OUTPUT_FAILURES.has(err.code)) {
    // The disk or device refused the output: not a bug in pep, so no request to report it.
    lines.push(`error: cannot write the output: ${cleanLine(err.message)}`);
  } else {
    const message = err instanceof Error ? err.message : String(err);
    lines.push(`error: ${about}unexpected failure: ${cleanLine(message)}`);
    lines.push("This is a bug in pep; please report it with the command you ran (use --verbose for details).");
  }
  lines.push(...resumeLines(err, argv, facts));
  if (verbose && err instanceof Error && err.stack && !(err instanceof PepError && err.exitCode !== EXIT.unexpected))
    lines.push(cleanBlock(err.stack));
  io.stderr.write(`${lines.join("\n")}\n`);
  return code;
}
