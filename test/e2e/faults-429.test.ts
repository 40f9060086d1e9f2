/**
 * Fault matrix, 429 Too Many Requests with Retry-After in seconds, as an HTTP date and
 * absent (60 s: told by the real executable, then Ctrl-C; waited with an injected clock
 * in-process), the other cases in-process: exit 5 after the retries, one readable
 * error line naming the request id, no stack trace, bounded time; a retry that
 * succeeds prints the data with the wait told on stderr.
 */
import { describe, expect, it } from "vitest";
import { testIO } from "../../src/core/io.js";
import { run } from "../../src/cli/main.js";
import { inProcessPep } from "../helpers/cli.js";
import {
  errorLineOf,
  faults,
  PEPTIDE,
  requestIdOf,
  retryNotices,
  toldWait,
  useFaultApi,
} from "../helpers/fault-api.js";
import { parseCsv } from "../helpers/formats.js";
import { startPep } from "../helpers/live-pep.js";
import { FakeClock } from "../http/fake-clock.js";

const suite = useFaultApi({ total: 6 });
const { tmp } = suite;

/** Waits on a clock that records them instead of sleeping (`clock.sleeps`). */
let clock = new FakeClock(Date.now());
const pep = (argv: readonly string[]) => {
  clock = new FakeClock(Date.now());
  return inProcessPep([...argv, "--base-url", suite.api.baseUrl], { env: tmp.env, deps: { clock } });
};
const getPeptide = ["peptides", "get", "bpc-157", "-o", "table"];
const listStudies = ["studies", "list", "-o", "csv", "--limit", "4"];

describe("429 Too Many Requests", () => {
  it("Retry-After in seconds: waits as told, retries, then exits 5 with the request id", async () => {
    suite.api.fault("peptide", faults.rateLimited("1"));
    const started = Date.now();
    const r = await pep([...getPeptide, "--retries", "1"]);
    expect(r.code, r.err).toBe(5);
    expect(suite.api.hits("peptide")).toBe(2);
    expect(retryNotices(r.err)).toEqual(["rate limited; retrying in 1.0s (1/1)"]);
    expect(clock.sleeps).toEqual([1000]);
    const line = errorLineOf(r.err);
    expect(line).toBe(
      `error: Too many requests (HTTP 429, rate_limited, request ${requestIdOf(suite.api.requests.length - 1)})`,
    );
    expect(r.out).toBe("");
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("Retry-After as an HTTP date: the wait is read against the clock", async () => {
    suite.api.fault(undefined, faults.rateLimited(new Date(Date.now() + 2000).toUTCString()));
    const r = await pep([...listStudies, "--retries", "1"]);
    expect(r.code, r.err).toBe(5);
    expect(suite.api.hits(undefined)).toBe(2);
    const wait = toldWait(r.err);
    expect(wait).toBeGreaterThanOrEqual(0);
    expect(wait).toBeLessThanOrEqual(3);
    expect(errorLineOf(r.err)).toMatch(/\(HTTP 429, rate_limited, request req_fault_\d+\)$/);
    expect(r.out).toBe("");
  });

  it("Retry-After of a day (a spent quota): exit 5 at once, saying until when to wait, nothing retried", async () => {
    suite.api.fault("peptide", faults.rateLimited("86400"));
    const r = await pep([...getPeptide, "--retries", "3"]);
    expect(r.code, r.err).toBe(5);
    expect(suite.api.hits("peptide")).toBe(1);
    expect(retryNotices(r.err)).toEqual([]);
    expect(errorLineOf(r.err)).toMatch(/\(HTTP 429, rate_limited, request req_fault_\d+\)$/);
    expect(r.err).toMatch(
      /^hint: the API asks to wait 86400 s \(until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\); pep waits at most 300 s, so run the command again after that time$/m,
    );
  });

  for (const [status, code] of [
    [429, 5],
    [503, 6],
  ] as const) {
    it(`an absurd Retry-After on a ${status} (99999999999999 s, the year 275759): exit ${code} at once, the hint says a year or more`, async () => {
      for (const value of ["99999999999999", "Fri, 31 Dec 275759 00:00:00 GMT", "1".repeat(400)]) {
        suite.api.heal();
        suite.api.fault("peptide", status === 429 ? faults.rateLimited(value) : faults.status(503, value));
        const r = await pep([...getPeptide, "--retries", "3"]);
        expect(r.code, r.err).toBe(code);
        expect(suite.api.hits("peptide")).toBe(1);
        expect(r.err).not.toMatch(/unexpected|bug|Invalid time/);
        expect(errorLineOf(r.err)).toMatch(new RegExp(`\\(HTTP ${status}, `));
        expect(r.err).toMatch(
          /^hint: the API asks to wait a year or more \(until after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\); pep waits at most 300 s/m,
        );
      }
    });
  }

  it("a negative or garbage Retry-After is read as absent: the 60 s default, told and cut short by --retries 0", async () => {
    for (const value of ["-5", "soon", "1e400", "-99999999999999", "0x10"]) {
      suite.api.heal();
      suite.api.fault("peptide", faults.rateLimited(value));
      const r = await pep([...getPeptide, "--retries", "0"]);
      expect(r.code, `${value}: ${r.err}`).toBe(5);
      expect(r.err).not.toMatch(/unexpected|bug|Invalid time/);
    }
  });

  it("no Retry-After and --retries 0: exits 5 at once, nothing retried", async () => {
    suite.api.fault("peptide", faults.rateLimited());
    const r = await pep([...getPeptide, "--retries", "0"]);
    expect(r.code, r.err).toBe(5);
    expect(suite.api.hits("peptide")).toBe(1);
    expect(retryNotices(r.err)).toEqual([]);
    expect(errorLineOf(r.err)).toContain("HTTP 429");
  });

  it("no Retry-After: the real executable tells a 60 s wait, and Ctrl-C during it exits 130", async () => {
    suite.api.fault("peptide", faults.rateLimited());
    const live = startPep([...getPeptide, "--retries", "1", "--base-url", suite.api.baseUrl], { env: tmp.env });
    await live.waitForStderr(/retrying in/);
    expect(retryNotices(live.err())).toEqual(["rate limited; retrying in 60s (1/1)"]);
    live.child.kill("SIGINT");
    const r = await live.exit();
    expect(r.code).toBe(130);
    expect(r.err).toMatch(/^interrupted$/m);
    expect(suite.api.hits("peptide")).toBe(1);
  });

  it("no Retry-After: in-process with an injected clock, waits 60 s then succeeds", async () => {
    suite.api.fault("peptide", faults.rateLimited(), 1);
    const clock = new FakeClock(Date.now());
    const io = testIO({ env: tmp.env });
    const code = await run([...getPeptide, "-o", "json", "--retries", "1", "--base-url", suite.api.baseUrl], {
      io,
      clock,
    });
    expect(code, io.err()).toBe(0);
    expect(clock.sleeps).toEqual([60_000]);
    expect(io.err()).toContain("rate limited; retrying in 60s (1/1)");
    expect(JSON.parse(io.out())).toEqual(PEPTIDE);
  });

  it("429 then 200: exit 0, the data printed, the wait told on stderr", async () => {
    suite.api.fault(undefined, faults.rateLimited("0"), 1);
    const r = await pep([...listStudies, "--retries", "2"]);
    expect(r.code, r.err).toBe(0);
    expect(retryNotices(r.err)).toEqual(["page 1: rate limited; retrying in 0 ms (1/2)"]);
    expect(parseCsv(r.out).map((row) => row.id)).toEqual(suite.api.items.slice(0, 4).map((i) => i.id));
  });
});
