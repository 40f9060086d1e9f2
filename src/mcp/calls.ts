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

/** A wait the call did not sit through. */
export interface Deferred {
  reason: string;
  waitMs: number;
  /** When the API will answer again (ms since the epoch). */
  at: number;
  /**
   * The key's rate-limit window is spent (pacing, or a 429): every tool that calls the API
   * waits for the same window, so every one fails until `at`; otherwise only this call.
   */
  everyTool: boolean;
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
          const everyTool = e.type === "pace" || e.reason === "rate limited";
          call.deferred = { reason, waitMs: e.waitMs, at: now() + e.waitMs, everyTool };
          say(
            `pep mcp: ${call.tool ?? "a tool call"}: ${reason}; the API asks to wait ${seconds(e.waitMs)} s, past this call's bound, so the call ends now and tells the client to call again after ${isoSecond(call.deferred.at)}${everyTool ? " (every tool waits for the same rate-limit window until then)" : ""}`,
          );
          call.tell(
            `${reason}: the API asks to wait ${seconds(e.waitMs)} s, more than this server waits in one call (${seconds(maxWaitMs)} s); the call ends now`,
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
