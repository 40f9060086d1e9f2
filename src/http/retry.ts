/**
 * Retry and pacing, wrapped around the one-request function from outside (the octokit
 * plugin-retry / plugin-throttling shape), so the core stays a single request and
 * these rules are tested on their own with a fake clock.
 *
 * - 429: wait `Retry-After` (60 s when absent), then retry.
 * - 5xx, refused or reset connections, timeouts, bodies cut short: exponential backoff
 *   with jitter, or `Retry-After` when the server sent one.
 * - Other 4xx and everything else: never retried.
 * - Pacing: after `RateLimit-Remaining: 0`, the next request waits for
 *   `RateLimit-Reset`, so long runs stay under the limit instead of meeting a 429. The
 *   reset is read from the window's earliest answer, as whole seconds hide the rest.
 */
import { ApiError, InterruptedError, NetworkError, PepError, ResponseError } from "../core/errors.js";
import type { ApiResponse, Clock, ClientEvent, RateLimitInfo } from "./client-types.js";

/** What every attempt carries; the client adds its own fields. */
export interface Attempt {
  url: string;
  signal?: AbortSignal | undefined;
  /** 1 for the first try, 2 for the first retry, ... */
  attempt: number;
}

export type Send<R extends Attempt, T> = (req: R) => Promise<T>;

/** Seconds to wait when a 429 says nothing (docs/api.md#rate-limits). */
export const DEFAULT_RATE_LIMIT_WAIT_S = 60;
/**
 * Longest wait pep sits through for one request. A per-minute limit asks for under a
 * minute; a spent monthly quota can ask for days, which no script or CI job should
 * wait out silently: such an answer ends the run at once (exit 5), saying until when.
 */
export const MAX_WAIT_MS = 300_000;
export const BACKOFF_BASE_MS = 500;
export const BACKOFF_CAP_MS = 20_000;

/**
 * Exponential backoff with equal jitter: retry n waits between half and all of
 * `min(cap, base * 2^(n-1))`, so waits grow and concurrent clients spread out.
 */
export function backoffMs(retry: number, random: () => number): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}

/**
 * The longest wait a header is read as: a year. A server asking for longer (a runaway
 * `Retry-After: 99999999999999`, a date in the year 275759) asks for "a year or more",
 * which ends the run all the same, and the "until when" of the hint stays a real date.
 */
export const HEADER_WAIT_CAP_S = 366 * 24 * 3600;

/** An HTTP date starts with its day name (RFC 9110 section 5.6.7, all three forms). */
const HTTP_DATE = /^(mon|tue|wed|thu|fri|sat|sun)[a-z]*,?\s/i;

/**
 * `Retry-After` as seconds from now: delta seconds, or an HTTP date read against the
 * clock, at most a year. `undefined` when absent or unreadable (negative, garbage).
 */
export function parseRetryAfter(value: string | undefined, nowMs: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === "") return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.min(Number(v), HEADER_WAIT_CAP_S);
  if (!HTTP_DATE.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.min(HEADER_WAIT_CAP_S, Math.max(0, Math.ceil((at - nowMs) / 1000)));
}

/**
 * `RateLimit-*` headers as numbers; a reset above 10^9 is an epoch time in seconds and
 * is turned into seconds from now. A reset is at most a year away.
 */
export function parseRateLimit(
  headers: { limit?: string | undefined; remaining?: string | undefined; reset?: string | undefined },
  nowMs: number,
): RateLimitInfo {
  const num = (s: string | undefined): number | undefined => {
    if (s === undefined || s.trim() === "") return undefined;
    const n = Number(s.trim());
    return Number.isFinite(n) && n >= 0 ? n : undefined;
  };
  let reset = num(headers.reset);
  if (reset !== undefined && reset > 1e9) reset = Math.max(0, reset - nowMs / 1000);
  if (reset !== undefined) reset = Math.min(reset, HEADER_WAIT_CAP_S);
  return { limit: num(headers.limit), remaining: num(headers.remaining), reset };
}

/** The rate-limit headers a failed attempt carried, when it had an answer. */
function rateLimitOfError(err: unknown): RateLimitInfo | undefined {
  return err instanceof PepError ? err.rateLimit : undefined;
}

/** Why and how long to wait before the next try, or `undefined` when not retryable. */
export function retryPlan(
  err: unknown,
  retry: number,
  clock: Clock,
): { reason: string; waitMs: number; assumed?: boolean } | undefined {
  if (err instanceof ApiError) {
    if (err.status === 429) {
      return {
        reason: "rate limited",
        waitMs: Math.round((err.retryAfter ?? DEFAULT_RATE_LIMIT_WAIT_S) * 1000),
        ...(err.retryAfter === undefined ? { assumed: true } : {}),
      };
    }
    if (err.status >= 500) {
      const waitMs =
        err.retryAfter !== undefined ? Math.round(err.retryAfter * 1000) : backoffMs(retry, () => clock.random());
      return {
        reason: err.status === 503 ? "service unavailable (HTTP 503)" : `server error (HTTP ${err.status})`,
        waitMs,
      };
    }
    return undefined;
  }
  if (err instanceof NetworkError) {
    if (err.kind === "other") return undefined;
    const reason =
      err.kind === "timeout" ? "timed out" : err.kind === "refused" ? "connection refused" : "connection reset";
    return { reason, waitMs: backoffMs(retry, () => clock.random()) };
  }
  if (err instanceof ResponseError && err.cutShort) {
    return { reason: "response cut short", waitMs: backoffMs(retry, () => clock.random()) };
  }
  return undefined;
}

export interface RetryOptions {
  /** Retries after the first try; 0 = none. */
  retries: number;
  clock: Clock;
  onEvent?: ((e: ClientEvent) => void) | undefined;
}

/** The caller's Ctrl-C beats everything: no retry, no wait, one InterruptedError. */
function interruptedIfAborted(signal: AbortSignal | undefined, err: unknown): unknown {
  return signal?.aborted && !(err instanceof InterruptedError) ? new InterruptedError() : err;
}

/** Retries `send` per `retryPlan`, at most `retries` times, telling each wait as an event. */
export function withRetry<R extends Attempt, T>(send: Send<R, T>, options: RetryOptions): Send<R, T> {
  const { retries, clock, onEvent } = options;
  return async (req: R) => {
    for (let retry = 0; ; retry++) {
      try {
        return await send({ ...req, attempt: retry + 1 });
      } catch (err) {
        if (req.signal?.aborted) throw interruptedIfAborted(req.signal, err);
        const plan = retry < retries ? retryPlan(err, retry + 1, clock) : undefined;
        if (!plan) throw err;
        if (plan.waitMs > MAX_WAIT_MS) throw withTooLongHint(err, plan.waitMs, clock);
        onEvent?.({
          type: "retry",
          url: req.url,
          reason: plan.reason,
          waitMs: plan.waitMs,
          attempt: retry + 1,
          retries,
          ...(plan.assumed ? { assumed: true } : {}),
        });
        try {
          await clock.sleep(plan.waitMs, req.signal);
        } catch (sleepErr) {
          throw interruptedIfAborted(req.signal, sleepErr);
        }
      }
    }
  };
}

/** The failure, with a hint saying how long the server asked to wait and until when. */
function withTooLongHint(err: unknown, waitMs: number, clock: Clock): unknown {
  if (err instanceof PepError) {
    const capped = waitMs >= HEADER_WAIT_CAP_S * 1000;
    const at = new Date(clock.now() + Math.min(waitMs, HEADER_WAIT_CAP_S * 1000));
    const until = Number.isNaN(at.getTime())
      ? ""
      : ` (until ${capped ? "after " : ""}${at.toISOString().replace(/\.\d+Z$/, "Z")})`;
    const asks = capped ? "a year or more" : `${Math.ceil(waitMs / 1000)} s`;
    err.hints.push(
      `the API asks to wait ${asks}${until}; pep waits at most ${MAX_WAIT_MS / 1000} s, so run the command again after that time`,
    );
  }
  return err;
}

/**
 * Remembers when the server said the window is spent, and holds the next request until
 * it resets. One pacer per client: every request of a run shares the window.
 */
export interface Pacer {
  /** Waits, when needed, before a request to `url`; the request then counts as in flight. */
  before(url: string, signal?: AbortSignal): Promise<void>;
  /** Learns from a response's `RateLimit-*` headers; the request is no longer in flight. */
  observe(info: RateLimitInfo | undefined): void;
  /** A 429 asked every request to wait `seconds` (`Retry-After`): the others wait too. */
  hold?(seconds: number): void;
}

/** Whether `info` is the answer after `last` in the same window: one request fewer left, no later reset. */
function countsDown(last: RateLimitInfo | undefined, info: RateLimitInfo): boolean {
  return (
    last?.remaining !== undefined &&
    last.reset !== undefined &&
    info.remaining !== undefined &&
    info.reset !== undefined &&
    info.limit === last.limit &&
    info.remaining === last.remaining - 1 &&
    info.reset <= last.reset
  );
}

/** A promise for the next `wake()`: whoever waits on `next()` before it is woken together. */
function wakeUps(): { next(): Promise<void>; wake(): void } {
  let pending: { promise: Promise<void>; resolve: () => void } | undefined;
  return {
    next() {
      if (!pending) {
        let resolve!: () => void;
        const promise = new Promise<void>((r) => {
          resolve = r;
        });
        pending = { promise, resolve };
      }
      return pending.promise;
    },
    wake() {
      const woken = pending;
      pending = undefined;
      woken?.resolve();
    },
  };
}

export function createPacer(clock: Clock, onEvent?: (e: ClientEvent) => void): Pacer {
  let resumeAt = 0;
  // `RateLimit-Reset` is whole seconds, rounded up: each answer says the window ends by
  // `now + reset`, so the earliest such bound in a window is the closest. Only answers
  // that count down one by one are taken as one window; any other step starts afresh.
  let windowEnd = Number.POSITIVE_INFINITY;
  let last: RateLimitInfo | undefined;
  // Requests sent and not yet answered. Several at once (a batch of ids) may not outrun
  // the window: while as many are in flight as the last answer had requests remaining,
  // the next waits for one of them to come back.
  let inFlight = 0;
  const answers = wakeUps();
  // Requests left in the window: the lowest count any answer of this window gave (answers
  // to requests sent together come back in any order). Unknown until the first answer,
  // so a batch sends one request alone first and learns the limit from it.
  let left: number | undefined;
  let answered = false;
  const budget = () => (!answered ? 1 : left === undefined ? Number.POSITIVE_INFINITY : left);
  return {
    async before(url, signal) {
      for (;;) {
        const waitMs = Math.ceil(resumeAt - clock.now());
        // Past the longest wait, the request goes out: the server's answer (a 429 with its
        // Retry-After) decides, and ends the run with a message instead of a silent wait.
        if (waitMs > 0 && waitMs <= MAX_WAIT_MS) {
          onEvent?.({ type: "pace", url, waitMs });
          try {
            await clock.sleep(waitMs, signal);
          } catch (err) {
            throw interruptedIfAborted(signal, err);
          }
          continue;
        }
        if (inFlight > 0 && inFlight >= budget()) {
          await abortable(answers.next(), signal);
          continue;
        }
        break;
      }
      inFlight++;
    },
    observe(info) {
      if (inFlight > 0) inFlight--;
      answered = true;
      answers.wake();
      if (!info || info.remaining === undefined || info.reset === undefined) {
        last = undefined;
        left = undefined;
        return;
      }
      const now = clock.now();
      left = left !== undefined && now < windowEnd ? Math.min(left, info.remaining) : info.remaining;
      const bound = now + info.reset * 1000;
      windowEnd = now < windowEnd && countsDown(last, info) ? Math.min(windowEnd, bound) : bound;
      last = info;
      if (info.remaining <= 0) resumeAt = Math.max(resumeAt, windowEnd);
    },
    hold(seconds) {
      resumeAt = Math.max(resumeAt, clock.now() + seconds * 1000);
    },
  };
}

/** `promise`, or an interruption when `signal` aborts first. */
function abortable(promise: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new InterruptedError());
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => reject(new InterruptedError());
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(() => {
      signal.removeEventListener("abort", onAbort);
      resolve();
    });
  });
}

/**
 * Runs every attempt through the pacer (or the pacer of its URL's rate-limit scope):
 * wait if the window is spent, learn from the answer.
 */
export function withPacing<R extends Attempt, T extends Pick<ApiResponse, "rateLimit">>(
  send: Send<R, T>,
  pacerOf: Pacer | ((url: string) => Pacer),
): Send<R, T> {
  return async (req: R) => {
    const pacer = typeof pacerOf === "function" ? pacerOf(req.url) : pacerOf;
    await pacer.before(req.url, req.signal);
    try {
      const res = await send(req);
      pacer.observe(res.rateLimit);
      return res;
    } catch (err) {
      pacer.observe(rateLimitOfError(err));
      // A 429 speaks for the whole run: requests of a batch running beside this one wait
      // out its Retry-After too, instead of each collecting a 429 of its own.
      if (err instanceof ApiError && err.status === 429) pacer.hold?.(err.retryAfter ?? DEFAULT_RATE_LIMIT_WAIT_S);
      throw err;
    }
  };
}
