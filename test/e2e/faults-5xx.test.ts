/**
 * Fault matrix, 5xx: 500, 502 with an HTML page, 503 with and without Retry-After,
 * run in-process: exit 6 after the retries, one readable error line naming
 * the request id (the envelope itself with -o json), no stack trace, bounded time; a
 * retry that succeeds prints the data with the notice on stderr.
 */
import { describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { FakeClock } from "../http/fake-clock.js";
import {
  errorLineOf,
  faults,
  PEPTIDE,
  requestIdOf,
  retryNotices,
  toldWait,
  useFaultApi,
} from "../helpers/fault-api.js";

const suite = useFaultApi({ total: 6 });
const { tmp } = suite;

// Back-offs on a clock that does not wait.
const pep = (argv: readonly string[]) =>
  inProcessPep([...argv, "--base-url", suite.api.baseUrl], {
    env: tmp.env,
    deps: { clock: new FakeClock(Date.now()) },
  });
const getPeptide = ["peptides", "get", "bpc-157", "-o", "table"];
const listStudies = ["studies", "list", "-o", "csv", "--limit", "4"];

describe("5xx", () => {
  it("500 with the envelope: retried with backoff, then exit 6 naming the request", async () => {
    suite.api.fault("peptide", faults.status(500));
    const r = await pep([...getPeptide, "--retries", "1"]);
    expect(r.code, r.err).toBe(6);
    expect(suite.api.hits("peptide")).toBe(2);
    expect(retryNotices(r.err)).toHaveLength(1);
    expect(retryNotices(r.err)[0]).toMatch(/^server error \(HTTP 500\); retrying in /);
    expect(toldWait(r.err)).toBeLessThanOrEqual(0.5);
    expect(errorLineOf(r.err)).toBe(
      `error: Server trouble 500 (HTTP 500, internal_error, request ${requestIdOf(suite.api.requests.length - 1)})`,
    );
  });

  it("502 with an HTML page: exit 6, one line naming the status, the content type and the request; no HTML echoed", async () => {
    suite.api.fault(undefined, faults.badGatewayHtml());
    const r = await pep([...listStudies, "--retries", "1"]);
    expect(r.code, r.err).toBe(6);
    expect(suite.api.hits(undefined)).toBe(2);
    expect(errorLineOf(r.err)).toBe(
      `error: the server answered HTTP 502 with a non-JSON body (text/html) (HTTP 502, request ${requestIdOf(suite.api.requests.length - 1)})`,
    );
    expect(r.err).not.toMatch(/<html|nginx/i);
    expect(r.out).toBe("");
  });

  it("503 with Retry-After: waits as told, then exit 6", async () => {
    suite.api.fault("peptide", faults.status(503, "1"));
    const r = await pep([...getPeptide, "--retries", "1"]);
    expect(r.code, r.err).toBe(6);
    expect(retryNotices(r.err)).toEqual(["service unavailable (HTTP 503); retrying in 1.0s (1/1)"]);
    expect(errorLineOf(r.err)).toMatch(
      /^error: Server trouble 503 \(HTTP 503, service_unavailable, request req_fault_\d+\)$/,
    );
  });

  it("503 without Retry-After: exponential backoff, each wait told, then exit 6", async () => {
    suite.api.fault(undefined, faults.status(503));
    const r = await pep([...listStudies, "--retries", "2"]);
    expect(r.code, r.err).toBe(6);
    expect(suite.api.hits(undefined)).toBe(3);
    const notices = retryNotices(r.err);
    expect(notices).toHaveLength(2);
    expect(notices[0]).toMatch(/\(1\/2\)$/);
    expect(notices[1]).toMatch(/\(2\/2\)$/);
    expect(errorLineOf(r.err)).toContain("(HTTP 503, service_unavailable, request ");
  });

  it("503 then 200: exit 0, the data whole, the notice on stderr", async () => {
    suite.api.fault("peptide", faults.status(503, "0"), 1);
    const r = await pep(["peptides", "get", "bpc-157", "-o", "json", "--retries", "1"]);
    expect(r.code, r.err).toBe(0);
    expect(retryNotices(r.err)).toEqual(["service unavailable (HTTP 503); retrying in 0 ms (1/1)"]);
    expect(JSON.parse(r.out)).toEqual(PEPTIDE);
  });

  it("with -o json the failure is one JSON line on stderr: the API's envelope fields, the exit code", async () => {
    suite.api.fault("peptide", faults.status(500));
    const r = await pep(["peptides", "get", "bpc-157", "-o", "json", "--retries", "0"]);
    expect(r.code, r.err).toBe(6);
    const lines = r.err.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toEqual({
      error: {
        code: "internal_error",
        message: "Server trouble 500",
        request_id: requestIdOf(suite.api.requests.length - 1),
        status: 500,
      },
      exit_code: 6,
      hints: [],
      resume: null,
    });
  });
});
