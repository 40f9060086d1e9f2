/**
 * Rate limits in fixed windows, on an injectable clock so tests never wait.
 *
 * Default policy (docs/api.md#rate-limits): anonymous requests count per IP address (300 a
 * minute); requests with a known key count per key a minute, and the metered ones
 * (vendors, products, prices) also per key a month. The sample keys get generous
 * defaults so tests and benchmarks are not throttled. `rateLimit` replaces all of this
 * with one window per scope, as the service scopes its limits: metered requests per key,
 * anonymous requests per IP; keyed research, study and meta requests are not metered.
 *
 * `RateLimit-Remaining` is what is left after the request just served, so it reads 0 on
 * the last allowed request of a window and a pacing client never meets a 429.
 */
export interface LimitPolicy {
  /** Anonymous requests per IP address per minute. Default 300. */
  anonymousPerMinute: number;
  /** Requests per sample key per minute. Default 10,000. */
  keyPerMinute: number;
  /** Metered (vendor, product, price) requests per sample key per calendar month (UTC). Default 1,000,000. */
  keyPerMonth: number;
}

export const DEFAULT_LIMITS: LimitPolicy = { anonymousPerMinute: 300, keyPerMinute: 10_000, keyPerMonth: 1_000_000 };

export interface LimitState {
  limit: number;
  remaining: number;
  /** Seconds until the window resets (at least 1). */
  reset: number;
}

export type LimitVerdict = ({ allowed: true } | { allowed: false; message: string }) & LimitState;

interface Window {
  /** Window bounds [start, end) for a time. */
  bounds(now: number): [number, number];
  limit: number;
  label: string;
}

const fixed = (limit: number, seconds: number): Window => ({
  limit,
  label: `${limit} requests per ${seconds === 60 ? "minute" : `${seconds} seconds`}`,
  bounds(now) {
    const size = seconds * 1000;
    const start = Math.floor(now / size) * size;
    return [start, start + size];
  },
});

const monthly = (limit: number): Window => ({
  limit,
  label: `${limit} requests per month`,
  bounds(now) {
    const d = new Date(now);
    return [Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1), Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)];
  },
});

export interface Caller {
  /** A known key, or undefined for anonymous callers and unknown keys. */
  key: string | undefined;
  ip: string;
}

export class RateLimiter {
  private readonly counts = new Map<string, { start: number; count: number }>();
  private readonly override: Window | undefined;
  private readonly policy: LimitPolicy;

  constructor(
    private readonly now: () => number,
    options: {
      rateLimit?: { requests: number; seconds: number } | undefined;
      limits?: Partial<LimitPolicy> | undefined;
    } = {},
  ) {
    const rl = options.rateLimit;
    if (rl !== undefined) {
      if (!Number.isInteger(rl.requests) || rl.requests < 1 || !(rl.seconds > 0))
        throw new RangeError("rateLimit needs requests >= 1 and seconds > 0");
      this.override = fixed(rl.requests, rl.seconds);
    }
    this.policy = { ...DEFAULT_LIMITS, ...options.limits };
  }

  /** Counts one request of `caller` and says whether it may be served. */
  hit(caller: Caller, metered: boolean): LimitVerdict {
    const now = this.now();
    const windows = this.windowsFor(caller, metered);
    // Not metered (a keyed research request under `rateLimit`): the window is untouched.
    if (windows.length === 0 && this.override) {
      const [, end] = this.override.bounds(now);
      const reset = Math.max(1, Math.ceil((end - now) / 1000));
      return { allowed: true, limit: this.override.limit, remaining: this.override.limit, reset };
    }
    const states = windows.map(([id, w]) => ({ id, w, ...this.state(id, w, now) }));
    const full = states.find((s) => s.count >= s.w.limit);
    if (full) {
      return {
        allowed: false,
        limit: full.w.limit,
        remaining: 0,
        reset: full.reset,
        message: `rate limit of ${full.w.label} exceeded; retry after ${full.reset} seconds`,
      };
    }
    for (const s of states) this.counts.set(s.id, { start: s.start, count: s.count + 1 });
    // Report the window that will run out first.
    let binding = states[0] as (typeof states)[number];
    for (const s of states) if (s.w.limit - s.count - 1 < binding.w.limit - binding.count - 1) binding = s;
    return {
      allowed: true,
      limit: binding.w.limit,
      remaining: binding.w.limit - binding.count - 1,
      reset: binding.reset,
    };
  }

  private windowsFor(caller: Caller, metered: boolean): [string, Window][] {
    if (this.override) {
      if (!caller.key) return [[`ip:${caller.ip}`, this.override]];
      return metered ? [[`k:${caller.key}`, this.override]] : [];
    }
    if (!caller.key) return [[`ip:${caller.ip}`, fixed(this.policy.anonymousPerMinute, 60)]];
    const list: [string, Window][] = [[`k:${caller.key}`, fixed(this.policy.keyPerMinute, 60)]];
    if (metered) list.push([`m:${caller.key}`, monthly(this.policy.keyPerMonth)]);
    return list;
  }

  private state(id: string, w: Window, now: number): { start: number; count: number; reset: number } {
    const [start, end] = w.bounds(now);
    const entry = this.counts.get(id);
    const count = entry && entry.start === start ? entry.count : 0;
    return { start, count, reset: Math.max(1, Math.ceil((end - now) / 1000)) };
  }
}
