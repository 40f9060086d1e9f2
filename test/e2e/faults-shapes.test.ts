/**
 * Fault matrix, answers of unexpected shape and status, run in-process (the executable
 * is the same code; the transport faults run it for real in faults-transport): 200s
 * whose `data` is a string, a number, null, a list or an object of wrong types print
 * in every format without crashing; unknown fields pass through; statuses the spec does
 * not name (redirects, other 4xx, an empty 200) end with a documented exit code and one
 * line, never as a bug (exit 1).
 */
import { describe, expect, it } from "vitest";
import { runPep } from "../helpers/cli.js";
import { errorLineOf, faults, PEPTIDE, requestIdOf, useFaultApi } from "../helpers/fault-api.js";
import { parseCsv, parseNdjson } from "../helpers/formats.js";
import { sendJson, sendText } from "../helpers/server.js";

const suite = useFaultApi({ total: 6 });
const { tmp } = suite;

const pepHere = (argv: readonly string[]) =>
  runPep([...argv, "--base-url", suite.api.baseUrl, "--retries", "1"], { env: tmp.env });
const lastRequestId = () => requestIdOf(suite.api.requests.length - 1);

describe("odd but valid shapes print without crashing", () => {
  const odd: Array<[string, unknown]> = [
    ["a string", "just text"],
    ["a number", 42],
    ["null", null],
    ["an array", [1, "two", null]],
    [
      "fields of the wrong types",
      { id: 7, name: ["x"], evidence: "strong", also_known_as: "one", regulatory_status: { a: 1 }, summary: null },
    ],
  ];
  it.each(odd)("peptides get with data = %s: exit 0 in every format", async (_name, data) => {
    suite.api.fault("peptide", faults.json({ data, meta: {} }));
    for (const format of ["table", "json", "ndjson", "csv", "tsv"]) {
      const r = await pepHere(["peptides", "get", "bpc-157", "-o", format]);
      expect(r.code, `${format}: ${r.err}`).toBe(0);
      expect(r.err).not.toMatch(/unexpected failure|bug/i);
      if (format === "json") expect(JSON.parse(r.out)).toEqual(data);
    }
  });

  it("list items that are not objects: every format prints them, exit 0", async () => {
    const data = [1, "two", null, ["a"], { id: "ok" }];
    suite.api.fault(undefined, faults.json({ data, pagination: { next_cursor: null, has_more: false }, meta: {} }));
    for (const format of ["table", "json", "csv", "tsv", "ndjson", "bibtex", "ris", "csl-json"]) {
      const r = await pepHere(["studies", "list", "-o", format]);
      expect(r.code, `${format}: ${r.err}`).toBe(0);
      expect(r.err).not.toMatch(/unexpected failure|bug/i);
      if (format === "ndjson") expect(parseNdjson(r.out)).toEqual(data);
    }
  });

  it("unknown fields pass through to json, ndjson and csv", async () => {
    const json = await pepHere(["peptides", "get", "bpc-157", "-o", "json"]);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toEqual(PEPTIDE);
    const nd = await pepHere(["studies", "list", "-o", "ndjson", "--limit", "2"]);
    expect(parseNdjson(nd.out)).toEqual(suite.api.items.slice(0, 2));
    const csv = await pepHere(["studies", "list", "-o", "csv", "--limit", "2"]);
    expect(csv.code, csv.err).toBe(0);
    // A field the column map does not know is not dropped: it goes, as JSON, into `other`.
    expect(parseCsv(csv.out).map((row) => [row.id, JSON.parse(row.other!).future_field])).toEqual([
      [suite.api.items[0]!.id, { rank: 0, added_in: "v1.9" }],
      [suite.api.items[1]!.id, { rank: 1, added_in: "v1.9" }],
    ]);
  });
});

describe("statuses the spec does not name", () => {
  it("a redirect: exit 6, naming where it points and that the base URL needs checking; not followed", async () => {
    suite.api.fault(undefined, (_req, res) => {
      res.writeHead(301, { Location: "https://suite.api.example.org/v1/studies" });
      res.end();
    });
    const r = await pepHere(["studies", "list", "-o", "csv"]);
    expect(r.code, r.err).toBe(6);
    expect(suite.api.hits(undefined)).toBe(1);
    expect(errorLineOf(r.err)).toBe(
      `error: the server redirects to https://suite.api.example.org/v1/studies; pep does not follow redirects, so check the base URL (HTTP 301, request ${lastRequestId()})`,
    );
  });

  it("another 4xx with the envelope (405): exit 2, the API's message, not retried", async () => {
    suite.api.fault(
      "peptide",
      faults.json({ error: { code: "method_not_allowed", message: "Only GET", request_id: "req_405" } }, 405),
    );
    const r = await pepHere(["peptides", "get", "bpc-157", "-o", "table"]);
    expect(r.code, r.err).toBe(2);
    expect(suite.api.hits("peptide")).toBe(1);
    expect(errorLineOf(r.err)).toBe("error: Only GET (HTTP 405, method_not_allowed, request req_405)");
  });

  it("410 Gone: exit 4 like a 404", async () => {
    suite.api.fault("peptide", (_req, res) => sendText(res, 410, "gone"));
    const r = await pepHere(["peptides", "get", "bpc-157", "-o", "table"]);
    expect(r.code, r.err).toBe(4);
    expect(errorLineOf(r.err)).toMatch(/^error: the server answered HTTP 410 with a non-JSON body \(text\/plain\)/);
  });

  it("408 Request Timeout: exit 6", async () => {
    suite.api.fault("peptide", (_req, res) => sendText(res, 408, ""));
    const r = await pepHere(["peptides", "get", "bpc-157", "-o", "table"]);
    expect(r.code, r.err).toBe(6);
    expect(errorLineOf(r.err)).toMatch(/HTTP 408 with an empty body/);
  });

  it("a 200 with an empty body: exit 6, said as such (not 'cut short'), not retried", async () => {
    suite.api.fault("peptide", (_req, res) => sendText(res, 200, "", "application/json"));
    const r = await pepHere(["peptides", "get", "bpc-157", "-o", "table"]);
    expect(r.code, r.err).toBe(6);
    expect(suite.api.hits("peptide")).toBe(1);
    expect(errorLineOf(r.err)).toBe(
      `error: the server answered HTTP 200 with an empty body (HTTP 200, request ${lastRequestId()})`,
    );
  });

  it("a JSON array or a bare string instead of the envelope: exit 6", async () => {
    for (const body of [[PEPTIDE], "hello", null]) {
      suite.api.fault("peptide", faults.json(body));
      const r = await pepHere(["peptides", "get", "bpc-157", "-o", "json"]);
      expect(r.code, `${JSON.stringify(body)}: ${r.err}`).toBe(6);
      expect(errorLineOf(r.err)).toMatch(/not the API's JSON envelope/);
    }
  });

  it("a list whose `data` is not an array: exit 6, no crash", async () => {
    suite.api.fault(
      undefined,
      faults.json({ data: { id: "x" }, pagination: { next_cursor: null, has_more: false }, meta: {} }),
    );
    const r = await pepHere(["studies", "list", "-o", "csv"]);
    expect(r.code, r.err).toBe(6);
    expect(errorLineOf(r.err)).toMatch(/^error: expected a list from \/studies, got object/);
    expect(r.out).toBe("");
  });
  it("a 200 without `data` names the fields that came instead", async () => {
    suite.api.fault("peptide", (_req, res) => sendJson(res, 200, { result: PEPTIDE, meta: {} }));
    const r = await pepHere(["peptides", "get", "bpc-157", "-o", "table"]);
    expect(r.code, r.err).toBe(6);
    expect(errorLineOf(r.err)).toBe(
      `error: the response was not the API's JSON envelope: no \`data\` field (fields: result, meta) (HTTP 200, request ${lastRequestId()})`,
    );
  });
});
