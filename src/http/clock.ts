/**
 * The real clock. Retry, pacing and pagination take a `Clock` so tests can inject a
 * fake one and run minutes of backoff in microseconds; this is the one used for real.
 */
import type { Clock } from "./client-types.js";

/** Why a sleep ended early: the caller's signal fired. */
function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException("The operation was aborted", "AbortError");
}

/** Waits `ms` milliseconds; rejects at once (with the signal's reason) when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal!));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

export const realClock: Clock = {
  now: () => Date.now(),
  sleep,
  random: () => Math.random(),
};
