import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import { type ApiError, NetworkError, ResponseError, UsageError, exitCodeFor } from "../../src/core/errors.js";
import { createClient } from "../../src/http/client.js";
import { redactKey } from "../../src/http/key.js";
import { loopbackOnlyLookup } from "../../src/http/transport.js";
import { bypassesProxy, parseProxyUrl, proxyFor, proxyFromEnv } from "../../src/http/proxy.js";
import type { Client, ClientEvent, ClientOptions } from "../../src/http/client-types.js";
import { startProxy, type TestProxy } from "../helpers/proxy.js";
import {
  envelope,
  errorBody,
  sendJson,
  startServer,
  unusedPort,
  type Handler,
  type TestServer,
} from "../helpers/server.js";
import { hasOpenssl, makeCert, startTlsServer, type TestCert, type TlsServer } from "../helpers/tls.js";

const KEY = "pk_live_0123456789abcdefXYZ";
let srv: TestServer | undefined;
let proxy: TestProxy | undefined;
let tls: TlsServer | undefined;
let cert: TestCert | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await srv?.close();
  await proxy?.close();
  await tls?.close();
  cert?.cleanup();
  client = srv = proxy = tls = cert = undefined;
});

async function serve(handler: Handler, opts: Partial<ClientOptions> = {}): Promise<Client> {
  srv = await startServer(handler);
  client = createClient({ baseUrl: `${srv.url}/v1`, retries: 0, ...opts });
  return client;
}

async function failure(p: Promise<unknown>): Promise<Error> {
  return p.then(
    () => {
      throw new Error("expected a failure");
    },
    (e: Error) => e,
  );
}

const json = (data: unknown) => Buffer.from(JSON.stringify(envelope(data)));

describe("NO_PROXY and proxy settings", () => {
  it("matches host, .domain, subdomains, *, and ports as curl does", () => {
    expect(bypassesProxy("api.example.com", 443, "example.com")).toBe(true);
    expect(bypassesProxy("example.com", 443, ".example.com")).toBe(true);
    expect(bypassesProxy("a.b.example.com", 443, ".example.com")).toBe(true);
    expect(bypassesProxy("notexample.com", 443, "example.com")).toBe(false);
    expect(bypassesProxy("anything", 1, "*")).toBe(true);
    expect(bypassesProxy("api.example.com", 443, "example.com:8443")).toBe(false);
    expect(bypassesProxy("api.example.com", 8443, "other, example.com:8443")).toBe(true);
    expect(bypassesProxy("127.0.0.1", 80, "localhost")).toBe(false);
    expect(bypassesProxy("::1", 80, "[::1]")).toBe(true);
    expect(bypassesProxy("::1", 80, "::1")).toBe(true);
    expect(bypassesProxy("API.Example.COM", 443, "example.com")).toBe(true);
  });

  it("reads lower-case names before upper-case ones, and picks the proxy per scheme", () => {
    const env = {
      https_proxy: "http://low:1",
      HTTPS_PROXY: "http://up:2",
      HTTP_PROXY: "up-http:3",
      NO_PROXY: "internal",
    };
    const s = proxyFromEnv(env);
    expect(s).toEqual({ https: "http://low:1", http: "http://up-http:3", noProxy: "internal" });
    expect(proxyFor(new URL("https://api.example/v1"), s)).toBe("http://low:1");
    expect(proxyFor(new URL("http://api.example/v1"), s)).toBe("http://up-http:3");
    expect(proxyFor(new URL("https://internal/v1"), s)).toBeUndefined();
    expect(proxyFromEnv({ no_proxy: "a", NO_PROXY: "b" }).noProxy).toBe("a");
  });

  it("refuses a proxy URL that is not http(s), naming where it came from and never its password", () => {
    expect(() => parseProxyUrl("socks5://u:secretpw@h:1", "HTTPS_PROXY")).toThrow(
      /HTTPS_PROXY must be an http or https proxy URL, not socks5 \(h:1\)/,
    );
    try {
      parseProxyUrl("http://u:secretpw@h:1/path", "--proxy");
    } catch (e) {
      expect((e as Error).message).not.toContain("secretpw");
      expect(e).toBeInstanceOf(UsageError);
    }
  });
});

describe("proxies", () => {
  it("forwards plain http through the proxy, which sees the absolute URL", async () => {
    proxy = await startProxy();
    const c = await serve((_r, res) => sendJson(res, 200, envelope([1])), {});
    await c.close();
    client = createClient({
      baseUrl: `${srv!.url}/v1`,
      retries: 0,
      proxy: { http: proxy.url, https: undefined, noProxy: "" },
    });
    const res = await client.request("/peptides");
    expect(res.data).toEqual([1]);
    expect(proxy.seen.map((s) => s.method)).toEqual(["GET"]);
    expect(proxy.seen[0]!.target).toBe(`${srv!.url}/v1/peptides`);
  });

  it("goes direct for a host in NO_PROXY", async () => {
    proxy = await startProxy();
    const c = await serve((_r, res) => sendJson(res, 200, envelope([])), {
      proxy: { http: "http://127.0.0.1:1", https: undefined, noProxy: "localhost,127.0.0.1" },
    });
    await c.request("/peptides");
    expect(srv!.requests).toHaveLength(1);
  });

  it("refuses to send the key over plain http through a proxy, before any request", async () => {
    proxy = await startProxy();
    const c = await serve((_r, res) => sendJson(res, 200, envelope([])), {
      apiKey: KEY,
      proxy: { http: proxy.url, https: undefined, noProxy: "" },
    });
    const err = await failure(c.request("/peptides"));
    expect(err).toBeInstanceOf(UsageError);
    expect(err.message).toBe(`the API key is not sent over plain http through the proxy 127.0.0.1:${proxy.port}`);
    expect(proxy.seen).toHaveLength(0);
    expect(srv!.requests).toHaveLength(0);
  });

  it("a 407 is one line naming the proxy, never its credentials (forwarding and CONNECT)", async () => {
    proxy = await startProxy({ auth: "alice:right" });
    const via = `http://alice:wrongpass@127.0.0.1:${proxy.port}`;
    const c = await serve((_r, res) => sendJson(res, 200, envelope([])), {
      proxy: { http: via, https: via, noProxy: "" },
    });
    const err = await failure(c.request("/peptides"));
    expect(err).toBeInstanceOf(NetworkError);
    expect(err.message).toBe(`the proxy 127.0.0.1:${proxy.port} asks for authentication (HTTP 407)`);
    expect(exitCodeFor(err)).toBe(6);
    const tunneled = await failure(c.request("https://localhost:1/v1/peptides"));
    expect(tunneled.message).toBe(`the proxy 127.0.0.1:${proxy.port} asks for authentication (HTTP 407)`);
    expect(JSON.stringify([err.message, (err as NetworkError).hints, tunneled.message])).not.toContain("wrongpass");
    expect(proxy.seen.map((s) => s.method)).toEqual(["GET", "CONNECT"]);
  });

  it("a proxy that refuses the connection is named", async () => {
    const port = await unusedPort();
    const c = await serve((_r, res) => sendJson(res, 200, envelope([])), {
      proxy: { http: `http://bob:pw@127.0.0.1:${port}`, https: undefined, noProxy: "" },
    });
    const err = await failure(c.request("/peptides"));
    expect(err.message).toBe(`could not connect to the proxy 127.0.0.1:${port}: connection refused`);
  });
});

describe("compression", () => {
  const compressing: Handler = (req, res) => {
    const body = json(Array.from({ length: 200 }, (_, i) => ({ id: i, name: "peptide record with repeated text" })));
    const accept = String(req.headers["accept-encoding"] ?? "");
    if (/\bbr\b/.test(accept) && req.query.get("enc") === "br")
      res.writeHead(200, { "content-encoding": "br" }).end(brotliCompressSync(body));
    else if (/deflate/.test(accept) && req.query.get("enc") === "deflate")
      res.writeHead(200, { "content-encoding": "deflate" }).end(deflateSync(body));
    else if (/gzip/.test(accept)) res.writeHead(200, { "content-encoding": "gzip" }).end(gzipSync(body));
    else res.writeHead(200, { "content-type": "application/json" }).end(body);
  };

  it("asks for gzip, br and deflate and reads each, counting the bytes on the wire", async () => {
    const c = await serve(compressing);
    for (const enc of ["gzip", "br", "deflate"]) {
      const res = await c.request<unknown[]>("/peptides", { query: { enc } });
      expect(res.data).toHaveLength(200);
      expect(res.bytes).toBeLessThan(json(res.data).length / 4);
    }
    expect(srv!.requests[0]!.headers["accept-encoding"]).toBe("gzip, br, deflate");
  });

  it("with compress off asks for nothing compressed", async () => {
    const c = await serve(compressing, { compress: false });
    const res = await c.request<unknown[]>("/peptides");
    expect(res.data).toHaveLength(200);
    expect(srv!.requests[0]!.headers["accept-encoding"]).toBeUndefined();
  });

  it("a corrupt gzip body is exit 6 saying so, not 'not valid JSON'", async () => {
    const good = gzipSync(json([1, 2, 3]));
    const bad = Buffer.concat([good.subarray(0, 10), Buffer.alloc(20, 0x41), good.subarray(30)]);
    const c = await serve((_r, res) => void res.writeHead(200, { "content-encoding": "gzip" }).end(bad));
    const err = await failure(c.request("/peptides"));
    expect(err).toBeInstanceOf(ResponseError);
    expect(err.message).toBe("the answer's gzip body is corrupt: it could not be decompressed");
    expect(exitCodeFor(err)).toBe(6);
  });

  it("a compressed body cut short by the server hanging up is cut short, not corrupt", async () => {
    const body = json(Array.from({ length: 2000 }, (_, i) => ({ id: i, n: Math.sin(i) })));
    const packed = { gzip: gzipSync(body), br: brotliCompressSync(body) };
    const c = await serve((req, res) => {
      const enc = req.query.get("enc") === "br" ? "br" : "gzip";
      res.writeHead(200, { "content-encoding": enc, "content-length": packed[enc].length });
      res.write(packed[enc].subarray(0, packed[enc].length >> 1), () => res.socket?.destroy());
    });
    for (const enc of ["gzip", "br"]) {
      const err = await failure(c.request("/peptides", { query: { enc } }));
      expect(err, enc).toBeInstanceOf(ResponseError);
      expect(err.message, enc).toMatch(/^the response body was cut short \(\d+ of \d+ bytes received\)$/);
      expect((err as ResponseError).cutShort).toBe(true);
    }
  });

  it("an encoding pep cannot read is said by name", async () => {
    const c = await serve((_r, res) => void res.writeHead(200, { "content-encoding": "zstd" }).end("xx"));
    const err = await failure(c.request("/peptides"));
    expect(err.message).toBe("the answer is encoded as zstd, which pep cannot read");
  });
});

describe("bounded answers", () => {
  it("stops reading an endless body at the limit (exit 6, one line)", async () => {
    const c = await serve(
      (_r, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(64 * 1024, 0x20);
        const pump = () => {
          while (res.write(chunk)) if (res.destroyed) return;
        };
        res.on("drain", pump);
        res.on("error", () => undefined);
        pump();
      },
      { maxResponseBytes: 2 * 1024 * 1024 },
    );
    const err = await failure(c.request("/peptides"));
    expect(err).toBeInstanceOf(ResponseError);
    expect(err.message).toBe("the answer is larger than pep's 2 MiB limit; stopped reading it");
    expect(exitCodeFor(err)).toBe(6);
  });

  it("refuses a declared length over the limit before reading any of it", async () => {
    const c = await serve((_r, res) => {
      res.writeHead(200, { "content-length": "100000000000", "content-type": "application/json" });
      res.write("{");
    });
    const err = await failure(c.request("/peptides"));
    expect(err.message).toBe("the answer is 95367.4 MiB, over pep's 32 MiB limit; nothing of it was read");
  });

  it("a gzip bomb is stopped at the limit of the decompressed size", async () => {
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024, 0x20));
    const c = await serve((_r, res) => void res.writeHead(200, { "content-encoding": "gzip" }).end(bomb), {
      maxResponseBytes: 4 * 1024 * 1024,
    });
    const err = await failure(c.request("/peptides"));
    expect(err.message).toBe("the answer is larger than pep's 4 MiB limit; stopped reading it");
  });
});

describe("the key in server-supplied text", () => {
  it("redacts the key, or a token of 8 characters or more of it, where it stands as a whole token", () => {
    expect(redactKey(`req-${KEY}`, KEY)).toBe("req-<redacted>");
    expect(redactKey(`id ${KEY.slice(3, 12)} x`, KEY)).toBe("id <redacted> x");
    expect(redactKey(`id ${KEY.slice(3, 10)} x`, KEY)).toBe(`id ${KEY.slice(3, 10)} x`);
    expect(redactKey(`?api_key=${encodeURIComponent(KEY)}&x=1`, KEY)).toBe("?api_key=<redacted>&x=1");
    expect(redactKey(`"Bearer ${KEY}"`, KEY)).toBe('"Bearer <redacted>"');
  });

  it("never inside another word or a field name", () => {
    const key = "development";
    const data = '{"development_stage":"x","id":"redevelopment1"}';
    expect(redactKey(data, `${key}_key`)).toBe(data);
    expect(redactKey(`x${KEY}y`, KEY)).toBe(`x${KEY}y`);
    expect(redactKey(`${KEY}9`, KEY)).toBe(`${KEY}9`);
  });

  it("never puts the key or part of it in an error line, request id or event", async () => {
    const events: ClientEvent[] = [];
    const c = await serve(
      (_r, res) =>
        sendJson(res, 500, errorBody("internal", `bad key ${KEY.slice(0, 10)}`, `req-${KEY}`), {
          "x-request-id": `req-${KEY.slice(2, 14)}`,
        }),
      { apiKey: KEY, onEvent: (e) => events.push(e) },
    );
    const err = (await failure(c.request("/peptides"))) as ApiError;
    const text = JSON.stringify([err.describe(), err.envelope, events.filter((e) => e.type !== "request")]);
    for (let i = 0; i + 8 <= KEY.length; i++) expect(text).not.toContain(KEY.slice(i, i + 8));
    expect(err.describe()).toBe("bad key <redacted> (HTTP 500, internal, request req-<redacted>)");
  });

  it("a success that echoes the key is returned as sent, with one key-echo event", async () => {
    const events: ClientEvent[] = [];
    const c = await serve((_r, res) => sendJson(res, 200, envelope({ you: KEY })), {
      apiKey: KEY,
      onEvent: (e) => events.push(e),
    });
    expect((await c.request<{ you: string }>("/peptides")).data.you).toBe(KEY);
    await c.request("/peptides");
    expect(events.filter((e) => e.type === "key-echo")).toHaveLength(1);
  });

  it("server messages are cut at 2,000 characters, saying so", async () => {
    const c = await serve((_r, res) => sendJson(res, 400, errorBody("bad", "x".repeat(5000))));
    const err = (await failure(c.request("/peptides"))) as ApiError;
    expect(err.message).toBe(`${"x".repeat(2000)}… (cut: 3000 more characters)`);
  });

  it("a 414 or 431 (an oversized cursor) is the server's limit: exit 6", async () => {
    for (const status of [414, 431]) {
      const c = await serve((_r, res) => void res.writeHead(status).end());
      const err = await failure(c.request("/peptides", { query: { cursor: "c".repeat(9000) } }));
      expect(exitCodeFor(err)).toBe(6);
      expect(err.message).toBe(
        `the server refused the request as too long (HTTP ${status}): the cursor or query is longer than it accepts`,
      );
      await client!.close();
      await srv!.close();
      client = srv = undefined;
    }
  });
});

describe("loopback", () => {
  const resolve = (name: string) =>
    new Promise<{ err: (Error & { code?: string }) | null; address: unknown }>((done) =>
      loopbackOnlyLookup(name, {}, (err, address) => done({ err: err as Error | null, address })),
    );

  it("the lookup of a keyed plain-http connection answers only when every address is loopback", async () => {
    expect((await resolve("localhost")).address).toMatch(/^(127\.|::1$)/);
    const outside = await resolve("10.1.2.3");
    expect(outside.err?.code).toBe("ENOTLOOPBACK");
    expect(outside.err?.message).toBe("10.1.2.3 resolves to 10.1.2.3");
  });

  it("sends the key over plain http to localhost, which resolves only to loopback", async () => {
    const c = await serve((_r, res) => sendJson(res, 200, envelope([])));
    await c.close();
    client = createClient({ baseUrl: `http://localhost:${srv!.port}/v1`, apiKey: KEY, retries: 0 });
    await client.request("/peptides");
    expect(srv!.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
  });
});

describe.runIf(hasOpenssl())("TLS", () => {
  it("an unknown certificate authority is one line in words with the NODE_EXTRA_CA_CERTS hint", async () => {
    cert = makeCert();
    tls = await startTlsServer(cert, (_r, res) => sendJson(res, 200, envelope([])));
    client = createClient({ baseUrl: `${tls.url}/v1`, retries: 0 });
    const err = (await failure(client.request("/peptides"))) as NetworkError;
    expect(err.message).toBe(
      `the TLS certificate of localhost:${tls.port} is not signed by a certificate authority this machine trusts`,
    );
    expect(err.hints.join(" ")).toContain("NODE_EXTRA_CA_CERTS");
    expect(exitCodeFor(err)).toBe(6);
  });

  it("a certificate for another name says so", async () => {
    cert = makeCert(["other.example"]);
    tls = await startTlsServer(cert, (_r, res) => sendJson(res, 200, envelope([])));
    client = createClient({ baseUrl: `https://127.0.0.1:${tls.port}/v1`, retries: 0 });
    const err = await failure(client.request("/peptides"));
    // Node checks the chain before the name: a self-signed cert for another name fails on trust first.
    expect(err.message).toMatch(
      /^the TLS certificate of 127\.0\.0\.1:\d+ is not (signed by a certificate authority this machine trusts|valid for the name 127\.0\.0\.1)$/,
    );
  });

  it("https to a plain http server says it may serve plain http", async () => {
    srv = await startServer((_r, res) => sendJson(res, 200, envelope([])));
    client = createClient({ baseUrl: `https://127.0.0.1:${srv.port}/v1`, retries: 0 });
    const err = (await failure(client.request("/peptides"))) as NetworkError;
    expect(err.message).toBe(`127.0.0.1:${srv.port} did not answer in TLS: it may serve plain http on this port`);
    expect(err.hints[0]).toContain("http://");
  });
});
