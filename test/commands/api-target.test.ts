import { describe, expect, it } from "vitest";
import { asQuery, endpointOf, parseTarget, relativePath } from "../../src/commands/api/target.js";

describe("pep api <path>", () => {
  it("keeps /v1 of the base: peptides, /peptides and /v1/peptides are the same", () => {
    const base = "http://127.0.0.1:9/v1";
    expect(relativePath("peptides", base)).toBe("/peptides");
    expect(relativePath("/peptides", base)).toBe("/peptides");
    expect(relativePath("/v1/peptides", base)).toBe("/peptides");
    expect(relativePath("/v1", base)).toBe("/");
    expect(relativePath("/", base)).toBe("/");
    expect(relativePath("/v10/x", base)).toBe("/v10/x");
  });

  it("gathers the query from the path and from -F, joining repeated names", () => {
    const t = parseTarget("/studies?peptide=bpc-157&types=a", ["types=b", "sort=oldest", "q=a=b"]);
    expect(t).toEqual({
      path: "/studies",
      absolute: false,
      query: { peptide: "bpc-157", types: ["a", "b"], sort: "oldest", q: "a=b" },
    });
    expect(asQuery(t.query)).toEqual({ peptide: "bpc-157", types: "a,b", sort: "oldest", q: "a=b" });
  });

  it("takes a full URL apart", () => {
    const t = parseTarget("http://127.0.0.1:8/v1/peptides?limit=2#frag", undefined);
    expect(t).toEqual({ path: "http://127.0.0.1:8/v1/peptides", absolute: true, query: { limit: "2" } });
  });

  it.each([
    ["/vendors?api_key=sk_1", undefined],
    ["/vendors?key=sk_1", undefined],
    ["https://x.example/v1/vendors?token=t", undefined],
    ["/vendors", ["access_token=t"]],
    ["https://user:pw@x.example/v1/", undefined],
  ])("refuses a key in the URL: %s %j", (path, fields) => {
    expect(() => parseTarget(path, fields)).toThrow(/API key in the URL/);
  });

  it.each([[""], ["  "]])("refuses an empty path %j", (p) => {
    expect(() => parseTarget(p, undefined)).toThrow(/must not be empty/);
  });

  it("refuses a malformed -F and a non-http URL", () => {
    expect(() => parseTarget("/x", ["novalue"])).toThrow(/-F must be key=value/);
    expect(() => parseTarget("file:///etc/passwd", undefined)).toThrow(/only http and https/);
  });

  it("finds the endpoint of a path, compare before {id}", () => {
    expect(endpointOf("/vendors/compare")?.name).toBe("vendorCompare");
    expect(endpointOf("/vendors/acme")?.name).toBe("vendor");
    expect(endpointOf("/vendors/acme/shipping/")?.name).toBe("vendorShipping");
    expect(endpointOf("/")?.name).toBe("index");
    expect(endpointOf("/nope")).toBeUndefined();
  });
});
