/**
 * A deterministic clock for retry and pacing tests: `sleep` returns at once and moves
 * `now` forward, recording each wait; `random` replays a fixed list.
 */
import type { Clock } from "../../src/http/types.js";

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
