import { afterEach, describe, expect, it } from "vitest";
import { createClient } from "../../src/http/client.js";
import {
  assertKeyNotInUrl,
  assertKeyUsable,
  buildUrl,
  isLoopbackHost,
  joinUrl,
  mayCarryKey,
  parseBaseUrl,
} from "../../src/http/url.js";
import { UsageError } from "../../src/core/errors.js";
import { hideUrlCredentials as maskUrl } from "../../src/core/credentials.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

describe("base URL joining", () => {
  it("keeps the /v1 segment with or without slashes", () => {
    for (const base of ["http://h/v1", "http://h/v1/", "http://h/v1//"]) {
      for (const path of ["/peptides", "peptides"]) expect(joinUrl(base, path).href).toBe("http://h/v1/peptides");
    }
  });

  it("joins nested paths and the root", () => {
    expect(joinUrl("https://api.example.com/v1", "/peptides/bpc-157/studies").href).toBe(
      "https://api.example.com/v1/peptides/bpc-157/studies",
    );
    expect(joinUrl("https://api.example.com/v1", "/").href).toBe("https://api.example.com/v1/");
  });

  it("takes a full URL as it is, and refuses other schemes", () => {
    expect(joinUrl("http://h/v1", "https://other.example/v2/x?a=1").href).toBe("https://other.example/v2/x?a=1");
    expect(() => joinUrl("http://h/v1", "file:///etc/passwd")).toThrow(UsageError);
  });

  it("checks the base", () => {
    expect(() => parseBaseUrl("not a url")).toThrow(UsageError);
    expect(() => parseBaseUrl("ftp://h/v1")).toThrow(/http or https/);
    expect(() => parseBaseUrl("https://h/v1?x=1")).toThrow(/query/);
  });
});

describe("query encoding", () => {
  it("drops undefined and null, joins arrays with commas, writes numbers and booleans", () => {
    const url = buildUrl("http://h/v1", "/studies", {
      a: undefined,
      b: null,
      types: ["peptides", "content"],
      limit: 20,
      flag: true,
      empty: [],
    });
    expect([...url.searchParams.entries()]).toEqual([
      ["types", "peptides,content"],
      ["limit", "20"],
      ["flag", "true"],
    ]);
  });

  it("keeps a query written in the path, and lets the options override it", () => {
    const url = buildUrl("http://h/v1", "/peptides?limit=5&sort=name", { limit: 7 });
    expect(url.searchParams.get("limit")).toBe("7");
    expect(url.searchParams.get("sort")).toBe("name");
    expect(buildUrl("http://h/v1", "/peptides?x=a%2Bb").search).toBe("?x=a%2Bb");
  });
});

describe("origin rules", () => {
  it("knows loopback hosts", () => {
    for (const h of [
      "127.0.0.1",
      "127.1.2.3",
      "localhost",
      "LOCALHOST",
      "api.localhost",
      "[::1]",
      "::1",
      "[::ffff:7f00:1]",
    ]) {
      expect(isLoopbackHost(h), h).toBe(true);
    }
    for (const h of ["128.0.0.1", "10.0.0.1", "example.com", "localhost.example.com", "[::2]", "127.0.0.1.nip.io"]) {
      expect(isLoopbackHost(h), h).toBe(false);
    }
  });

  it("lets the key go only to the base origin, over https or loopback", () => {
    const https = new URL("https://api.example.com/v1");
    expect(mayCarryKey(new URL("https://api.example.com/v1/vendors"), https)).toBe(true);
    expect(mayCarryKey(new URL("https://api.example.com:8443/v1/vendors"), https)).toBe(false);
    expect(mayCarryKey(new URL("https://evil.example.com/v1/vendors"), https)).toBe(false);
    expect(mayCarryKey(new URL("http://api.example.com/v1/vendors"), https)).toBe(false);
    const plain = new URL("http://api.example.com/v1");
    expect(mayCarryKey(new URL("http://api.example.com/v1/vendors"), plain)).toBe(false);
    const loop = new URL("http://127.0.0.1:4010/v1");
    expect(mayCarryKey(new URL("http://127.0.0.1:4010/v1/vendors"), loop)).toBe(true);
    expect(mayCarryKey(new URL("http://localhost:4010/v1/vendors"), loop)).toBe(false);
  });
});

describe("over the wire", () => {
  let srv: TestServer | undefined;
  afterEach(async () => {
    await srv?.close();
    srv = undefined;
  });

  it("sends the joined path and an opaque cursor byte for byte", async () => {
    srv = await startServer((_req, res) => sendJson(res, 200, envelope([])));
    const cursor = "eyJvIjo0MH0+/a+b/c==";
    const search = "bpc 157 & tb-500?";
    for (const base of [`${srv.url}/v1`, `${srv.url}/v1/`]) {
      const client = createClient({ baseUrl: base });
      try {
        await client.request("peptides", {
          query: { cursor, search, limit: 10, fields: ["id", "name"], sort: undefined },
        });
      } finally {
        await client.close();
      }
    }
    expect(srv.requests).toHaveLength(2);
    for (const r of srv.requests) {
      expect(r.path).toBe("/v1/peptides");
      expect(r.query.get("cursor")).toBe(cursor);
      expect(r.query.get("search")).toBe(search);
      expect(r.query.get("fields")).toBe("id,name");
      expect(r.query.has("sort")).toBe(false);
      expect(r.url).toContain(`cursor=${encodeURIComponent(cursor)}`);
    }
  });
});

describe("keys and URLs", () => {
  it("the one mask hides a password and key-like query values, also in text that does not parse", () => {
    expect(maskUrl("http://u:sk_123@h:99999/v1?limit=2&api_key=sk_123&token=t#x")).toBe(
      "http://u:***@h:99999/v1?limit=2&api_key=***&token=***#x",
    );
    expect(maskUrl("/peptides?API%5FKEY=sk_123&q=sk")).toBe("/peptides?API%5FKEY=***&q=sk");
    expect(maskUrl("https://h/v1?q=1")).toBe("https://h/v1?q=1");
  });

  it("refuses the key's own value anywhere in the URL, raw or percent-encoded; short keys are not looked for", () => {
    const key = "sk_live_abc123";
    for (const url of [
      "http://h/v1/x?q=sk_live_abc123",
      "http://h/v1/sk_live_abc123",
      "http://h/v1/x?q=sk%5Flive%5Fabc123",
    ]) {
      expect(() => assertKeyNotInUrl(new URL(url), key), url).toThrow(/holds the API key itself/);
    }
    expect(() => assertKeyNotInUrl(new URL("http://h/v1/x?q=sk_live"), key)).not.toThrow();
    expect(() => assertKeyNotInUrl(new URL("http://h/v1/peptides"), "pep")).not.toThrow();
  });

  it("refuses a key an HTTP header cannot carry", () => {
    for (const key of ["sk é", "sk\n1", "skĀ1", "sk\u0000"])
      expect(() => assertKeyUsable(key), JSON.stringify(key)).toThrow(UsageError);
    expect(() => assertKeyUsable("sk_live_AZaz09-._~+/=")).not.toThrow();
  });
});
