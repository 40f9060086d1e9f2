/**
 * What one tool call is doing while it waits: the run's client tells every request,
 * answer, retry and rate-limit wait as an event; the call that caused it (found through
 * async context, so calls running side by side stay apart) passes them on to its client
 * as progress notifications (when the call carried a progress token) and log messages
 * (when the client asked for them with logging/setLevel).
 *
 * Waits are bounded: a client gives up on a call after its own timeout (60 s in the
 * SDK's Client), so a call never sleeps longer in all than `maxWaitMs`. A wait that would
 * pass the bound aborts the call at once, and the call answers with when to call again.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import type { ClientEvent } from "../http/client-types.js";

export type LogLevel = "debug" | "info" | "notice" | "warning" | "error";

/** Default bound of the waits of one call, in seconds (`--max-wait`, PEP_MCP_MAX_WAIT). */
export const DEFAULT_MAX_WAIT_S = 30;

/** The API's rate limits, as it scopes them (`api/rate-scopes.ts`): metered requests, and research ones. */
export type RateScope = "metered" | "research";

/** A wait the call did not sit through. */
export interface Deferred {
  reason: string;
  waitMs: number;
  /** When the API will answer again (ms since the epoch). */
  at: number;
  /**
   * The rate-limit window of this scope is spent (pacing, or a 429): every tool of the
   * scope waits for it, so each fails until `at`; undefined: only this call waited.
   */
  scope?: RateScope;
  /** The wait is pep's assumption (a 429 without `Retry-After`: 60 s), not the API's word. */
  assumed?: boolean;
}

/**
 * Until when each scope's window is known spent, one record for every session of a
 * server: "every tool fails" is said only when every scope is.
 */
export class SpentScopes {
  private readonly until = new Map<RateScope, number>();

  note(scope: RateScope, at: number): void {
    this.until.set(scope, Math.max(this.until.get(scope) ?? 0, at));
  }

  /** When every scope's window is spent at `now`, the time the first of them opens again; else undefined. */
  allUntil(now: number): number | undefined {
    const ends = (["metered", "research"] as const).map((s) => this.until.get(s) ?? 0);
    return ends.every((t) => t > now) ? Math.min(...ends) : undefined;
  }
}

export interface CallWatch {
  /** Aborted when a wait would pass the bound; the call's requests stop at once. */
  readonly abort: AbortController;
  /** Set when the call was aborted for a wait too long. */
  deferred?: Deferred;
  /** Milliseconds waited so far in this call. */
  waitedMs: number;
  /** When the call must be answered by: its arrival plus the bound (ms since the epoch, the run's clock). */
  deadline?: number;
  /** Tells the client what the call is doing (progress and, when enabled, a log message). */
  tell(message: string, level: LogLevel): void;
  /** The tool's name, for standard error. */
  tool?: string;
  /** The client gave the call a progress token: it hears progress notifications. */
  progress?: boolean;
  /** The rate-limit scope of the tool's requests. */
  scope?: RateScope;
}

const current = new AsyncLocalStorage<CallWatch>();

/** Runs `fn` as the call `watch`: events of the requests it makes reach `watch`. */
export function watching<T>(watch: CallWatch, fn: () => Promise<T>): Promise<T> {
  return current.run(watch, fn);
}

const seconds = (ms: number) => (ms >= 10_000 ? String(Math.round(ms / 1000)) : (ms / 1000).toFixed(1));

const isoSecond = (ms: number): string => new Date(ms).toISOString().replace(/\.\d+Z$/, "Z");

/**
 * The listener for the run's client events; `now` is the clock the client waits by,
 * `say` writes a line on standard error. A wait past the bound is said there as what
 * happens (the call ends now), in place of the run's own "waiting" line.
 */
export function callEvents(
  maxWaitMs: number,
  now: () => number,
  say: (line: string) => void = () => {},
  spent: SpentScopes = new SpentScopes(),
): (e: ClientEvent) => "told" | undefined {
  return (e) => {
    const call = current.getStore();
    if (!call || call.abort.signal.aborted) return undefined;
    switch (e.type) {
      case "retry":
      case "pace": {
        const reason = e.type === "retry" ? e.reason : "the API's rate-limit window is spent";
        // The waits of the call so far (on the client's clock), and the time since it arrived (queue included).
        const late =
          call.waitedMs + e.waitMs > maxWaitMs || (call.deadline !== undefined && now() + e.waitMs > call.deadline);
        if (late) {
          const rate = e.type === "pace" || e.reason === "rate limited";
          const assumed = e.type === "retry" && e.assumed === true;
          const at = now() + e.waitMs;
          call.deferred = {
            reason,
            waitMs: e.waitMs,
            at,
            ...(rate && call.scope ? { scope: call.scope } : {}),
            ...(assumed ? { assumed } : {}),
          };
          if (rate && call.scope) spent.note(call.scope, at);
          const asks = assumed
            ? `the API sent no Retry-After, so pep assumes ${seconds(e.waitMs)} s (as the API documents)`
            : `the API asks to wait ${seconds(e.waitMs)} s`;
          say(
            `pep mcp: ${call.tool ?? "a tool call"}: ${reason}; ${asks}, past this call's bound, so the call ends now and tells the client to call again after ${isoSecond(at)}${rate && call.scope ? ` (the tools of the ${call.scope} rate limit wait for the same window until then)` : ""}`,
          );
          call.tell(
            `${reason}: ${asks}, more than this server waits in one call (${seconds(maxWaitMs)} s); the call ends now`,
            "warning",
          );
          call.abort.abort(new Error("wait past the bound"));
          return "told";
        }
        call.waitedMs += e.waitMs;
        call.tell(
          e.type === "retry"
            ? `${reason}; retrying in ${seconds(e.waitMs)} s (retry ${e.attempt} of ${e.retries})`
            : `${reason}; waiting ${seconds(e.waitMs)} s before the next request`,
          "warning",
        );
        return undefined;
      }
      case "response":
        call.tell(`HTTP ${e.status}${e.fromCache ? " (not modified, from cache)" : ""} in ${e.ms} ms`, "debug");
        return undefined;
      default:
        return undefined;
    }
  };
}

/** Milliseconds between the heartbeats of a running call. */
const HEARTBEAT_MS = 2000;

/**
 * While a call runs, a progress notification every few seconds with the time it has
 * run (when the client gave a progress token), so a client shows it alive and does not
 * take a long answer for a lost one. Real time: what the client waits is real. Returns
 * the function that stops it.
 */
export function heartbeat(watch: CallWatch): () => void {
  if (!watch.progress) return () => {};
  const began = performance.now();
  const timer = setInterval(() => {
    const s = Math.round((performance.now() - began) / 1000);
    watch.tell(`still running: ${s} s since the call started, waiting for the API's answer`, "info");
  }, HEARTBEAT_MS);
  timer.unref();
  return () => clearInterval(timer);
}
