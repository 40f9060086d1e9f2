/**
 * Vendor flags end to end against a recording loopback server: what reaches the wire
 * (codes upper-cased, values as typed), every bound of spec 4.5 refused before any
 * request, and the key checked before anything is sent.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { envelope, errorBody, sendJson, startServer, type TestServer } from "../helpers/server.js";

const KEY = "sk_test_vendor_key_4242";
let srv: TestServer;
let tmp: ReturnType<typeof scratch>;

beforeAll(async () => {
  srv = await startServer({
    "/v1/vendors": (_req, res) =>
      sendJson(
        res,
        200,
        envelope(
          [
            { id: "v2", name: "Zeta Labs" },
            { id: "v1", name: "Alpha Labs" },
          ],
          { pagination: { next_cursor: null, has_more: false } },
        ),
      ),
    "/v1/vendors/compare": (_req, res) => sendJson(res, 200, envelope({ vendors: [] })),
    "*": (req, res) => sendJson(res, 200, envelope({ id: req.path.split("/")[3] })),
  });
});
afterAll(() => srv.close());
beforeEach(() => {
  tmp = scratch("pep-vendors-");
  srv.requests.length = 0;
});
afterEach(() => tmp.cleanup());

const pep = (argv: string[], env: Record<string, string> = {}) =>
  runPep(["--base-url", `${srv.url}/v1`, "--no-retry", ...argv], { env: { ...tmp.env, PEP_API_KEY: KEY, ...env } });

describe("vendors: what is sent", () => {
  it("sends every filter, codes upper-cased, values as typed, in the API's order", async () => {
    const r = await pep([
      "vendors",
      "list",
      "--search",
      "alpha",
      "--country",
      "us",
      "--ships-to",
      "us-ca",
      "--product-category",
      "sprays",
      "--min-rating",
      "4.50",
      "--peptide",
      "bpc-157",
      "--sort",
      "rating",
      "--fields",
      "id,name",
      "-o",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    const q = srv.requests[0]!.query;
    expect(Object.fromEntries(q)).toEqual({
      search: "alpha",
      country: "US",
      ships_to: "US-CA",
      product_category: "sprays",
      min_rating: "4.50",
      peptide: "bpc-157",
      sort: "rating",
      fields: "id,name",
      limit: "20",
    });
    expect(srv.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    // the API's order, not re-sorted
    expect((JSON.parse(r.out) as { id: string }[]).map((v) => v.id)).toEqual(["v2", "v1"]);
  });

  it("plain `pep vendors` lists, sending no sort of its own", async () => {
    const r = await pep(["vendors", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(srv.requests[0]!.path).toBe("/v1/vendors");
    expect(srv.requests[0]!.query.has("sort")).toBe(false);
  });

  it("get, shipping and compare call their endpoints with ships_to upper-cased", async () => {
    expect((await pep(["vendors", "get", "acme-labs", "--ships-to", "gb", "-o", "json"])).code).toBe(0);
    expect((await pep(["vendors", "shipping", "acme labs", "--ships-to", "us-ny", "-o", "json"])).code).toBe(0);
    expect((await pep(["vendors", "compare", "a", "b", "c", "d", "--ships-to", "ca", "-o", "json"])).code).toBe(0);
    expect((await pep(["vendors", "compare", "a,b", "-o", "json"])).code).toBe(0);
    expect(srv.requests.map((q) => q.url)).toEqual([
      "/v1/vendors/acme-labs?ships_to=GB",
      "/v1/vendors/acme%20labs/shipping?ships_to=US-NY",
      "/v1/vendors/compare?ids=a%2Cb%2Cc%2Cd&ships_to=CA",
      "/v1/vendors/compare?ids=a%2Cb",
    ]);
  });

  it.each([
    [["--min-rating", "0"], "min_rating", "0"],
    [["--min-rating", "5"], "min_rating", "5"],
    [["--country", "US"], "country", "US"],
    [["--country", "us"], "country", "US"],
    [["--ships-to", "US-CA"], "ships_to", "US-CA"],
    [["--ships-to", "de-by"], "ships_to", "DE-BY"],
    [["--ships-to", "gb"], "ships_to", "GB"],
    [["--product-category", "peptides"], "product_category", "peptides"],
    [["--product-category", "capsules"], "product_category", "capsules"],
    [["--product-category", "other"], "product_category", "other"],
    [["--sort", "-name"], "sort", "-name"],
    [["--sort", "best_match"], "sort", "best_match"],
    [["--sort", "reviews"], "sort", "reviews"],
    [["--sort", "popular"], "sort", "popular"],
    [["--sort", "products"], "sort", "products"],
  ])("accepts %j", async (flags, param, sent) => {
    const r = await pep(["vendors", "list", ...flags, "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(srv.requests[0]!.query.get(param)).toBe(sent);
  });
});

describe("vendors: refused before any request (exit 2)", () => {
  it.each([
    [["vendors", "list", "--min-rating", "-0.1"], /--min-rating must be a number from 0 to 5/],
    [["vendors", "list", "--min-rating", "5.1"], /--min-rating must be a number from 0 to 5/],
    [["vendors", "list", "--min-rating", "abc"], /--min-rating must be a number from 0 to 5/],
    [["vendors", "list", "--country", "U"], /--country must be a two-letter country code/],
    [["vendors", "list", "--country", "USA"], /--country must be a two-letter country code/],
    [
      ["vendors", "list", "--ships-to", "US-CALI"],
      /--ships-to must be a two-letter country code, optionally with a subdivision/,
    ],
    [["vendors", "list", "--ships-to", "U"], /--ships-to must be/],
    [["vendors", "list", "--ships-to", "US-"], /--ships-to must be/],
    [
      ["vendors", "list", "--product-category", "powders"],
      /--product-category must be one of: peptides, sprays, capsules, other/,
    ],
    [
      ["vendors", "list", "--sort", "price"],
      /--sort must be one of: best_match, rating, reviews, popular, products, name, -name/,
    ],
    [["vendors", "list", "--search", "x".repeat(201)], /--search must be at most 200 characters/],
    [["vendors", "list", "--fields", "id,colour"], /--fields must be a comma-separated list of: id, slug, name/],
    [["vendors", "list", "--limit", "0"], /--limit must be a whole number/],
    [["vendors", "list", "--page-size", "101"], /--page-size must be a whole number from 1 to 100/],
    [["vendors", "get", "acme", "--ships-to", "USA"], /--ships-to must be/],
    [["vendors", "shipping", "acme", "--ships-to", "US-CALI"], /--ships-to must be/],
    [["vendors", "compare", "a"], /compare needs 2 to 4 vendor ids or slugs \(got 1\)/],
    [["vendors", "compare", "a", "b", "c", "d", "e"], /compare needs 2 to 4 vendor ids or slugs \(got 5\)/],
    [["vendors", "compare", "a", "b", "--ships-to", "x"], /--ships-to must be/],
  ])("%j", async (argv, message) => {
    const r = await pep(argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(srv.requests).toHaveLength(0);
  });
});

describe("vendors: keys", () => {
  it.each([
    ["vendors", "list"],
    ["vendors", "get", "x"],
    ["vendors", "shipping", "x"],
    ["vendors", "compare", "a", "b"],
    ["prices"],
    ["products"],
  ])("%s %s without a key exits 3 before any request, pointing at `pep auth login`", async (...argv) => {
    const r = await pep(argv, { PEP_API_KEY: "" });
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/needs an API key with the (vendors|pricing|products):read scope, and none is set/);
    expect(r.err).toContain("pep auth login");
    expect(srv.requests).toHaveLength(0);
  });
});

describe("vendors: refusals explained", () => {
  let refusing: TestServer;
  beforeAll(async () => {
    refusing = await startServer({
      "/v1/vendors": (req, res) =>
        req.headers.authorization === "Bearer sk_research_only"
          ? sendJson(res, 403, errorBody("insufficient_scope", "This key lacks the vendors:read scope", "req_403"))
          : sendJson(res, 401, errorBody("invalid_key", "Invalid API key", "req_401")),
    });
  });
  afterAll(() => refusing.close());

  const call = (key: string, format = "table") =>
    runPep(["--base-url", `${refusing.url}/v1`, "--no-retry", "vendors", "list", "-o", format], {
      env: { ...tmp.env, PEP_API_KEY: key },
    });

  it("403: says the key is known but lacks vendors:read, with its fingerprint and origin", async () => {
    const r = await call("sk_research_only");
    expect(r.code).toBe(3);
    expect(r.err).toContain(
      "error: This key lacks the vendors:read scope (HTTP 403, insufficient_scope, request req_403)",
    );
    expect(r.err).toMatch(
      /knows the key …only \(from PEP_API_KEY\), but it lacks the vendors:read scope that GET \/vendors needs/,
    );
    expect(r.err).not.toContain("sk_research_only");
  });

  it("401: says the key was not accepted and how to check or replace it", async () => {
    const r = await call("sk_wrong_key_0000");
    expect(r.code).toBe(3);
    expect(r.err).toContain("(HTTP 401, invalid_key, request req_401)");
    expect(r.err).toMatch(/did not accept the key …0000 \(from PEP_API_KEY\).*pep auth status.*pep auth login/);
    expect(r.err).not.toContain("sk_wrong_key");
  });

  it("with -o json the failure is one JSON line on stderr, the hints in it", async () => {
    const r = await call("sk_research_only", "json");
    expect(r.code).toBe(3);
    expect(r.out).toBe("");
    const lines = r.err.trim().split("\n");
    expect(lines).toHaveLength(1);
    const o = JSON.parse(lines[0]!) as { error: unknown; exit_code: number; hints: string[]; resume: null };
    expect(o.error).toEqual({
      code: "insufficient_scope",
      message: "This key lacks the vendors:read scope",
      request_id: "req_403",
      status: 403,
    });
    expect(o.exit_code).toBe(3);
    expect(o.hints.join("\n")).toContain("vendors:read");
    expect(o.resume).toBeNull();
  });
});
