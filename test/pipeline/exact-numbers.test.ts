/**
 * Numbers as the API wrote them: JSON, NDJSON, --jq, CSV cells, `pep api --paginate` and
 * a single item keep a number's text when JavaScript cannot hold it exactly.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { parseCsv } from "../helpers/formats.js";
import { sendText, startServer, type TestServer } from "../helpers/server.js";

const ITEM =
  '{"id":"a","big":9007199254740993,"dec":1.10,"huge":1e999999,"neg":-0,"ok":42,"s":"x 9007199254740993 1.10"}';
const LIST = `{"data":[${ITEM}],"pagination":{"has_more":false,"next_cursor":null},"meta":{}}`;

let api: TestServer;
const tmp = scratch("pep-numbers-");

beforeAll(async () => {
  api = await startServer((req, res) =>
    sendText(res, 200, req.url.includes("/peptides/a") ? `{"data":${ITEM},"meta":{}}` : LIST, "application/json"),
  );
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

const pep = (argv: string[]) => runPep([...argv, "--base-url", `${api.url}/v1`], { env: tmp.env });

describe("numbers keep the API's text", () => {
  it("in JSON and NDJSON of a list, a single item and pep api --paginate", async () => {
    const json = await pep(["peptides", "list", "-o", "json"]);
    expect(json.code, json.err).toBe(0);
    expect(json.out).toContain('"big": 9007199254740993,');
    expect(json.out).toContain('"dec": 1.10,');
    expect(json.out).toContain('"huge": 1e999999,');
    expect(json.out).toContain('"neg": -0,');
    expect(json.out).toContain('"ok": 42,');
    expect(json.out).toContain('"s": "x 9007199254740993 1.10"');
    const ndjson = await pep(["peptides", "list", "-o", "ndjson"]);
    expect(ndjson.out).toBe(`${ITEM}\n`);
    const one = await pep(["peptides", "get", "a", "-o", "ndjson"]);
    expect(one.out).toBe(`${ITEM}\n`);
    const paged = await pep(["api", "/peptides", "--paginate"]);
    expect(paged.out).toBe(`${ITEM}\n`);
  });

  it("into --jq and CSV cells", async () => {
    const jq = await pep(["peptides", "list", "--jq", ".[0].big, .[0].dec"]);
    expect(jq.out).toBe("9007199254740993\n1.10\n");
    const csv = await pep(["peptides", "list", "-o", "csv"]);
    expect(csv.code, csv.err).toBe(0);
    expect(parseCsv(csv.out)[0]!.other).toContain('"big":9007199254740993');
    expect(parseCsv(csv.out)[0]!.other).toContain('"huge":1e999999');
  });
});
