/**
 * Fault matrix, lists cut short: page 1 arrives, a later page fails. The items already
 * printed are whole in every format (every NDJSON and CSV line parses, table rows are
 * not lost, a JSON array is left visibly unfinished), stderr names the command that
 * resumes from the failed page's cursor, and that command, run against a healthy
 * server, prints exactly the rest. A cursor that repeats, empty pages without end and
 * "more remain" without a cursor stop the run (exit 6) instead of looping or passing an
 * incomplete list for a whole one. How the resume command is built: faults-resume.
 */
import { describe, expect, it } from "vitest";
import { runPep, inProcessPep } from "../helpers/cli.js";
import { errorLineOf, failThenResume, faults, type Item, retryNotices, useFaultApi } from "../helpers/fault-api.js";
import { parseCsv, parseNdjson } from "../helpers/formats.js";
import { sendJson, startServer } from "../helpers/server.js";

const suite = useFaultApi({ total: 7 });
const { tmp } = suite;

const withBase = (argv: readonly string[]) => [...argv, "--base-url", suite.api.baseUrl];
const pep = (argv: readonly string[]) => inProcessPep(argv, { env: tmp.env });
const ids = (items: readonly unknown[]) => items.map((i) => (i as Item).id);

const cutShortThenResume = (
  argv: readonly string[],
  failAt: number,
  fault = faults.status(503),
  resumeIn: "process" | "spawn" = "process",
) => failThenResume(suite.api, tmp.env, argv, failAt, fault, resumeIn);

describe("a list cut short mid-way", () => {
  it("ndjson: whole lines up to the failed page, and the resume command prints exactly the rest", async () => {
    const argv = ["studies", "list", "-o", "ndjson", "--all", "--page-size", "2", "--retries", "0"];
    const { first, resume, rest, cursor } = await cutShortThenResume(argv, 2, faults.status(503), "spawn");
    expect(first.code, first.err).toBe(6);
    expect(first.out.endsWith("\n")).toBe(true);
    expect(parseNdjson(first.out)).toEqual(suite.api.items.slice(0, 2));
    // -o ndjson tells the failure as one JSON object: the API's envelope fields, the exit
    // code and the command that resumes the run.
    expect(errorLineOf(first.err)).toMatch(
      /^error: Server trouble 503 \(HTTP 503, service_unavailable, request req_fault_\d+\)$/,
    );
    expect(JSON.parse(first.err.split("\n").find((l) => l.startsWith("{"))!)).toEqual({
      error: {
        code: "service_unavailable",
        message: "Server trouble 503",
        request_id: expect.stringMatching(/^req_fault_\d+$/),
        status: 503,
      },
      exit_code: 6,
      hints: [],
      resume: expect.stringMatching(/^pep .* --cursor=\S+$/),
    });
    expect(resume).toEqual([...withBase(argv), `--cursor=${cursor}`]);
    expect(rest.code, rest.err).toBe(0);
    expect(parseNdjson(rest.out)).toEqual(suite.api.items.slice(2));
  });

  it("csv after a reset on page 3: every row parses, and resuming completes the list", async () => {
    const argv = ["studies", "list", "-o", "csv", "--all", "--page-size", "2", "--retries", "0"];
    const { first, rest } = await cutShortThenResume(argv, 4, faults.reset());
    expect(first.code, first.err).toBe(6);
    expect(first.out.endsWith("\r\n")).toBe(true);
    expect(parseCsv(first.out).map((r) => r.id)).toEqual(ids(suite.api.items.slice(0, 4)));
    expect(errorLineOf(first.err)).toMatch(/was reset$/);
    expect(rest.code, rest.err).toBe(0);
    expect(parseCsv(rest.out).map((r) => r.id)).toEqual(ids(suite.api.items.slice(4)));
  });

  it("json: the array is left unfinished (never passes for a whole list), the items in it are whole", async () => {
    const argv = ["studies", "list", "-o", "json", "--all", "--page-size", "2", "--retries", "0"];
    const { first, rest } = await cutShortThenResume(argv, 2, faults.status(500));
    expect(first.code, first.err).toBe(6);
    expect(() => JSON.parse(first.out)).toThrow();
    expect(JSON.parse(`${first.out}\n]`)).toEqual(suite.api.items.slice(0, 2));
    // -o json prints the API's envelope as the error line, then the resume command.
    expect(JSON.parse(first.err.split("\n")[0]!)).toMatchObject({ error: { code: "internal_error" } });
    expect(JSON.parse(rest.out)).toEqual(suite.api.items.slice(2));
  });

  it("table: the rows already fetched are printed before the error, so resuming loses none", async () => {
    const argv = [
      "studies",
      "list",
      "-o",
      "table",
      "--fields",
      "id,title",
      "--all",
      "--page-size",
      "2",
      "--retries",
      "0",
    ];
    const { first, rest } = await cutShortThenResume(argv, 4);
    expect(first.code, first.err).toBe(6);
    const printed = (out: string) =>
      out
        .split("\n")
        .map((l) => l.split(/\s+/)[0])
        .filter((w) => w?.startsWith("pmid-"));
    expect(printed(first.out)).toEqual(ids(suite.api.items.slice(0, 4)));
    expect(printed(rest.out)).toEqual(ids(suite.api.items.slice(4)));
  });

  it("a failed page that succeeds on retry: exit 0, every item once, the notice on stderr", async () => {
    suite.api.fault(suite.api.cursorAt(2), faults.status(503, "0"), 1);
    const r = await pep(withBase(["studies", "list", "-o", "ndjson", "--all", "--page-size", "2", "--retries", "1"]));
    expect(r.code, r.err).toBe(0);
    expect(parseNdjson(r.out)).toEqual(suite.api.items);
    // The retry line names the page it holds up: the second one (items 3 and 4).
    expect(retryNotices(r.err)).toEqual(["page 2: service unavailable (HTTP 503); retrying in 0 ms (1/1)"]);
    expect(r.err).not.toContain("to resume");
  });
});

describe("a cursor that repeats", () => {
  it("stops with exit 6 after one request for it, the items before it whole, no endless loop", async () => {
    suite.api.fault(suite.api.cursorAt(2), faults.repeatCursor(suite.api.items));
    const started = Date.now();
    const r = await pep(withBase(["studies", "list", "-o", "ndjson", "--all", "--page-size", "2"]));
    expect(r.code, r.err).toBe(6);
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(suite.api.hits(suite.api.cursorAt(2))).toBe(1);
    expect(errorLineOf(r.err)).toBe("error: the API returned the same cursor twice; stopping to avoid an endless loop");
    // Resuming would only meet the loop again, so no resume command is offered.
    expect(r.err).not.toContain("to resume");
    expect(parseNdjson(r.out)).toEqual(suite.api.items.slice(0, 2));
  });

  it("fresh cursors on empty pages without end: stops after a bounded number of requests, exit 6", async () => {
    const srv = await startServer((req, res) =>
      sendJson(res, 200, { data: [], pagination: { next_cursor: `e${req.index}`, has_more: true }, meta: {} }),
    );
    try {
      const r = await runPep(["studies", "list", "-o", "ndjson", "--all", "--base-url", `${srv.url}/v1`], {
        env: tmp.env,
      });
      expect(r.code, r.err).toBe(6);
      expect(srv.requests.length).toBeLessThanOrEqual(10);
      expect(errorLineOf(r.err)).toMatch(
        /^error: 10 pages in a row came back empty while the API said more remain; stopping to avoid an endless loop \(HTTP 200\)$/,
      );
    } finally {
      await srv.close();
    }
  });
});

describe("a page that says more remain but has no cursor", () => {
  it("prints its items, then exit 6: an incomplete list never passes for a whole one", async () => {
    suite.api.fault(suite.api.cursorAt(2), (_req, res) =>
      sendJson(res, 200, {
        data: suite.api.items.slice(2, 4),
        pagination: { next_cursor: null, has_more: true },
        meta: {},
      }),
    );
    const r = await runPep(
      ["studies", "list", "-o", "ndjson", "--all", "--page-size", "2", "--base-url", suite.api.baseUrl],
      { env: tmp.env },
    );
    expect(r.code, r.err).toBe(6);
    expect(parseNdjson(r.out)).toEqual(suite.api.items.slice(0, 4));
    expect(errorLineOf(r.err)).toMatch(
      /^error: the API said more items remain but sent no next cursor; the list is incomplete \(HTTP 200, request req_fault_\d+\)$/,
    );
  });

  it("is fine when the limit is already met", async () => {
    suite.api.fault(undefined, (_req, res) =>
      sendJson(res, 200, {
        data: suite.api.items.slice(0, 2),
        pagination: { next_cursor: null, has_more: true },
        meta: {},
      }),
    );
    const r = await runPep(["studies", "list", "-o", "ndjson", "--limit", "2", "--base-url", suite.api.baseUrl], {
      env: tmp.env,
    });
    expect(r.code, r.err).toBe(0);
    expect(parseNdjson(r.out)).toEqual(suite.api.items.slice(0, 2));
  });
});
