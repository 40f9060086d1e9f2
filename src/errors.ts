/**
 * Typed errors and the one map from an error to an exit code (contract section 5).
 * Everything that can fail in `pep` throws one of these; `main.ts` prints it and exits
 * with `exitCodeFor(err)`.
 */

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
  constructor(message: string, exitCode: ExitCode, options?: { cause?: unknown; hints?: string[] }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.exitCode = exitCode;
    if (options?.hints) this.hints = [...options.hints];
  }
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
  describe(): string {
    const parts = [`HTTP ${this.status}`];
    if (this.code) parts.push(this.code);
    if (this.requestId) parts.push(`request ${this.requestId}`);
    return `${this.message} (${parts.join(", ")})`;
  }
}

/** Network failures: refused, reset, timeout, DNS, TLS (exit 6). */
export class NetworkError extends PepError {
  readonly kind: "timeout" | "refused" | "reset" | "other";
  constructor(message: string, kind: NetworkError["kind"], options?: { cause?: unknown }) {
    super(message, EXIT.unavailable, options);
    this.kind = kind;
  }
}

/** A 2xx answer that is not the API's JSON: HTML, truncated, wrong shape (exit 6). */
export class ResponseError extends PepError {
  readonly status: number;
  readonly requestId: string | undefined;
  constructor(message: string, init: { status: number; requestId?: string | undefined; cause?: unknown }) {
    super(message, EXIT.unavailable, { cause: init.cause });
    this.status = init.status;
    this.requestId = init.requestId;
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

/** HTTP status -> exit code, in one place. */
export function exitForStatus(status: number): ExitCode {
  if (status === 400 || status === 422) return EXIT.usage;
  if (status === 401 || status === 403) return EXIT.auth;
  if (status === 404) return EXIT.notFound;
  if (status === 429) return EXIT.rateLimited;
  if (status >= 500) return EXIT.unavailable;
  return EXIT.unexpected;
}

/** Any thrown value -> exit code. Unknown errors are bugs (exit 1). */
export function exitCodeFor(err: unknown): ExitCode {
  if (err instanceof PepError) return err.exitCode;
  return EXIT.unexpected;
}

/**
 * A cursor to resume from, attached to an error that cut a list short, so the shell
 * can print the command that continues the run.
 */
export function withResumeCursor<E>(err: E, cursor: string | undefined): E {
  if (cursor && err && typeof err === "object") {
    (err as { resumeCursor?: string }).resumeCursor ??= cursor;
  }
  return err;
}

export function resumeCursorOf(err: unknown): string | undefined {
  if (err && typeof err === "object" && "resumeCursor" in err) {
    const c = (err as { resumeCursor?: unknown }).resumeCursor;
    return typeof c === "string" ? c : undefined;
  }
  return undefined;
}
