/**
 * `pep api` end to end against loopback servers: the raw body, -F parameters, NDJSON
 * pages with --paginate, and the key sent only to the configured origin.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

const KEY = "sk_api_test_key_77aa";
const ITEMS = Array.from({ length: 5 }, (_, i) => ({ id: `p${i + 1}`, price: i === 0 ? "0.10" : "1000000.00000001" }));
let api: TestServer;
let other: TestServer;
let tmp: ReturnType<typeof scratch>;

beforeAll(async () => {
  api = await startServer({
    "/v1/": (_req, res) => sendJson(res, 200, envelope({ version: "1.0.0" })),
    "/v1/peptides": (req, res) => {
      const size = Number(req.query.get("limit") ?? 20);
      const start = Number(req.query.get("cursor") ?? 0);
      const page = ITEMS.slice(start, start + size);
      const next = start + size < ITEMS.length ? String(start + size) : null;
      sendJson(
        res,
        200,
        envelope(page, { pagination: { next_cursor: next, has_more: next !== null }, meta: { note: "ok" } }),
      );
    },
    "/v1/studies": (req, res) => sendJson(res, 200, envelope({ echo: Object.fromEntries(req.query) })),
  });
  other = await startServer((req, res) => sendJson(res, 200, envelope({ elsewhere: req.path })));
});
afterAll(async () => {
  await api.close();
  await other.close();
});
beforeEach(() => {
  tmp = scratch("pep-api-");
  api.requests.length = 0;
  other.requests.length = 0;
});
afterEach(() => tmp.cleanup());

const pep = (argv: string[], env: Record<string, string> = {}) =>
  runPep(["--base-url", `${api.url}/v1`, "--no-retry", ...argv], { env: { ...tmp.env, PEP_API_KEY: KEY, ...env } });

describe("pep api", () => {
  it("prints the whole body byte for byte as received, pagination and meta included", async () => {
    const r = await pep(["api", "peptides", "-F", "limit=2"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      data: ITEMS.slice(0, 2),
      pagination: { next_cursor: "2", has_more: true },
      meta: { note: "ok" },
    });
    expect(r.out).toContain('"price":"0.10"');
    expect(r.out).toContain('"price":"1000000.00000001"');
  });

  it("keeps /v1: peptides, /peptides and /v1/peptides reach the same path", async () => {
    for (const p of ["peptides", "/peptides", "/v1/peptides"]) expect((await pep(["api", p])).code).toBe(0);
    expect(api.requests.map((q) => q.path)).toEqual(["/v1/peptides", "/v1/peptides", "/v1/peptides"]);
    expect((await pep(["api", "/"])).code).toBe(0);
    expect(api.requests[3]!.path).toBe("/v1/");
  });

  it("sends -F pairs and the path's own query, repeated names comma-joined", async () => {
    const r = await pep([
      "api",
      "/studies?peptide=bpc-157",
      "-F",
      "sort=oldest",
      "-F",
      "evidence_classification=a",
      "-F",
      "evidence_classification=b",
      "-F",
      "search=a b&c",
    ]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).data.echo).toEqual({
      peptide: "bpc-157",
      sort: "oldest",
      evidence_classification: "a,b",
      search: "a b&c",
    });
  });

  it("--paginate prints the data items of every page as NDJSON, -F limit as page size", async () => {
    const r = await pep(["api", "/peptides", "--paginate", "-F", "limit=2"]);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines.map((l) => JSON.parse(l))).toEqual(ITEMS);
    expect(lines[0]).toBe('{"id":"p1","price":"0.10"}');
    expect(api.requests.map((q) => q.url)).toEqual([
      "/v1/peptides?limit=2",
      "/v1/peptides?limit=2&cursor=2",
      "/v1/peptides?limit=2&cursor=4",
    ]);
  });

  it("--paginate is NDJSON whatever -o says, and refuses a bad page size", async () => {
    const r = await pep(["api", "/peptides", "--paginate", "-o", "json"]);
    expect(r.out.trim().split("\n")).toHaveLength(5);
    const bad = await pep(["api", "/peptides", "--paginate", "-F", "limit=500"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("limit must be a whole number from 1 to 100");
  });

  it("sends the key to the configured origin only; a full URL elsewhere gets none", async () => {
    const same = await pep(["api", `${api.url}/v1/`]);
    expect(same.code, same.err).toBe(0);
    expect(api.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

    const elsewhere = await pep(["api", `${other.url}/v1/anything`]);
    expect(elsewhere.code, elsewhere.err).toBe(0);
    expect(JSON.parse(elsewhere.out).data).toEqual({ elsewhere: "/v1/anything" });
    expect(other.requests).toHaveLength(1);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
    expect(other.requests[0]!.headers["x-api-key"]).toBeUndefined();
    expect(JSON.stringify(other.requests[0]!.headers)).not.toContain(KEY);
    expect(elsewhere.err).toContain(`${other.url} is not the configured API`);

    const xkey = await pep(["--auth-header", "x-api-key", "api", `${other.url}/v1/x`]);
    expect(xkey.code).toBe(0);
    expect(other.requests[1]!.headers["x-api-key"]).toBeUndefined();
  });

  it("fetches a full URL without any configured base URL, and without a key", async () => {
    const r = await runPep(["api", `${other.url}/v1/open`], { env: { ...tmp.env, PEP_API_KEY: KEY } });
    expect(r.code, r.err).toBe(0);
    expect(other.requests[0]!.headers.authorization).toBeUndefined();
  });

  it.each([
    ["/vendors?api_key=sk_secret_in_url"],
    ["/vendors?key=sk_secret_in_url"],
    ["/vendors?token=sk_secret_in_url"],
  ])("refuses a key in the URL (%s) with exit 2, sending nothing", async (p) => {
    const r = await pep(["api", p]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("would put an API key in the URL");
    expect(r.err).toContain("pep auth login");
    expect(api.requests).toHaveLength(0);
  });

  it("refuses a key in -F and in a full URL as well", async () => {
    expect((await pep(["api", "/vendors", "-F", "api_key=sk_secret"])).code).toBe(2);
    expect((await pep(["api", `${other.url}/v1/x?access_token=t`])).code).toBe(2);
    expect(api.requests.length + other.requests.length).toBe(0);
  });

  it("exits 3 before any request for a keyed endpoint without a key", async () => {
    const r = await pep(["api", "/vendors"], { PEP_API_KEY: "" });
    expect(r.code).toBe(3);
    expect(r.err).toContain("pep auth login");
    expect(api.requests).toHaveLength(0);
  });

  it("maps HTTP errors to exit codes (404 -> 4)", async () => {
    const r = await pep(["api", "/nowhere", "-o", "table"]);
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/HTTP 404, not_found/);
    // On a pipe without -o: still a line for the person.
    const piped = await pep(["api", "/nowhere"]);
    expect(piped.code).toBe(4);
    expect(piped.err).toMatch(/^error: .*HTTP 404, not_found/m);
    const machine = await pep(["api", "/nowhere", "-o", "json"]);
    expect(machine.code).toBe(4);
    const o = JSON.parse(machine.err.split("\n")[0]!);
    expect(o.error.code).toBe("not_found");
    expect(o.exit_code).toBe(4);
  });
});
