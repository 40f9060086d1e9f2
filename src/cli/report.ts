/**
 * How a failure reaches the person or the script: one message, its hints, the command
 * that resumes a cut-short list, and the exit code. Every failure of a run goes through
 * `report()`.
 */
import {
  ApiError,
  type ApiErrorBody,
  AuthError,
  ConfigError,
  EXIT,
  exitCodeFor,
  InterruptedError,
  LibraryError,
  NetworkError,
  NoPageError,
  OutputError,
  outputReasonOf,
  PaginationLoopError,
  PepError,
  ResponseError,
  UsageError,
} from "../core/errors.js";
import { constants as osConstants } from "node:os";
import { withProfile } from "../config/profile.js";
import { hideUrlCredentials } from "../core/credentials.js";
import type { IO } from "../core/io.js";
import { cleanBlock, cleanId, cleanLine, inertJson } from "../core/sanitize.js";
import { type Resume, resumeOf, type RunFacts, type RunWords } from "./resume.js";

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
  /** The profile in use: every `pep auth …` or `pep config …` a hint suggests names it. */
  profile?: string | undefined;
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

/** A failure as both forms tell it. */
interface Told {
  exitCode: number;
  /** A stable word for scripts: the API's error code, or pep's kind of failure. */
  code: string;
  /** The error line's text (no `error: `), or "interrupted". */
  message: string;
  /** Advice, without a `hint:` prefix. */
  hints: string[];
  resume: Resume;
  /** The API's envelope error fields, when there was one. */
  api?: ApiErrorBody | undefined;
  status?: number | undefined;
  /** Printed last: the bug report request, a stack under --verbose. */
  tail: string[];
}

/** pep's own failure kinds, for `error.code` when the API gave none. */
function kindOf(err: unknown): string {
  if (err instanceof InterruptedError) return "interrupted";
  if (err instanceof LibraryError) return err.code;
  if (err instanceof UsageError) return "usage_error";
  if (err instanceof ConfigError) return "config_error";
  if (err instanceof AuthError) return "auth_error";
  if (err instanceof NetworkError) return err.kind === "timeout" ? "timeout" : "network_error";
  if (err instanceof ResponseError) return "bad_response";
  if (err instanceof PaginationLoopError) return "pagination_loop";
  if (err instanceof OutputError) return err.reason ?? "output_error";
  if (err instanceof NoPageError) return "no_page";
  if (err instanceof ApiError) return `http_${err.status}`;
  if (err instanceof PepError) return "error";
  if (isSystemError(err) && OUTPUT_FAILURES.has(err.code)) return outputReasonOf(err.code) ?? "output_error";
  return "unexpected";
}

/** The exit code, as the process ends with it: a signal's 128 + its number, not the generic 130. */
function exitCodeOf(err: unknown, endedBy: NodeJS.Signals | undefined): number {
  const signal = endedBy === undefined ? undefined : osConstants.signals[endedBy];
  return err instanceof InterruptedError && signal !== undefined ? 128 + signal : exitCodeFor(err);
}

const bare = (h: string) => h.replace(/^hint: /, "");

function tell(err: unknown, words: RunWords, options: ReportOptions): Told {
  const { verbose, facts = {}, endedBy } = options;
  const told: Told = {
    exitCode: exitCodeOf(err, endedBy),
    code: kindOf(err),
    message: "",
    hints: [],
    resume: resumeOf(err, words, facts),
    tail: [],
  };
  // API text and what the user typed are cleaned like any printed text: no escape
  // sequences, control characters or bidi overrides, all on one line.
  if (err instanceof ApiError) {
    told.message = cleanLine(err.describe());
    told.api = err.envelope?.error;
    told.status = err.status;
    if (err.code) told.code = err.code;
    // A command that knows the endpoint's scope and the key's origin explains it in hints.
    told.hints.push(...err.hints.map(bare));
    if (err.hints.length === 0 && err.status === 401)
      told.hints.push(
        "the key is missing or not accepted; run `pep auth status`, or `pep auth login` to store a new one",
      );
    if (err.hints.length === 0 && err.status === 403)
      told.hints.push(
        "the key lacks the scope this endpoint needs; create a key with that scope and run `pep auth login`",
      );
  } else if (err instanceof PepError) {
    told.message =
      err.exitCode !== EXIT.interrupted
        ? cleanLine(err.describe())
        : endedBy === undefined || endedBy === "SIGINT"
          ? "interrupted"
          : `interrupted (${endedBy})`;
    told.hints.push(...err.hints.map((h) => (h.startsWith("  ") ? h : bare(h))));
  } else if (isSystemError(err) && OUTPUT_FAILURES.has(err.code)) {
    // The disk or device refused the output: not a bug in pep, so no request to report it.
    told.message = `cannot write the output: ${cleanLine(err.message)}`;
  } else {
    const message = err instanceof Error ? err.message : String(err);
    told.message = `unexpected failure: ${cleanLine(message)}`;
    told.tail.push("This is a bug in pep; please report it with the command you ran (use --verbose for details).");
  }
  if (verbose && err instanceof Error && err.stack && !(err instanceof PepError && err.exitCode !== EXIT.unexpected))
    told.tail.push(cleanBlock(err.stack));
  // What pep says itself never repeats a password given in a URL (a proxy's, quoted by
  // an error of the network layer or in a stack trace); the API's own text is its own.
  if (!(err instanceof ApiError)) told.message = hideUrlCredentials(told.message);
  told.hints = told.hints.map(hideUrlCredentials);
  told.tail = told.tail.map(hideUrlCredentials);
  return told;
}

/**
 * Tells a failure on stderr and returns its exit code. Readable lines (`error: …`,
 * `hint: …`, `to resume: …`), or, with an explicit machine format (`options.machine`),
 * one JSON object on one line:
 *   {"error":{"code","message", …the API's envelope fields}, "exit_code", "hints",
 *    "resume", "id" (a batch's failed id)}
 */
export function report(err: unknown, io: IO, words: RunWords, options: ReportOptions): number {
  const told = tell(err, words, options);
  if (options.profile !== undefined) {
    const profile = options.profile;
    told.hints = told.hints.map((h) => withProfile(h, profile));
  }
  const { subject } = options;
  if (options.machine) {
    const object: Record<string, unknown> = {
      error: {
        ...(told.api ?? {}),
        code: told.code,
        message: told.api?.message ?? told.message,
        ...(told.status !== undefined ? { status: told.status } : {}),
      },
      exit_code: told.exitCode,
      hints: [...told.hints, ...told.resume.hints, ...(told.resume.notes ?? []), ...told.tail].map((h) =>
        cleanLine(h.trim()),
      ),
      resume: told.resume.command ?? null,
    };
    if (subject !== undefined) object.id = subject;
    io.stderr.write(`${inertJson(JSON.stringify(object))}\n`);
    return told.exitCode;
  }
  const about = subject === undefined ? "" : `${cleanId(subject)}: `;
  const lines = told.code === "interrupted" ? [told.message] : [`error: ${about}${told.message}`];
  for (const h of told.hints) lines.push(h.startsWith("  ") ? h : `hint: ${h}`);
  lines.push(...told.resume.hints.map((h) => `hint: ${h}`));
  if (told.resume.command) lines.push(`to resume: ${told.resume.command}`);
  lines.push(...(told.resume.notes ?? []).map((h) => `hint: ${h}`));
  lines.push(...told.tail);
  io.stderr.write(`${lines.join("\n")}\n`);
  return told.exitCode;
}
