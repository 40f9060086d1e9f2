/**
 * The call queue of `pep mcp` on its own, with a clock the test moves: as many calls run
 * as there are slots; the others are served in turn across sessions; a call that cannot
 * start and finish by its deadline is answered at once (Busy) with when to call again.
 */
import { describe, expect, it } from "vitest";
import { Busy, CallQueue } from "../../src/mcp/queue.js";

const never = new AbortController().signal;

describe("call queue", () => {
  it("serves sessions in turn: one client's burst does not starve another's single call", async () => {
    let now = 0;
    const q = new CallQueue(1, () => now);
    const order: string[] = [];
    const take = (session: string, name: string) =>
      q
        .acquire(session, 1_000_000, () => {}, never)
        .then((release) => {
          order.push(name);
          return release;
        });
    const first = await take("a", "a0");
    const burst = [1, 2, 3, 4].map((i) => take("a", `a${i}`));
    const single = take("b", "b0");
    now += 10;
    first();
    let releases = [...burst, single];
    for (let i = 0; i < 5; i++) {
      const started = await Promise.race(releases.map((p) => p.then((r) => ({ p, r }))));
      releases = releases.filter((p) => p !== started.p);
      now += 10;
      started.r();
    }
    // b's call runs second, not after a's whole burst.
    expect(order.slice(0, 3)).toEqual(["a0", "a1", "b0"]);
  });

  it("a call that cannot be done by its deadline is answered at once, with how many are ahead and when to call again", async () => {
    let now = 0;
    const q = new CallQueue(2, () => now);
    const first = await q.acquire("s", 5000, () => {}, never);
    now = 4000;
    first(); // a first call took 4 s: the mean is 4 s, and both slots are open
    const a = await q.acquire("s", now + 5000, () => {}, never);
    const b = await q.acquire("s", now + 5000, () => {}, never);
    now = 8000;
    a(); // 4 s again
    const c = await q.acquire("s", now + 5000, () => {}, never); // a free slot: starts at once
    const told: string[] = [];
    // Two running (ages 4 s and 0 s, mean 4 s): the next starts in about 0 s + 4 s to run = fits in 5 s...
    const d = q.acquire("s", now + 5000, (m) => told.push(m), never);
    // ...but one after it would start in about 4 s and run 4 s more: past its 5 s.
    const e = q.acquire("s", now + 5000, () => {}, never);
    await expect(e).rejects.toBeInstanceOf(Busy);
    const busy = (await e.catch((x: unknown) => x)) as Busy;
    expect(busy.ahead).toBe(1);
    expect(busy.retryAt).toBeGreaterThan(now);
    expect(told[0]).toMatch(/waiting for a free connection to the API: 0 calls ahead, 2 running/);
    b();
    (await d)();
    c();
  });

  it("until a first call is done one runs alone; the others wait, told why, and none is refused as busy", async () => {
    let now = 0;
    const q = new CallQueue(4, () => now);
    const told: string[] = [];
    const first = await q.acquire("s", 10_000, () => {}, never);
    const started: number[] = [];
    const rest = [1, 2, 3, 4, 5].map((i) =>
      q
        .acquire("s", 10_000, (m) => told.push(m), never)
        .then((release) => {
          started.push(i);
          return release;
        }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([]);
    expect(told[0]).toMatch(/^waiting while the first call learns the API's rate limit: 0 calls ahead, 1 running/);
    now = 3000;
    first(); // 3 s: four may now run at once, and each is expected to take 3 s
    await new Promise((resolve) => setImmediate(resolve));
    expect(started).toEqual([1, 2, 3, 4]);
    const releases = await Promise.all(rest.slice(0, 4));
    now = 6000;
    for (const r of releases) r();
    (await rest[4]!)();
    expect(started).toEqual([1, 2, 3, 4, 5]);
  });

  it("a waiting call whose client cancels leaves the queue", async () => {
    const q = new CallQueue(1, () => 0);
    const first = await q.acquire("s", 1_000_000, () => {}, never);
    const cancel = new AbortController();
    const waiting = q.acquire("s", 1_000_000, () => {}, cancel.signal);
    cancel.abort(new Error("cancelled"));
    await expect(waiting).rejects.toThrow("cancelled");
    first();
    // The slot is free for the next caller.
    (await q.acquire("s", 1_000_000, () => {}, never))();
  });
});
