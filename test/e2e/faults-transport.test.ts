/**
 * Fault matrix, transport and body: a 200 that is not JSON, a body cut short, a reset
 * connection, an answer (or a body) slower than --timeout, a refused connection.
 * Run in-process: exit 6, one readable error line (with the request id
 * when the server sent one), no stack trace, bounded time. JSON of another shape:
 * faults-shapes.
 */
import { describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { errorLineOf, faults, requestIdOf, retryNotices, useFaultApi } from "../helpers/fault-api.js";
import { parseNdjson } from "../helpers/formats.js";
import { type Handler, unusedPort } from "../helpers/server.js";
import { FakeClock, ManualTimers } from "../http/fake-clock.js";

const suite = useFaultApi({ total: 6 });
const { tmp } = suite;

// Retry back-offs on a clock that does not wait; timeouts on timers a test fires.
const pep = (argv: readonly string[], baseUrl = suite.api.baseUrl, timers?: ManualTimers) =>
  inProcessPep([...argv, "--base-url", baseUrl], {
    env: tmp.env,
    deps: { clock: new FakeClock(Date.now()), ...(timers ? { timers } : {}) },
  });
const lastRequestId = () => requestIdOf(suite.api.requests.length - 1);

describe("bodies that are not the API's JSON", () => {
  it("a 200 with an HTML page: exit 6 at once (not retried), naming the content type and the request", async () => {
    suite.api.fault("peptide", faults.htmlOk());
    const r = await pep(["peptides", "get", "bpc-157", "-o", "table", "--retries", "2"]);
    expect(r.code, r.err).toBe(6);
    expect(suite.api.hits("peptide")).toBe(1);
    const line = errorLineOf(r.err);
    expect(line).toMatch(/^error: the response was not valid JSON: .* \(text\/html\)/);
    expect(line).toContain(`request ${lastRequestId()}`);
    expect(r.err).not.toContain("<html");
    expect(r.out).toBe("");
  });

  it("a body cut short: retried, then exit 6 naming the bytes received and the request", async () => {
    suite.api.fault(undefined, faults.truncated(suite.api.items));
    const r = await pep(["studies", "list", "-o", "ndjson", "--limit", "3", "--retries", "1"]);
    expect(r.code, r.err).toBe(6);
    expect(suite.api.hits(undefined)).toBe(2);
    expect(retryNotices(r.err)).toHaveLength(1);
    expect(retryNotices(r.err)[0]).toMatch(/^page 1: response cut short; retrying in /);
    const line = errorLineOf(r.err);
    // The fault sends the first 40 bytes of a body announced whole.
    expect(line).toMatch(/^error: the response body was cut short \(40 of \d+ bytes received\)/);
    expect(line).toContain(`request ${lastRequestId()}`);
    expect(r.out).toBe("");
  });

  it("a body cut short once, then whole: exit 0 and every item", async () => {
    suite.api.fault(undefined, faults.truncated(suite.api.items), 1);
    const r = await pep(["studies", "list", "-o", "ndjson", "--limit", "3", "--retries", "1"]);
    expect(r.code, r.err).toBe(0);
    expect(parseNdjson(r.out)).toEqual(suite.api.items.slice(0, 3));
    expect(retryNotices(r.err)).toHaveLength(1);
  });
});

describe("the connection itself fails", () => {
  it("a reset connection: retried, then exit 6 naming the host", async () => {
    suite.api.fault("peptide", faults.reset());
    const r = await pep(["peptides", "get", "bpc-157", "-o", "table", "--retries", "1"]);
    expect(r.code, r.err).toBe(6);
    expect(suite.api.hits("peptide")).toBe(2);
    expect(retryNotices(r.err)[0]).toMatch(/^connection reset; retrying in /);
    expect(errorLineOf(r.err)).toBe(`error: the connection to 127.0.0.1:${suite.api.port} was reset`);
  });

  it("an answer slower than --timeout: exit 6 saying how to allow longer, in bounded time", async () => {
    // The answer would take 5 s; each attempt's timeout runs out once the server has the request.
    const timers = new ManualTimers();
    const slow = faults.slow(5000, suite.api.items);
    suite.api.fault(undefined, (req, res, raw) => {
      timers.fire();
      return slow(req, res, raw);
    });
    const started = Date.now();
    const r = await pep(["studies", "list", "-o", "csv", "--timeout", "0.3", "--retries", "1"], undefined, timers);
    expect(r.code, r.err).toBe(6);
    expect(timers.set).toEqual([300, 300]);
    expect(Date.now() - started).toBeLessThan(4000);
    expect(suite.api.hits(undefined)).toBe(2);
    expect(retryNotices(r.err)[0]).toMatch(/^page 1: timed out; retrying in /);
    expect(errorLineOf(r.err)).toBe(
      `error: no complete answer from 127.0.0.1:${suite.api.port} within 0.3 s; allow longer with --timeout <seconds>`,
    );
    expect(r.out).toBe("");
  });

  it("a body that dribbles past --timeout: exit 6, naming the request whose headers did arrive", async () => {
    // The timeout runs out once the headers and the first bytes of the body are with pep.
    const timers = new ManualTimers();
    suite.api.fault(
      "peptide",
      afterFirstBytes(faults.dribble(), () => timers.fire()),
    );
    const started = Date.now();
    const r = await pep(
      ["peptides", "get", "bpc-157", "-o", "table", "--timeout", "0.5", "--retries", "0"],
      undefined,
      timers,
    );
    expect(r.code, r.err).toBe(6);
    expect(timers.set).toEqual([500]);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(errorLineOf(r.err)).toBe(
      `error: no complete answer from 127.0.0.1:${suite.api.port} within 0.5 s; allow longer with --timeout <seconds> (request ${lastRequestId()})`,
    );
  });

  it("a refused connection: retried, then exit 6 naming the host", async () => {
    const port = await unusedPort();
    const r = await pep(["studies", "list", "-o", "csv", "--retries", "1"], `http://127.0.0.1:${port}/v1`);
    expect(r.code, r.err).toBe(6);
    expect(retryNotices(r.err)[0]).toMatch(/^page 1: connection refused; retrying in /);
    expect(errorLineOf(r.err)).toBe(`error: could not connect to 127.0.0.1:${port}: connection refused`);
  });
});

/**
 * Runs `handler`, then `then` once what it wrote so far has reached the in-process client:
 * on loopback the bytes are in the client's socket when the write completes, and the
 * client reads them in the next poll phase, before two turns of setImmediate have passed.
 */
function afterFirstBytes(handler: Handler, then: () => void): Handler {
  return async (req, res, raw) => {
    await handler(req, res, raw);
    res.write(" ", () => setImmediate(() => setImmediate(then)));
  };
}
