/**
 * Typed errors and the one map from an error to an exit code (docs/cli.md#exit-codes).
 * Everything that can fail in `pep` throws one of these; the run's one error step,
 * `report()` in cli/report.ts, tells it and returns `exitCodeFor(err)`.
 */
import type { RateLimitInfo } from "../http/client-types.js";
import { cleanLine } from "./sanitize.js";

export const EXIT = {
  ok: 0,
  unexpected: 1,
  usage: 2,
  auth: 3,
  notFound: 4,
  rateLimited: 5,
  unavailable: 6,
  interrupted: 130,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** Base class: a failure we understand, with a one-line message for stderr. */
export class PepError extends Error {
  readonly exitCode: ExitCode;
  /** Extra lines printed under the message (advice, the resume command). */
  hints: string[] = [];
  /**
   * Set on a failure that cut a list short: the cursor of the page that failed and, with
   * a `--limit`, how many items were still wanted (see `withResumeCursor`).
   */
  resume: { cursor: string; remaining: number | undefined } | undefined = undefined;
  /**
   * The same command run again goes on from where this failure stopped it (`pep sync`
   * keeps its place itself): the resume line is the command as typed, with no `--cursor`.
   */
  rerun = false;
  /** `RateLimit-*` headers of the answer that failed, so pacing also learns from a 429 or 503. */
  rateLimit: RateLimitInfo | undefined = undefined;
  constructor(message: string, exitCode: ExitCode, options?: { cause?: unknown; hints?: string[] }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    if (options?.hints) this.hints = [...options.hints];
  }

  /** The error line's text; errors that came with an answer add its status and request id. */
  describe(): string {
    return this.message;
  }
}

/**
 * The output cannot be written where it was asked to go (a folder pep may not write in,
 * another writer at work on the same file): exit 1, as a full disk is, told as
 * `cannot write the output: …`.
 */
export class OutputError extends PepError {
  /** What a script can branch on (error-codes.ts): a full disk, a permission, another writer. */
  readonly reason: OutputReason | undefined;
  constructor(message: string, options?: { cause?: unknown; hints?: string[]; reason?: OutputReason | undefined }) {
    super(`cannot write the output: ${message}`, EXIT.unexpected, options);
    this.reason = options?.reason;
  }
}

export type OutputReason = "disk_full" | "permission_denied" | "target_busy";

/** The kind of output failure an errno code is: ENOSPC a full disk, EACCES a permission… */
export function outputReasonOf(errno: string | undefined): OutputReason | undefined {
  if (errno === "ENOSPC" || errno === "EDQUOT") return "disk_full";
  if (errno === "EACCES" || errno === "EPERM" || errno === "EROFS") return "permission_denied";
  return undefined;
}

/** Bad flags, arguments or values, caught before any request (exit 2). */
export class UsageError extends PepError {
  constructor(message: string, options?: { hints?: string[] }) {
    super(message, EXIT.usage, options);
  }
}

/** No key for a keyed endpoint, or a key refused (exit 3). */
export class AuthError extends PepError {
  constructor(message: string, options?: { cause?: unknown; hints?: string[] }) {
    super(message, EXIT.auth, options);
  }
}

/**
 * A record that exists but holds no web page to open (`pep browse`, `--web`): exit 4 like
 * a record that does not exist, since in both cases there is nothing to open.
 */
export class NoPageError extends PepError {
  constructor(message: string, options?: { hints?: string[] }) {
    super(message, EXIT.notFound, options);
  }
}

/** Fields of the API's error envelope `{ error: { code, message, request_id } }`. */
export interface ApiErrorBody {
  code?: string;
  message?: string;
  request_id?: string;
  [key: string]: unknown;
}

/** An HTTP error status from the API, with its envelope when it sent one. */
export class ApiError extends PepError {
  readonly status: number;
  readonly code: string | undefined;
  readonly requestId: string | undefined;
  /** The error envelope as received (printed as JSON with `-o json`). */
  readonly envelope: { error: ApiErrorBody } | undefined;
  /** Seconds the server asked us to wait (429/503), when it said. */
  readonly retryAfter: number | undefined;
  constructor(init: {
    status: number;
    message?: string | undefined;
    code?: string | undefined;
    requestId?: string | undefined;
    envelope?: { error: ApiErrorBody } | undefined;
    retryAfter?: number | undefined;
  }) {
    const text = init.message && init.message.trim() !== "" ? init.message : `HTTP ${init.status}`;
    super(text, exitForStatus(init.status));
    this.status = init.status;
    this.code = init.code;
    this.requestId = init.requestId;
    this.envelope = init.envelope;
    this.retryAfter = init.retryAfter;
  }

  /** `<message> (HTTP <status>, <code>, request <request_id>)` */
  override describe(): string {
    // Each piece from the API is cleaned on its own, so that an escape sequence left open
    // in the message cannot take the status and request id with it.
    const parts = [`HTTP ${this.status}`];
    if (this.code) parts.push(cleanLine(this.code));
    if (this.requestId) parts.push(`request ${cleanLine(this.requestId)}`);
    return `${cleanLine(this.message)} (${parts.join(", ")})`;
  }
}

/** Network failures: refused, reset, timeout, DNS, TLS (exit 6). */
export class NetworkError extends PepError {
  readonly kind: "timeout" | "refused" | "reset" | "other";
  /** Set when the answer's headers had arrived (a body that stalled past the timeout). */
  requestId: string | undefined;
  constructor(message: string, kind: NetworkError["kind"], options?: { cause?: unknown; hints?: string[] }) {
    super(message, EXIT.unavailable, options);
    this.kind = kind;
  }

  override describe(): string {
    return this.requestId ? `${cleanLine(this.message)} (request ${cleanLine(this.requestId)})` : this.message;
  }
}

/** A 2xx answer that is not the API's JSON: HTML, truncated, wrong shape (exit 6). */
export class ResponseError extends PepError {
  readonly status: number;
  readonly requestId: string | undefined;
  /** The body ended early: a transport failure, worth a retry. */
  readonly cutShort: boolean;
  constructor(
    message: string,
    init: { status: number; requestId?: string | undefined; cause?: unknown; cutShort?: boolean },
  ) {
    super(message, EXIT.unavailable, { cause: init.cause });
    this.status = init.status;
    this.requestId = init.requestId;
    this.cutShort = init.cutShort ?? false;
  }

  /** `<message> (HTTP <status>, request <request_id>)`, like an API error. */
  override describe(): string {
    const parts = [`HTTP ${this.status}`];
    if (this.requestId) parts.push(`request ${cleanLine(this.requestId)}`);
    return `${cleanLine(this.message)} (${parts.join(", ")})`;
  }
}

/** The same cursor came back twice in one run (exit 6). */
export class PaginationLoopError extends PepError {
  readonly cursor: string;
  constructor(cursor: string) {
    super("the API returned the same cursor twice; stopping to avoid an endless loop", EXIT.unavailable);
    this.cursor = cursor;
  }
}

/** What a script can branch on when the local library fails (error-codes.ts has each). */
export type LibraryErrorCode =
  | "library_missing"
  | "library_busy"
  | "not_in_library"
  | "library_schema_old"
  | "library_schema_new"
  | "library_auth_failed"
  | "library_db_missing"
  | "library_unavailable"
  | "library_permission_denied"
  | "library_stale"
  | "library_not_kept";

const LIBRARY_EXIT: Record<LibraryErrorCode, ExitCode> = {
  library_missing: EXIT.usage,
  library_busy: EXIT.unavailable,
  not_in_library: EXIT.notFound,
  library_schema_old: EXIT.usage,
  library_schema_new: EXIT.usage,
  library_auth_failed: EXIT.auth,
  library_db_missing: EXIT.usage,
  library_unavailable: EXIT.unavailable,
  library_permission_denied: EXIT.auth,
  library_stale: EXIT.unavailable,
  library_not_kept: EXIT.usage,
};

/**
 * The local library refused or failed (docs/library.md): its own `error.code` and the exit
 * code that goes with it: 2 for what a flag or a `pep sync` fixes, 3 for a role or a file
 * pep may not use, 4 for what the library does not hold, 6 for a database that went away
 * or is busy (running again can work).
 */
export class LibraryError extends PepError {
  readonly code: LibraryErrorCode;
  constructor(code: LibraryErrorCode, message: string, options?: { cause?: unknown; hints?: string[] }) {
    super(message, LIBRARY_EXIT[code], options);
    this.code = code;
  }
}

/** Local configuration problems: corrupt config file, unwritable folder (exit 2). */
export class ConfigError extends PepError {
  constructor(message: string, options?: { cause?: unknown; hints?: string[] }) {
    super(message, EXIT.usage, options);
  }
}

/** Ctrl-C (exit 130). */
export class InterruptedError extends PepError {
  constructor() {
    super("interrupted", EXIT.interrupted);
  }
}

/**
 * HTTP status -> exit code, in one place. Statuses the spec does not name are read by
 * their class: another 4xx refused the request as sent (2; 410 Gone is a 404), a
 * redirect, 408, 414 or 431 is an answer that is not the API's (6). None of them is a bug of pep.
 */
export function exitForStatus(status: number): ExitCode {
  if (status === 400 || status === 422) return EXIT.usage;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404 || status === 410) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  // A request too long for the server (an oversized cursor): its limit, not a bad flag.
  if (status === 408 || status === 414 || status === 431) return EXIT.unavailable;
  if (status >= 400 && status < 500) return EXIT.usage;
  if (status >= 500 || (status >= 300 && status < 400)) return EXIT.unavailable;
  return EXIT.unexpected;
}

/** Any thrown value -> exit code. Unknown errors are bugs (exit 1). */
export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof PepError) return err.exitCode;
  return EXIT.unexpected;
}

/**
 * A cursor to resume from, set on an error that cut a list short, so the shell can
 * print the command that continues the run; with a `--limit`, also how many items of
 * it were still wanted, so the resumed run stops where the first would have. Only
 * errors pep understands carry it: a bug is not resumed. The first cursor set stays.
 */
export function withResumeCursor<E>(err: E, cursor: string | undefined, remaining?: number): E {
  if (cursor && err instanceof PepError && !err.resume) err.resume = { cursor, remaining };
  return err;
}

export function resumeCursorOf(err: unknown): string | undefined {
  return err instanceof PepError ? err.resume?.cursor : undefined;
}

/** Items of the `--limit` still wanted when the run was cut short (undefined: no limit). */
export function resumeRemainingOf(err: unknown): number | undefined {
  const n = err instanceof PepError ? err.resume?.remaining : undefined;
  return n !== undefined && Number.isInteger(n) && n > 0 ? n : undefined;
}
