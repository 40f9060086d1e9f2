/**
 * Proxies, in-process against loopback servers and a real loopback proxy:
 * - a proxy password given with `--proxy` never appears in what pep prints: the resume
 *   command of a list cut short (readable and JSON), hints, `-v` lines;
 * - NO_PROXY read as curl reads it: an IP address matches only itself or a CIDR range
 *   holding it (`0.1` or `.0.0.1` is no suffix of 127.0.0.1), `127.0.0.0/8` and `::1/128`
 *   are ranges, names match themselves and the names under them.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { bypassesProxy } from "../../src/http/proxy.js";
import { startProxy, type TestProxy } from "../helpers/proxy.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

const PASSWORD = "S3cretPass";
let api: TestServer;
let proxy: TestProxy;
let tmp: ReturnType<typeof scratch>;

beforeAll(async () => {
  tmp = scratch("pep-hostile-proxy-");
  proxy = await startProxy({ auth: `alice:${PASSWORD}` });
  api = await startServer({
    "/v1/peptides": (req, res) => {
      if (req.query.get("cursor") === "c2") {
        sendJson(res, 503, { error: { code: "unavailable", message: "try later", request_id: "req_1" } });
        return;
      }
      sendJson(res, 200, envelope([{ id: "p1", name: "P1" }], { pagination: { next_cursor: "c2", has_more: true } }));
    },
  });
});
afterAll(async () => {
  await api.close();
  await proxy.close();
  tmp.cleanup();
});

const pep = (argv: readonly string[], env: Record<string, string> = {}) =>
  runPep(argv, { env: { ...tmp.env, PEP_BASE_URL: `${api.url}/v1`, ...env } });

describe("a proxy password is never printed", () => {
  const cut = ["peptides", "list", "--all", "--page-size", "1", "--no-retry"];

  it.each([
    ["--proxy <url>", (url: string) => ["--proxy", url]],
    ["--proxy=<url>", (url: string) => [`--proxy=${url}`]],
  ])("%s: the resume command and its hint, readable and JSON, and -v lines", async (_name, flag) => {
    const url = `http://alice:${PASSWORD}@127.0.0.1:${proxy.port}`;
    const before = proxy.seen.length;
    for (const format of ["table", "json"]) {
      const r = await pep([...cut, ...flag(url), "-o", format, "-v"]);
      expect(r.code, r.err).toBe(6);
      // it did go through the proxy, with the password
      expect(proxy.seen.length).toBeGreaterThan(before);
      expect(r.out + r.err).not.toContain(PASSWORD);
      const resume =
        format === "json"
          ? (JSON.parse(r.err.split("\n").find((l) => l.startsWith('{"error"'))!) as { resume: string }).resume
          : r.err
              .split("\n")
              .find((l) => l.startsWith("to resume: "))!
              .slice("to resume: ".length);
      expect(resume).toContain(`alice:***@127.0.0.1:${proxy.port}`);
      expect(resume).toContain("--cursor=c2");
      expect(r.err).toMatch(/the password in that command is shown as \*\*\*/);
    }
  });

  it("a password holding @ or %-escapes is hidden whole (a proxy that asks for none)", async () => {
    const open = await startProxy();
    const url = `http://alice:p%40ss@wd@127.0.0.1:${open.port}`;
    const r = await pep([...cut, "--proxy", url]).finally(() => open.close());
    expect(r.code, r.err).toBe(6);
    expect(r.err).not.toContain("p%40ss");
    expect(r.err).not.toContain("wd@");
    expect(r.err).toContain("alice:***@127.0.0.1");
  });
});

describe("NO_PROXY as curl reads it", () => {
  let viaProxy: TestProxy;
  beforeAll(async () => {
    viaProxy = await startProxy();
  });
  afterAll(async () => {
    await viaProxy.close();
  });
  let before = 0;
  beforeEach(() => {
    before = viaProxy.seen.length;
  });

  /** Runs a one-page list with HTTP_PROXY set; whether it went through the proxy. */
  const proxied = async (noProxy: string, host = "127.0.0.1"): Promise<boolean> => {
    const base = `http://${host}:${api.port}/v1`;
    const r = await runPep(["peptides", "list", "--limit", "1", "-o", "json", "--no-retry"], {
      env: { ...tmp.env, PEP_BASE_URL: base, HTTP_PROXY: viaProxy.url, NO_PROXY: noProxy },
    });
    expect(r.code, r.err).toBe(0);
    return viaProxy.seen.length > before;
  };

  it.each(["0.1", ".0.0.1", "0.0.1", "1", "27.0.0.1", "127.0.0", "127.0.0.10", "127.0.0.0/32", "10.0.0.0/8"])(
    "%s is not 127.0.0.1: through the proxy",
    async (noProxy) => {
      expect(await proxied(noProxy)).toBe(true);
    },
  );

  it.each(["127.0.0.1", "127.0.0.0/8", "127.0.0.1/32", "127.0.0.0/24", "foo, 127.0.0.0/8", "127.0.0.1:" + "PORT", "*"])(
    "%s holds 127.0.0.1: direct",
    async (entry) => {
      expect(await proxied(entry.replace("PORT", String(api.port)))).toBe(false);
    },
  );

  it("a port that is not the server's keeps the proxy", async () => {
    expect(await proxied(`127.0.0.1:${api.port + 1}`)).toBe(true);
  });

  it("names: the host and the names under it, case-insensitive, with or without a leading dot", async () => {
    expect(await proxied("LOCALHOST", "localhost")).toBe(false);
    before = viaProxy.seen.length;
    expect(await proxied(".localhost", "localhost")).toBe(false);
    before = viaProxy.seen.length;
    expect(await proxied("calhost", "localhost")).toBe(true);
    before = viaProxy.seen.length;
    expect(await proxied("127.0.0.0/8", "localhost")).toBe(true);
  });
});

describe("NO_PROXY entries, one by one (bypassesProxy)", () => {
  const cases: Array<[host: string, port: number, noProxy: string, direct: boolean]> = [
    ["127.0.0.1", 80, "0.1", false],
    ["127.0.0.1", 80, ".0.0.1", false],
    ["127.0.0.1", 80, "127.0.0.0/8", true],
    ["127.9.9.9", 80, "127.0.0.0/8", true],
    ["128.0.0.1", 80, "127.0.0.0/8", false],
    ["10.1.2.3", 80, "10.0.0.0/33", false],
    ["::1", 80, "::1", true],
    ["::1", 80, "[::1]", true],
    ["::1", 80, "0:0:0:0:0:0:0:1", true],
    ["::1", 80, "::1/128", true],
    ["::1", 80, "[::1]:80", true],
    ["::1", 81, "[::1]:80", false],
    ["fe80::1", 80, "fe80::/10", true],
    ["fe80::1", 80, "[fe80::]/10", true],
    ["2001:db8::1", 80, "fe80::/10", false],
    ["2001:db8::1", 80, "::1", false],
    ["::1", 80, "1", false],
    ["api.example.com", 443, "EXAMPLE.com", true],
    ["api.example.com", 443, ".example.com.", true],
    ["notexample.com", 443, "example.com", false],
    ["example.com", 443, "*.example.com", true],
    ["localhost", 80, "127.0.0.1", false],
    ["anything", 1, "a, *", true],
  ];
  it.each(cases)("%s:%d with NO_PROXY=%s: direct %s", (host, port, noProxy, direct) => {
    expect(bypassesProxy(host, port, noProxy)).toBe(direct);
  });
});
