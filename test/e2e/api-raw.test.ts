/**
 * `pep api` prints the bytes the API sent: numbers JavaScript cannot hold exactly
 * (9007199254740993, 1.10, -0, 1e400, 1E5) stay as written in `json` (the body as is),
 * on a terminal (indented, tokens as written), in `ndjson` (one line, tokens as written)
 * and in `csv` (their source text as the cell), also when the answer comes from the
 * ETag cache after a 304.
 */
import { describe, expect, it } from "vitest";
import { runPep, inProcessPep } from "../helpers/cli.js";
import { startServer, type TestServer } from "../helpers/server.js";
import { useLoopback } from "../helpers/suite.js";

const BODY =
  '{"data": {"id":"x-1","big":9007199254740993,"dec":1.10,"neg":-0,"huge":1e400,"exp":1E5,"tiny":5e-324,"list":[1.0,2.50, {}],"empty":[],"s":"a \\"q\\" \\u00e9 [ ] { } , :"},\n  "meta":{"request_id":"req_raw"}}';

const suite = useLoopback<TestServer>(
  () =>
    startServer((req, res) => {
      if (req.headers["if-none-match"] === '"v1"') {
        res.writeHead(304, { etag: '"v1"' });
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json", etag: '"v1"' });
      res.end(BODY);
    }),
  "pep-api-raw-",
);

const base = () => ["--base-url", `${suite.api.url}/v1`];

describe("pep api prints what the API sent", () => {
  it("json (the default off a terminal): the body byte for byte, then a newline", async () => {
    const r = await inProcessPep(["api", "things/x-1", "--no-cache", ...base()], { env: suite.tmp.env });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(`${BODY}\n`);
    const explicit = await inProcessPep(["api", "things/x-1", "-o", "json", "--no-cache", ...base()], {
      env: suite.tmp.env,
    });
    expect(explicit.out).toBe(`${BODY}\n`);
  });

  it("the same bytes when a 304 answers from the ETag cache", async () => {
    const first = await inProcessPep(["api", "things/cached", ...base()], { env: suite.tmp.env });
    const second = await inProcessPep(["api", "things/cached", ...base()], { env: suite.tmp.env });
    expect(second.code, second.err).toBe(0);
    expect(suite.api.requests.at(-1)!.headers["if-none-match"]).toBe('"v1"');
    expect(second.out).toBe(first.out);
    expect(second.out).toBe(`${BODY}\n`);
  });

  it("ndjson: one line, every token as written", async () => {
    const r = await inProcessPep(["api", "things/x-1", "-o", "ndjson", "--no-cache", ...base()], {
      env: suite.tmp.env,
    });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe(
      '{"data":{"id":"x-1","big":9007199254740993,"dec":1.10,"neg":-0,"huge":1e400,"exp":1E5,"tiny":5e-324,"list":[1.0,2.50,{}],"empty":[],"s":"a \\"q\\" \\u00e9 [ ] { } , :"},"meta":{"request_id":"req_raw"}}\n',
    );
    expect(r.out.trim().split("\n")).toHaveLength(1);
  });

  it("on a terminal: indented like JSON.stringify(v, null, 2), numbers as written", async () => {
    const r = await runPep(["api", "things/x-1", "--no-cache", ...base()], { env: suite.tmp.env, tty: true });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(
      '\n    "big": 9007199254740993,\n    "dec": 1.10,\n    "neg": -0,\n    "huge": 1e400,\n    "exp": 1E5,',
    );
    expect(r.out).toContain('"list": [\n      1.0,\n      2.50,\n      {}\n    ],\n    "empty": [],');
    expect(r.out).toContain('"s": "a \\"q\\" \\u00e9 [ ] { } , :"');
    // The layout is JSON.stringify's; only the number tokens differ.
    const parsedBack: unknown = JSON.parse(r.out);
    expect(parsedBack).toEqual(JSON.parse(BODY));
  });

  it("csv: a number JavaScript cannot hold exactly is its source text in the cell", async () => {
    const r = await inProcessPep(["api", "things/x-1", "-o", "csv", "--no-cache", ...base()], {
      env: suite.tmp.env,
    });
    expect(r.code, r.err).toBe(0);
    // The row is the answer's `data`; its numbers are the text the API sent.
    const [header, row] = r.out.trim().split(/\r?\n/);
    const cells = Object.fromEntries(header!.split(",").map((h, i) => [h, row!.split(",")[i]]));
    expect(["big", "dec", "neg", "huge", "exp", "tiny"].map((k) => cells[k])).toEqual([
      "9007199254740993",
      "1.10",
      "-0",
      "1e400",
      "1E5",
      "5e-324",
    ]);
  });
});
