/**
 * Fault matrix, the resume command: after a list is cut short, the command on stderr
 * continues exactly where the run stopped: from the failed page's cursor (replacing a
 * cursor the run started from), asking only for what is left of `--limit` (given or
 * default), as `-F cursor=` for `pep api --paginate`, and after a 429 as after a 5xx.
 */
import { describe, expect, it } from "vitest";

import {
  errorLineOf,
  failThenResume,
  faults,
  type Item,
  resumeArgv,
  retryNotices,
  useFaultApi,
} from "../helpers/fault-api.js";
import { parseCsv, parseNdjson } from "../helpers/formats.js";

const suite = useFaultApi({ total: 7 });
const { tmp } = suite;

const withBase = (argv: readonly string[]) => [...argv, "--base-url", suite.api.baseUrl];
const ids = (items: readonly unknown[]) => items.map((i) => (i as Item).id);
const cutShortThenResume = (argv: readonly string[], failAt: number, fault = faults.status(503)) =>
  failThenResume(suite.api, tmp.env, argv, failAt, fault);

describe("the resume command continues exactly where the run stopped", () => {
  it("--limit: the resume command asks only for the items still wanted", async () => {
    const argv = ["studies", "list", "-o", "ndjson", "--limit", "5", "--page-size", "2", "--retries", "0"];
    const { first, resume, rest, cursor } = await cutShortThenResume(argv, 2);
    expect(first.code, first.err).toBe(6);
    expect(parseNdjson(first.out)).toEqual(suite.api.items.slice(0, 2));
    expect(resume).toEqual(
      withBase(["studies", "list", "-o", "ndjson", "--limit", "3", "--page-size", "2", "--retries", "0"]).concat(
        `--cursor=${cursor}`,
      ),
    );
    expect(parseNdjson(rest.out)).toEqual(suite.api.items.slice(2, 5));
  });

  it("the default limit: the resume command adds --limit with what is left of it", async () => {
    const argv = ["studies", "list", "-o", "ndjson", "--page-size", "3", "--retries", "0"];
    const { first, resume, rest } = await cutShortThenResume(argv, 3);
    expect(first.code, first.err).toBe(6);
    expect(resume).toContain("--limit");
    expect(resume[resume.indexOf("--limit") + 1]).toBe("17");
    expect(parseNdjson(rest.out)).toEqual(suite.api.items.slice(3));
  });

  it("a run that already started from --cursor resumes from the newer cursor, not the old one", async () => {
    const argv = [
      "studies",
      "list",
      "-o",
      "ndjson",
      "--all",
      "--page-size",
      "2",
      "--cursor",
      suite.api.cursorAt(2)!,
      "--retries",
      "0",
    ];
    const { first, resume, rest, cursor } = await cutShortThenResume(argv, 4);
    expect(parseNdjson(first.out)).toEqual(suite.api.items.slice(2, 4));
    expect(resume.filter((w) => w === "--cursor" || w.startsWith("--cursor="))).toEqual([`--cursor=${cursor}`]);
    expect(parseNdjson(rest.out)).toEqual(suite.api.items.slice(4));
  });

  it("pep api --paginate: the resume command passes the cursor as -F cursor=…", async () => {
    const argv = ["api", "/studies", "--paginate", "-F", "limit=2", "--retries", "0"];
    const { first, resume, rest, cursor } = await cutShortThenResume(argv, 2);
    expect(first.code, first.err).toBe(6);
    expect(parseNdjson(first.out)).toEqual(suite.api.items.slice(0, 2));
    expect(resume).toEqual([...withBase(argv), "-F", `cursor=${cursor}`]);
    expect(rest.code, rest.err).toBe(0);
    expect(parseNdjson(rest.out)).toEqual(suite.api.items.slice(2));
  });

  it("429 on page 2 still after the retries: exit 5, the resume command, the rest on resuming", async () => {
    const argv = ["studies", "list", "-o", "csv", "--all", "--page-size", "2", "--retries", "1"];
    const { first, rest, cursor } = await cutShortThenResume(argv, 2, faults.rateLimited("0"));
    expect(first.code, first.err).toBe(5);
    expect(retryNotices(first.err)).toEqual(["page 2: rate limited; retrying in 0 ms (1/1)"]);
    expect(resumeArgv(first.err).slice(-1)).toEqual([`--cursor=${cursor}`]);
    expect(errorLineOf(first.err)).toMatch(
      /^error: Too many requests \(HTTP 429, rate_limited, request req_fault_\d+\)$/,
    );
    expect(parseCsv(first.out).map((r) => r.id)).toEqual(ids(suite.api.items.slice(0, 2)));
    expect(parseCsv(rest.out).map((r) => r.id)).toEqual(ids(suite.api.items.slice(2)));
  });
});
