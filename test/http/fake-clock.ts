/**
 * A deterministic clock for retry and pacing tests: `sleep` returns at once and moves
 * `now` forward, recording each wait; `random` replays a fixed list.
 */
import type { Clock, Timers } from "../../src/http/client-types.js";

export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  private i = 0;
  constructor(
    public nowMs = Date.parse("2025-01-01T00:00:00Z"),
    private readonly randoms: readonly number[] = [0.5],
  ) {}
  now(): number {
    return this.nowMs;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    this.sleeps.push(ms);
    this.nowMs += ms;
    return Promise.resolve();
  }
  random(): number {
    const r = this.randoms[this.i % this.randoms.length]!;
    this.i++;
    return r;
  }
}

/**
 * Timers that fire only when told: the transport's per-request timeout runs out the moment
 * a test calls `fire()`, after the server has seen the request, instead of after real time.
 */
export class ManualTimers implements Timers {
  private readonly pending = new Map<number, { fn: () => void; ms: number }>();
  private next = 1;
  /** The delay of every timer set so far. */
  readonly set: number[] = [];
  setTimeout(fn: () => void, ms: number): unknown {
    const id = this.next++;
    this.pending.set(id, { fn, ms });
    this.set.push(ms);
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  /** Timers set and neither fired nor cleared. */
  get waiting(): number {
    return this.pending.size;
  }
  /** Runs out every pending timer now. */
  fire(): void {
    const due = [...this.pending.values()];
    this.pending.clear();
    for (const t of due) t.fn();
  }
}
