import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/http/client.js";
import { BACKOFF_CAP_MS, backoffMs, HEADER_WAIT_CAP_S, parseRateLimit, parseRetryAfter } from "../../src/http/retry.js";
import type { Client, ClientEvent, ClientOptions } from "../../src/http/client-types.js";
import { ApiError, InterruptedError, NetworkError, exitCodeFor } from "../../src/core/errors.js";
import {
  envelope,
  errorBody,
  resetConnection,
  sendJson,
  sendTruncated,
  sequence,
  startServer,
  type Handler,
  type TestServer,
} from "../helpers/server.js";
import { FakeClock, ManualTimers } from "./fake-clock.js";

let srv: TestServer | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await srv?.close();
  client = undefined;
  srv = undefined;
});

const ok: Handler = (_r, res) => sendJson(res, 200, envelope({ ok: true }));
const status =
  (code: number, headers: Record<string, string> = {}): Handler =>
  (_r, res) =>
    sendJson(res, code, errorBody(`e${code}`, `HTTP ${code} here`), headers);

async function setup(handler: Handler, opts: Partial<ClientOptions> = {}) {
  srv = await startServer(handler);
  const clock = opts.clock instanceof FakeClock ? opts.clock : new FakeClock();
  const events: ClientEvent[] = [];
  client = createClient({ baseUrl: `${srv.url}/v1`, clock, onEvent: (e) => events.push(e), ...opts });
  return { clock, events, srv, client };
}

const retries = (events: ClientEvent[]) =>
  events.filter((e): e is Extract<ClientEvent, { type: "retry" }> => e.type === "retry");

describe("429", () => {
  it("waits Retry-After seconds, then retries", async () => {
    const { clock, events, srv, client } = await setup(sequence(status(429, { "retry-after": "12" }), ok));
    const res = await client.request("/peptides");
    expect(res.data).toEqual({ ok: true });
    expect(srv.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([12_000]);
    expect(retries(events)).toEqual([
      { type: "retry", url: `${srv.url}/v1/peptides`, reason: "rate limited", waitMs: 12_000, attempt: 1, retries: 3 },
    ]);
    expect(events.filter((e) => e.type === "request").map((e) => e.type === "request" && e.attempt)).toEqual([1, 2]);
  });

  it("reads Retry-After as an HTTP date against the clock", async () => {
    const clock = new FakeClock(Date.parse("2025-03-01T10:00:00Z"));
    const { srv, client } = await setup(sequence(status(429, { "retry-after": "Sat, 01 Mar 2025 10:00:30 GMT" }), ok), {
      clock,
    });
    await client.request("/peptides");
    expect(srv.requests).toHaveLength(2);
    expect(clock.sleeps).toEqual([30_000]);
  });

  it("a wait past 5 minutes (a spent monthly quota) ends the run at once: exit 5, saying until when", async () => {
    const clock = new FakeClock(Date.parse("2025-03-01T10:00:00Z"));
    const { events, srv, client } = await setup(sequence(status(429, { "retry-after": "86400" }), ok), { clock });
    const err = await client.request("/prices").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(exitCodeFor(err)).toBe(5);
    expect((err as ApiError).hints).toEqual([
      "the API asks to wait 86400 s (until 2025-03-02T10:00:00Z); pep waits at most 300 s, so run the command again after that time",
    ]);
    expect(clock.sleeps).toEqual([]);
    expect(retries(events)).toEqual([]);
    expect(srv.requests).toHaveLength(1);
  });

  it("waits up to 5 minutes as told", async () => {
    const { clock, srv, client } = await setup(sequence(status(429, { "retry-after": "300" }), ok));
    await client.request("/peptides");
    expect(clock.sleeps).toEqual([300_000]);
    expect(srv.requests).toHaveLength(2);
  });

  it("waits 60 s when Retry-After is absent", async () => {
    const { clock, client } = await setup(sequence(status(429), ok));
    await client.request("/peptides");
    expect(clock.sleeps).toEqual([60_000]);
  });

  it("gives up after the retries with exit 5", async () => {
    const { clock, events, srv, client } = await setup(status(429, { "retry-after": "1" }), { retries: 2 });
    const err = await client.request("/peptides").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(exitCodeFor(err)).toBe(5);
    expect(srv.requests).toHaveLength(3);
    expect(clock.sleeps).toEqual([1000, 1000]);
    expect(retries(events).map((e) => `${e.attempt}/${e.retries}`)).toEqual(["1/2", "2/2"]);
  });
});

describe("5xx and network backoff", () => {
  it("503 backs off exponentially, growing within the jitter bounds", async () => {
    for (const r of [0, 0.999]) {
      const clock = new FakeClock(undefined, [r]);
      const { srv, client } = await setup(status(503), { clock, retries: 4 });
      const err = await client.request("/health").catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(exitCodeFor(err)).toBe(6);
      expect(srv.requests).toHaveLength(5);
      expect(clock.sleeps).toHaveLength(4);
      clock.sleeps.forEach((ms, i) => {
        const ceiling = 500 * 2 ** i;
        expect(ms).toBeGreaterThanOrEqual(ceiling / 2);
        expect(ms).toBeLessThanOrEqual(ceiling);
      });
      if (r === 0) expect(clock.sleeps).toEqual([250, 500, 1000, 2000]);
      await client.close();
      await srv.close();
    }
    client = undefined;
    srv = undefined;
  });

  it("caps the backoff and keeps it inside [ceiling/2, ceiling]", () => {
    for (let retry = 1; retry <= 20; retry++) {
      for (const r of [0, 0.25, 0.5, 0.999]) {
        const ms = backoffMs(retry, () => r);
        const ceiling = Math.min(BACKOFF_CAP_MS, 500 * 2 ** (retry - 1));
        expect(ms).toBeGreaterThanOrEqual(ceiling / 2);
        expect(ms).toBeLessThanOrEqual(ceiling);
      }
    }
    expect(backoffMs(30, () => 0.999)).toBeLessThanOrEqual(20_000);
  });

  it("honours Retry-After on a 503", async () => {
    const { clock, client } = await setup(sequence(status(503, { "retry-after": "7" }), ok));
    await client.request("/health");
    expect(clock.sleeps).toEqual([7000]);
  });

  it("retries other 5xx and a reset connection", async () => {
    const { events, srv, client } = await setup(sequence(status(500), (_r, res) => resetConnection(res), ok));
    const res = await client.request("/peptides");
    expect(res.status).toBe(200);
    expect(srv.requests).toHaveLength(3);
    expect(retries(events).map((e) => e.reason)).toEqual(["server error (HTTP 500)", "connection reset"]);
  });

  it("retries a 200 whose body was cut short", async () => {
    const body = JSON.stringify(envelope([{ id: 1 }, { id: 2 }]));
    const { events, srv, client } = await setup(sequence((_r, res) => sendTruncated(res, 200, body, 10), ok));
    const res = await client.request("/peptides");
    expect(res.data).toEqual({ ok: true });
    expect(srv.requests).toHaveLength(2);
    expect(retries(events).map((e) => e.reason)).toEqual(["response cut short"]);
  });

  it("retries 0 means a single request", async () => {
    const { clock, events, srv, client } = await setup(status(503), { retries: 0 });
    await expect(client.request("/health")).rejects.toBeInstanceOf(ApiError);
    expect(srv.requests).toHaveLength(1);
    expect(clock.sleeps).toEqual([]);
    expect(retries(events)).toEqual([]);
  });

  it("never retries 4xx other than 429", async () => {
    for (const code of [400, 401, 403, 404]) {
      const { srv, client } = await setup(status(code));
      await expect(client.request("/x")).rejects.toMatchObject({ status: code });
      expect(srv.requests).toHaveLength(1);
      await client.close();
      await srv.close();
    }
    client = undefined;
    srv = undefined;
  });

  it("an abort during the wait stops at once with InterruptedError", async () => {
    const ac = new AbortController();
    const clock = new FakeClock();
    const realSleep = clock.sleep.bind(clock);
    clock.sleep = (ms, signal) => {
      ac.abort();
      return realSleep(ms, signal);
    };
    const { srv, client } = await setup(status(503), { clock });
    const err = await client.request("/health", { signal: ac.signal }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InterruptedError);
    expect(srv.requests).toHaveLength(1);
  });

  it("a retried timeout ends as a timeout NetworkError", async () => {
    // The server never answers; each attempt's timeout runs out once the server has it.
    const timers = new ManualTimers();
    const { srv, client } = await setup(
      () => {
        timers.fire();
      },
      { timeoutMs: 60, retries: 1, timers },
    );
    const err = await client.request("/peptides").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NetworkError);
    expect((err as NetworkError).kind).toBe("timeout");
    expect(srv.requests).toHaveLength(2);
  });
});

describe("pacing on RateLimit-Remaining: 0", () => {
  const limited =
    (remaining: string, reset: string): Handler =>
    (_r, res) =>
      sendJson(res, 200, envelope([]), {
        "ratelimit-limit": "60",
        "ratelimit-remaining": remaining,
        "ratelimit-reset": reset,
      });

  it("holds the next request until the reset, with a pace event", async () => {
    const { clock, events, srv, client } = await setup(sequence(limited("0", "5"), ok));
    await client.request("/vendors");
    expect(clock.sleeps).toEqual([]);
    await client.request("/vendors");
    expect(clock.sleeps).toEqual([5000]);
    expect(events.filter((e) => e.type === "pace")).toEqual([
      { type: "pace", url: `${srv.url}/v1/vendors`, waitMs: 5000 },
    ]);
    expect(srv.requests).toHaveLength(2);
  });

  it("does not sit through a reset past 5 minutes: the request goes out and the server decides", async () => {
    const { clock, srv, client } = await setup(sequence(limited("0", "7200"), ok));
    await client.request("/vendors");
    await client.request("/vendors");
    expect(clock.sleeps).toEqual([]);
    expect(srv.requests).toHaveLength(2);
  });

  it("reads an epoch reset against the clock", async () => {
    const clock = new FakeClock(1_700_000_000_000);
    const { client } = await setup(sequence(limited("0", "1700000012"), ok), { clock });
    await client.request("/vendors");
    await client.request("/vendors");
    expect(clock.sleeps).toEqual([12_000]);
  });

  it("does not wait while requests remain, or once the reset has passed", async () => {
    const { clock, client } = await setup(sequence(limited("3", "5"), limited("0", "5"), ok));
    await client.request("/vendors");
    await client.request("/vendors");
    clock.nowMs += 6000;
    await client.request("/vendors");
    expect(clock.sleeps).toEqual([]);
  });

  it("waits for the earliest end a window's answers promise, not the last answer's whole seconds", async () => {
    const { clock, client } = await setup(sequence(limited("2", "5"), limited("1", "5"), limited("0", "5"), ok));
    await client.request("/vendors");
    clock.nowMs += 800;
    await client.request("/vendors");
    clock.nowMs += 100;
    await client.request("/vendors");
    await client.request("/vendors");
    // The first answer said the window ends within 5 s; 0.9 s of them have gone.
    expect(clock.sleeps).toEqual([4100]);
  });

  it("answers that do not count down one by one start a new window", async () => {
    const { clock, client } = await setup(sequence(limited("5", "5"), limited("0", "5"), ok));
    await client.request("/vendors");
    clock.nowMs += 800;
    // Another client took requests in between: this answer may belong to a later window.
    await client.request("/vendors");
    await client.request("/vendors");
    expect(clock.sleeps).toEqual([5000]);
  });
});

describe("header parsing", () => {
  it("Retry-After: delta, date, junk", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    expect(parseRetryAfter("120", now)).toBe(120);
    expect(parseRetryAfter("Wed, 01 Jan 2025 00:01:00 GMT", now)).toBe(60);
    expect(parseRetryAfter("Tue, 31 Dec 2024 00:00:00 GMT", now)).toBe(0);
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });

  it("Retry-After: negative and garbage are unreadable, absurd values are a year at most", () => {
    const now = Date.parse("2025-01-01T00:00:00Z");
    for (const junk of ["-5", "+5", "-1", " 12 x", "1e400", "0x10", "Infinity", "NaN", "12,5"])
      expect(parseRetryAfter(junk, now), junk).toBeUndefined();
    expect(parseRetryAfter("99999999999999", now)).toBe(HEADER_WAIT_CAP_S);
    expect(parseRetryAfter("9".repeat(400), now)).toBe(HEADER_WAIT_CAP_S);
    expect(parseRetryAfter("Fri, 31 Dec 275759 00:00:00 GMT", now)).toBe(HEADER_WAIT_CAP_S);
    expect(parseRetryAfter("Sunday, 06-Nov-94 08:49:37 GMT", now)).toBe(0);
    expect(parseRetryAfter("Wed Jan  1 00:00:30 2025", now)).toBe(30);
  });

  it("RateLimit-Reset: an absurd reset is a year at most; a value too big for a number is unreadable", () => {
    expect(parseRateLimit({ remaining: "0", reset: "99999999999999" }, 0).reset).toBe(HEADER_WAIT_CAP_S);
    expect(parseRateLimit({ remaining: "0", reset: "1e400" }, 0).reset).toBeUndefined();
    expect(parseRateLimit({ remaining: "0", reset: "-3" }, 0).reset).toBeUndefined();
  });

  it("RateLimit-*: numbers, epoch reset, junk", () => {
    expect(parseRateLimit({ limit: "60", remaining: "0", reset: "42" }, 0)).toEqual({
      limit: 60,
      remaining: 0,
      reset: 42,
    });
    expect(parseRateLimit({ reset: "1700000030" }, 1_700_000_000_000)).toEqual({
      limit: undefined,
      remaining: undefined,
      reset: 30,
    });
    expect(parseRateLimit({ limit: "x", remaining: "-1" }, 0)).toEqual({
      limit: undefined,
      remaining: undefined,
      reset: undefined,
    });
  });
});
