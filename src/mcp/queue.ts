/**
 * The turn of each tool call. As many calls run at once as the API client has
 * connections; the others wait here, where their wait is counted and told, instead of in
 * the connection pool, where it was neither:
 * - a call's bound (`--max-wait`) runs from its arrival, queueing included;
 * - a call that cannot start and finish in time is answered at once, with when to call
 *   again (the time the calls ahead of it should be done, from how long calls take);
 * - calls are served in turn across sessions (each session's own calls in order), so one
 *   client's burst does not starve another's single call;
 * - a waiting call is told its place and expected start each second (a progress
 *   notification when it carried a progress token);
 * - until a first call is done, one runs alone: the API client sends one request alone
 *   until it has learnt the rate limit from an answer, so calls started beside it would
 *   only sit in the client, counted as running, and make the queue refuse calls it could
 *   serve. They wait here instead, told why, and none is refused as busy before a call's
 *   duration is known, unless its bound has passed.
 */

/** A call that cannot start in time. */
export class Busy extends Error {
  constructor(
    /** When a call made then should start at once (ms since the epoch). */
    readonly retryAt: number,
    /** Calls that would run before it. */
    readonly ahead: number,
    /** Calls running when it was answered. */
    readonly running: number,
  ) {
    super("busy");
  }
}

interface Waiter {
  session: string;
  deadline: number;
  arrived: number;
  tell: (message: string) => void;
  start: () => void;
  fail: (err: unknown) => void;
}

/** Weight of the newest call in the running mean of call durations. */
const EWMA = 0.3;
const TICK_MS = 1000;

const secondsOf = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

export class CallQueue {
  private readonly running = new Map<number, number>(); // call -> start time
  private readonly waiting = new Map<string, Waiter[]>(); // session -> its calls, in order
  private lastServed: string | undefined;
  private meanMs: number | undefined;
  private nextId = 0;
  private timer: NodeJS.Timeout | undefined;
  /** A call has been done: the client knows the rate limit and the queue how long calls take. */
  private warm = false;

  constructor(
    private readonly slots: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Waits for the call's turn; resolves to the function that ends it. Rejects with Busy
   * when it cannot be done by `deadline`, or with the signal's reason when aborted.
   */
  acquire(
    session: string,
    deadline: number,
    tell: (message: string) => void,
    signal: AbortSignal,
  ): Promise<() => void> {
    return new Promise((resolve, reject) => {
      const id = this.nextId++;
      const start = () => {
        this.running.set(id, this.now());
        resolve(() => this.release(id));
      };
      if (this.running.size < this.capacity() && this.waiting.size === 0) return start();
      const waiter: Waiter = { session, deadline, arrived: this.now(), tell, start, fail: reject };
      const own = this.waiting.get(session) ?? [];
      own.push(waiter);
      this.waiting.set(session, own);
      if (this.judge(waiter)) return;
      tell(this.place(waiter));
      signal.addEventListener("abort", () => this.drop(waiter) && reject(signal.reason), { once: true });
      this.timer ??= setInterval(() => this.tick(), TICK_MS);
      this.timer.unref();
    });
  }

  private release(id: number): void {
    const started = this.running.get(id);
    if (started === undefined) return;
    this.running.delete(id);
    this.warm = true;
    const took = this.now() - started;
    this.meanMs = this.meanMs === undefined ? took : this.meanMs + EWMA * (took - this.meanMs);
    this.serve();
  }

  /** Calls that may run at once: one until a first call is done, then one per connection. */
  private capacity(): number {
    return this.warm ? this.slots : 1;
  }

  /** Where a waiting call stands, in words. */
  private place(w: Waiter): string {
    const ahead = this.ahead(w);
    const calls = `${ahead} call${ahead === 1 ? "" : "s"} ahead`;
    const waited = `waited ${secondsOf(this.now() - w.arrived)} s`;
    if (!this.warm)
      return `waiting while the first call learns the API's rate limit: ${calls}, ${this.running.size} running (${waited})`;
    const inS = secondsOf(this.expectedStart(ahead) - this.now());
    return `waiting for a free connection to the API: ${calls}, ${this.running.size} running; expected to start in about ${inS} s (${waited})`;
  }

  /** Starts waiting calls while slots are free, one session after another. */
  private serve(): void {
    while (this.running.size < this.capacity()) {
      const next = this.nextSession();
      if (next === undefined) break;
      const own = this.waiting.get(next)!;
      const w = own.shift()!;
      if (own.length === 0) this.waiting.delete(next);
      this.lastServed = next;
      w.start();
    }
    for (const own of [...this.waiting.values()]) for (const w of [...own]) this.judge(w);
    if (this.waiting.size === 0 && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** The session served after the last one served, in the order sessions first waited. */
  private nextSession(): string | undefined {
    const sessions = [...this.waiting.keys()];
    if (sessions.length === 0) return undefined;
    const after = this.lastServed === undefined ? -1 : sessions.indexOf(this.lastServed);
    return after === -1 ? sessions[0] : sessions[(after + 1) % sessions.length];
  }

  private drop(w: Waiter): boolean {
    const own = this.waiting.get(w.session);
    const at = own?.indexOf(w) ?? -1;
    if (!own || at === -1) return false;
    own.splice(at, 1);
    if (own.length === 0) this.waiting.delete(w.session);
    return true;
  }

  /** Calls served before `w`: its own session's before it, and the other sessions' in turn. */
  private ahead(w: Waiter): number {
    const own = this.waiting.get(w.session) ?? [];
    const place = own.indexOf(w);
    let n = place;
    for (const [s, calls] of this.waiting) if (s !== w.session) n += Math.min(calls.length, place + 1);
    return n;
  }

  /** When the call `ahead` places back should start, from the running calls and the mean duration. */
  private expectedStart(ahead: number): number {
    const now = this.now();
    const mean = this.meanMs;
    // What is left of each running call: the mean less its age, or (no call done yet) as long again.
    const left = [...this.running.values()]
      .map((started) => {
        const age = now - started;
        return mean === undefined ? age : Math.max(0, mean - age);
      })
      .sort((a, b) => a - b);
    const slotFree = left[ahead % this.slots] ?? 0;
    return now + slotFree + Math.floor(ahead / this.slots) * (mean ?? 0);
  }

  /** Answers at once a call that can no longer be done in time; true when it did. */
  private judge(w: Waiter): boolean {
    const ahead = this.ahead(w);
    const start = this.expectedStart(ahead);
    const now = this.now();
    // Before a call is done there is no duration to judge by: only a bound passed refuses.
    if (now >= w.deadline || (this.warm && start + (this.meanMs ?? 0) > w.deadline)) {
      this.drop(w);
      w.fail(new Busy(start, ahead, this.running.size));
      return true;
    }
    return false;
  }

  /** Each second: calls that can no longer be done in time are answered; the others told where they stand. */
  private tick(): void {
    for (const own of [...this.waiting.values()])
      for (const w of [...own]) {
        if (this.judge(w)) continue;
        w.tell(this.place(w));
      }
  }
}

/** One queue for the whole server (every session), made on the first call with the client's connection count. */
export function sharedQueue(now: () => number): () => Promise<CallQueue> {
  let made: Promise<CallQueue> | undefined;
  return () => {
    made ??= import("../http/client.js").then(({ DEFAULT_CONNECTIONS }) => new CallQueue(DEFAULT_CONNECTIONS, now));
    return made;
  };
}
