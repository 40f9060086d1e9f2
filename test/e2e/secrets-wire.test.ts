/**
 * Where the key travels, run in-process against loopback servers: only to
 * the configured base URL's origin (another port, another loopback address, a redirect
 * all get no key), never over plain http to another machine (refused before anything is
 * sent, exit 2), and never in a URL (a key-like query name, a user name or password, or
 * the key's own value under any name: refused with advice, exit 2, nothing sent, and the
 * refused value not repeated in the message). Every run is `-v`; no output holds the key.
 */
import { existsSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { scratch, inProcessPep, type PepRun } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type RecordedRequest, type TestServer } from "../helpers/server.js";

const KEY = "sk_live_TOPSECRET_d00d";
const URL_KEY = "sk_live_TOPSECRET_url9";
const PREFIX = "sk_live_TOPSECRET";
const ok = envelope({ id: "p1", name: "BPC-157" });

/** A recording server on any address (startServer listens on 127.0.0.1 only). */
interface Listener {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

async function listenOn(host: string): Promise<Listener | undefined> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const url = req.url ?? "/";
    requests.push({
      index: requests.length,
      method: req.method ?? "GET",
      url,
      path: url.split("?")[0]!,
      query: new URLSearchParams(url.split("?")[1] ?? ""),
      headers: { ...req.headers },
    });
    sendJson(res, 200, ok);
  });
  const bound = await new Promise<boolean>((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(0, host, () => resolve(true));
  });
  if (!bound) return undefined;
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://${host.includes(":") ? `[${host}]` : host}:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** This machine's first non-loopback IPv4 address: plain http there must not carry the key. */
const lanAddress = Object.values(os.networkInterfaces())
  .flat()
  .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

let home: TestServer;
let other: TestServer;
let otherHost: Listener | undefined;
let lan: Listener | undefined;
let tmp: ReturnType<typeof scratch>;

beforeAll(async () => {
  other = await startServer({ "*": (_req, res) => sendJson(res, 200, ok) });
  home = await startServer({
    "/v1/moved": (_req, res) => {
      res.writeHead(307, { location: `${other.url}/v1/peptides/bpc-157` });
      res.end();
    },
    "*": (_req, res) => sendJson(res, 200, ok),
  });
  otherHost = await listenOn("127.0.0.2");
  lan = lanAddress ? await listenOn(lanAddress) : undefined;
});
afterAll(async () => {
  await Promise.all([home.close(), other.close(), otherHost?.close(), lan?.close()]);
});
beforeEach(() => {
  tmp = scratch("pep-wire-");
});
afterEach(() => tmp.cleanup());

const pep = (argv: readonly string[], options: { env?: Record<string, string>; input?: string } = {}) =>
  inProcessPep(["-v", "--no-retry", ...argv], {
    env: { ...tmp.env, PEP_API_KEY: KEY, ...options.env },
    input: options.input,
  });

const keyHeaders = (requests: RecordedRequest[]) =>
  requests.filter((r) => r.headers.authorization !== undefined || r.headers["x-api-key"] !== undefined);

function expectNoKey(r: PepRun): void {
  expect(r.out).not.toContain(PREFIX);
  expect(r.err).not.toContain(PREFIX);
}

describe("the key goes only to the configured origin", () => {
  it("is sent to the base URL's origin (the control), in either header", async () => {
    for (const [header, name, value] of [
      ["bearer", "authorization", `Bearer ${KEY}`],
      ["x-api-key", "x-api-key", KEY],
    ] as const) {
      const before = home.requests.length;
      const r = await pep(["--base-url", `${home.url}/v1`, "--auth-header", header, "api", "/peptides/bpc-157"]);
      expect(r.code, r.err).toBe(0);
      expect(home.requests.slice(before).map((q) => q.headers[name])).toEqual([value]);
      expectNoKey(r);
    }
  });

  it("is not sent to another port or another loopback address, with or without --paginate", async () => {
    const targets = [other.url, otherHost?.url].filter((u): u is string => u !== undefined);
    expect(targets.length).toBeGreaterThan(0);
    for (const target of targets) {
      for (const header of ["bearer", "x-api-key"]) {
        for (const extra of [[], ["--paginate", "-F", "limit=5"]]) {
          const r = await pep([
            "--base-url",
            `${home.url}/v1`,
            "--auth-header",
            header,
            "api",
            `${target}/v1/peptides/bpc-157`,
            ...extra,
          ]);
          expect(r.err).toContain("the key is not sent there");
          expectNoKey(r);
        }
      }
    }
    expect(other.requests.length).toBeGreaterThan(0);
    expect(keyHeaders(other.requests)).toEqual([]);
    if (otherHost) {
      expect(otherHost.requests.length).toBeGreaterThan(0);
      expect(keyHeaders(otherHost.requests)).toEqual([]);
    }
  });

  it("is not carried along a redirect to another origin: redirects are not followed (exit 6)", async () => {
    const before = other.requests.length;
    const r = await pep(["--base-url", `${home.url}/v1`, "api", "/moved"]);
    expect(r.code, r.err).toBe(6);
    expect(r.err).toMatch(/redirects to .* pep does not follow redirects/);
    expect(other.requests.length).toBe(before);
    expectNoKey(r);
  });
});

describe("never over plain http to another machine", () => {
  const refused = (r: PepRun) => {
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/the API key is not sent over plain http to \S+; use an https base URL/);
    expect(r.err).toMatch(/hint: set --base-url https:\/\//);
    expectNoKey(r);
  };

  it("refuses http://example.invalid before any lookup or request, for every way of giving the key", async () => {
    const base = "http://example.invalid/v1";
    refused(await pep(["--base-url", base, "peptides", "get", "bpc-157"]));
    refused(await pep(["--base-url", base, "api", "/peptides"]));
    refused(
      await pep(["--base-url", base, "--api-key-file", "-", "api", "/peptides"], {
        env: { PEP_API_KEY: "" },
        input: KEY,
      }),
    );
    const login = await pep(["--base-url", base, "auth", "login", "--with-key"], {
      env: { PEP_API_KEY: "" },
      input: KEY,
    });
    refused(login);
    expect(existsSync(path.join(tmp.env.PEP_CONFIG_DIR!, "config.json"))).toBe(false);
  });

  it.skipIf(lanAddress === undefined)(
    "refuses this machine's own non-loopback address: its server sees nothing",
    async () => {
      expect(lan).toBeDefined();
      const base = `${lan!.url}/v1`;
      // The control: without a key the address is reachable and gets the request.
      const anonymous = await pep(["--base-url", base, "api", "/peptides/bpc-157"], { env: { PEP_API_KEY: "" } });
      expect(anonymous.code, anonymous.err).toBe(0);
      expect(lan!.requests.length).toBe(1);
      refused(await pep(["--base-url", base, "api", "/peptides/bpc-157"]));
      // A key and base URL stored in the profile are refused the same way.
      expect((await pep(["config", "set", "base_url", base])).code).toBe(0);
      expect((await pep(["config", "set", "api_key", "-"], { input: KEY })).code).toBe(0);
      refused(await pep(["peptides", "get", "bpc-157"], { env: { PEP_API_KEY: "" } }));
      expect(lan!.requests.length).toBe(1);
      expect(keyHeaders(lan!.requests)).toEqual([]);
    },
  );
});

describe("a key in a URL is refused before anything is sent", () => {
  const hostPort = () => home.url.replace(/^http:\/\//, "");
  const cases: Array<[string, () => string[], (() => Record<string, string>)?]> = [
    ["api_key= in the path's query", () => ["api", `/peptides?api_key=${URL_KEY}`]],
    ["apiKey= in the path's query", () => ["api", `/peptides?limit=2&apiKey=${URL_KEY}`]],
    ["-F api_key=", () => ["api", "/peptides", "-F", `api_key=${URL_KEY}`]],
    ["-F key=", () => ["api", "/peptides", "-F", `key=${URL_KEY}`]],
    ["-F access_token=", () => ["api", "/peptides", "-F", `access_token=${URL_KEY}`]],
    ["token= in a full URL", () => ["api", `${home.url}/v1/peptides?token=${URL_KEY}`]],
    ["a password in a full URL", () => ["api", `http://user:${URL_KEY}@${hostPort()}/v1/peptides`]],
    ["a full URL that does not parse", () => ["api", `http://127.0.0.1:99999/v1/peptides?token=${URL_KEY}`]],
    ["--base-url with ?api_key=", () => ["--base-url", `${home.url}/v1?api_key=${URL_KEY}`, "api", "/peptides"]],
    ["--base-url with a user name", () => ["--base-url", `http://${URL_KEY}@${hostPort()}/v1`, "api", "/peptides"]],
    [
      "--base-url that does not parse",
      () => ["--base-url", `http://127.0.0.1:99999/v1?api_key=${URL_KEY}`, "api", "/peptides"],
    ],
    [
      "PEP_BASE_URL with ?key=",
      () => ["peptides", "get", "bpc-157"],
      () => ({ PEP_BASE_URL: `${home.url}/v1?key=${URL_KEY}` }),
    ],
    ["config set base_url with ?api_key=", () => ["config", "set", "base_url", `${home.url}/v1?api_key=${URL_KEY}`]],
    ["prices --param api_key=", () => ["prices", "--peptide", "bpc-157", "--param", `api_key=${URL_KEY}`]],
  ];

  it.each(cases)("%s: exit 2 with advice, nothing sent, the value not repeated", async (_label, argv, envOf) => {
    const before = home.requests.length + other.requests.length;
    const args = argv();
    const env = envOf?.();
    const withBase =
      args.includes("--base-url") || env?.PEP_BASE_URL ? args : ["--base-url", `${home.url}/v1`, ...args];
    const r = await pep(withBase, { env: env ?? {} });
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/key/i);
    expect(r.err).toContain("pep auth login");
    expect(r.err).toContain("--api-key-file");
    expect(r.err).toContain("PEP_API_KEY");
    expectNoKey(r);
    expect(home.requests.length + other.requests.length).toBe(before);
    expect(existsSync(path.join(tmp.env.PEP_CONFIG_DIR!, "config.json"))).toBe(false);
  });

  it("the configured key's own value in the URL, under any name, is refused too", async () => {
    const before = home.requests.length;
    for (const target of [
      `/peptides?q=${KEY}`,
      `/peptides/${KEY}`,
      `/peptides?q=${encodeURIComponent(KEY).replace(/_/g, "%5F")}`,
    ]) {
      const r = await pep(["--base-url", `${home.url}/v1`, "api", target]);
      expect(r.code, `${target}: ${r.err}`).toBe(2);
      expect(r.err).toContain("the URL holds the API key itself");
      expect(r.err).toContain("PEP_API_KEY");
      expectNoKey(r);
    }
    expect(home.requests.length).toBe(before);
  });
});
