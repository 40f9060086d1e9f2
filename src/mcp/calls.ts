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
import type { ClientEvent } from "../http/types.js";

export type LogLevel = "debug" | "info" | "notice" | "warning" | "error";

/** Default bound of the waits of one call, in seconds (`--max-wait`, PEP_MCP_MAX_WAIT). */
export const DEFAULT_MAX_WAIT_S = 30;

/** A wait the call did not sit through. */
export interface Deferred {
  reason: string;
  waitMs: number;
  /** When the API will answer again (ms since the epoch). */
  at: number;
}

export interface CallWatch {
  /** Aborted when a wait would pass the bound; the call's requests stop at once. */
  readonly abort: AbortController;
  /** Set when the call was aborted for a wait too long. */
  deferred?: Deferred;
  /** Milliseconds waited so far in this call. */
  waitedMs: number;
  /** Tells the client what the call is doing (progress and, when enabled, a log message). */
  tell(message: string, level: LogLevel): void;
}

const current = new AsyncLocalStorage<CallWatch>();

/** Runs `fn` as the call `watch`: events of the requests it makes reach `watch`. */
export function watching<T>(watch: CallWatch, fn: () => Promise<T>): Promise<T> {
  return current.run(watch, fn);
}

const seconds = (ms: number) => (ms >= 10_000 ? String(Math.round(ms / 1000)) : (ms / 1000).toFixed(1));

/** The listener for the run's client events; `now` is the clock the client waits by. */
export function callEvents(maxWaitMs: number, now: () => number): (e: ClientEvent) => void {
  return (e) => {
    const call = current.getStore();
    if (!call || call.abort.signal.aborted) return;
    switch (e.type) {
      case "retry":
      case "pace": {
        const reason = e.type === "retry" ? e.reason : "the API's rate-limit window is spent";
        if (call.waitedMs + e.waitMs > maxWaitMs) {
          call.deferred = { reason, waitMs: e.waitMs, at: now() + e.waitMs };
          call.tell(
            `${reason}: the API asks to wait ${seconds(e.waitMs)} s, more than this server waits in one call (${seconds(maxWaitMs)} s); the call ends now`,
            "warning",
          );
          call.abort.abort(new Error("wait past the bound"));
          return;
        }
        call.waitedMs += e.waitMs;
        call.tell(
          e.type === "retry"
            ? `${reason}; retrying in ${seconds(e.waitMs)} s (retry ${e.attempt} of ${e.retries})`
            : `${reason}; waiting ${seconds(e.waitMs)} s before the next request`,
          "warning",
        );
        return;
      }
      case "response":
        call.tell(`HTTP ${e.status}${e.fromCache ? " (not modified, from cache)" : ""} in ${e.ms} ms`, "debug");
        return;
      default:
        return;
    }
  };
}
