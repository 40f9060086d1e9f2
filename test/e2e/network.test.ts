/**
 * The real executable on real networks: https through a CONNECT proxy (the proxy sees
 * the tunnel, never the key), --proxy over the environment, a refusing proxy named
 * without its password, compressed answers from the sandbox, bounded memory against an
 * endless body and a huge content-length, and the warning when an answer echoes the key.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { BIN, inProcessPep, isBuilt, ROOT, scratch, spawnPep } from "../helpers/cli.js";
import { startProxy, type TestProxy } from "../helpers/proxy.js";
import { envelope, sendJson, startServer, unusedPort, type TestServer } from "../helpers/server.js";
import { hasOpenssl, makeCert, startTlsServer, type TestCert, type TlsServer } from "../helpers/tls.js";

const KEY = "pk_live_e2e_0123456789abcdef";
const tmp = scratch("pep-network-");
let proxy: TestProxy;
let sandbox: Sandbox;
beforeAll(async () => {
  if (!isBuilt()) throw new Error("run `npm run build` first");
  proxy = await startProxy();
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await proxy.close();
  await sandbox.close();
  tmp.cleanup();
});

describe.runIf(hasOpenssl())("https through a proxy", () => {
  let cert: TestCert;
  let tls: TlsServer;
  const seenKeys: string[] = [];
  beforeAll(async () => {
    cert = makeCert();
    tls = await startTlsServer(cert, (req, res) => {
      seenKeys.push(String(req.headers.authorization));
      sendJson(res, 200, envelope([{ id: 1, name: "BPC-157" }]));
    });
  });
  afterAll(async () => {
    await tls.close();
    cert.cleanup();
  });

  it("goes through a CONNECT tunnel: the proxy sees CONNECT host:port and never the key", async () => {
    const before = proxy.seen.length;
    // Spawned: Node reads NODE_EXTRA_CA_CERTS when a process starts.
    const run = await spawnPep(["api", "/peptides", "--base-url", `${tls.url}/v1`], {
      env: {
        ...tmp.env,
        PEP_API_KEY: KEY,
        HTTPS_PROXY: proxy.url,
        NODE_EXTRA_CA_CERTS: cert.certFile,
        PEP_NO_CACHE: "1",
      },
    });
    expect(run.err).toBe("");
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).data[0].name).toBe("BPC-157");
    expect(proxy.seen.slice(before).map((s) => `${s.method} ${s.target}`)).toEqual([`CONNECT localhost:${tls.port}`]);
    expect(seenKeys.at(-1)).toBe(`Bearer ${KEY}`);
    const bytes = proxy.bytes();
    for (let i = 0; i + 8 <= KEY.length; i++) expect(bytes).not.toContain(KEY.slice(i, i + 8));
  });

  it("--proxy overrides the environment, and a refused proxy is one line naming it without its password", async () => {
    const port = await unusedPort();
    const run = await inProcessPep(
      [
        "api",
        "/peptides",
        "--base-url",
        `${tls.url}/v1`,
        "--proxy",
        `http://u:hunter2pw@127.0.0.1:${port}`,
        "--retries",
        "0",
      ],
      {
        env: { ...tmp.env, HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: cert.certFile },
      },
    );
    expect(run.code).toBe(6);
    expect(run.err.split("\n")[0]).toBe(`error: could not connect to the proxy 127.0.0.1:${port}: connection refused`);
    expect(run.err).not.toContain("hunter2pw");
  });
});

describe("the sandbox compresses when asked", () => {
  it("answers gzip, br or deflate to Accept-Encoding, and pep reads the same data either way", async () => {
    const argv = ["--base-url", sandbox.baseUrl, "api", "/studies", "-F", "limit=100"];
    const env = { ...tmp.env, PEP_API_KEY: "sbx_full_key", PEP_NO_CACHE: "1" };
    const on = await inProcessPep([...argv, "-v"], { env });
    const off = await inProcessPep([...argv, "-v", "--no-compress"], { env });
    expect(on.code).toBe(0);
    expect(off.code).toBe(0);
    expect(JSON.parse(on.out).data).toEqual(JSON.parse(off.out).data);
    const bytes = (err: string) => Number(/< 200 .* (\d+) bytes/.exec(err)?.[1]);
    expect(on.err).toContain("Accept-Encoding: gzip, br, deflate");
    expect(off.err).not.toContain("Accept-Encoding");
    expect(bytes(on.err)).toBeLessThan(bytes(off.err) / 4);
  });
});

/** Runs pep and reads its peak resident memory (VmHWM) from /proc just before it exits (a process of its own). */
function peakMemoryMb(
  argv: string[],
  env: Record<string, string>,
): Promise<{ code: number; err: string; peakMb: number }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...argv], { cwd: ROOT, env: { PATH: process.env.PATH, ...env } });
    let err = "";
    let peak = 0;
    child.stderr.on("data", (c: Buffer) => (err += c.toString()));
    child.stdout.resume();
    const poll = setInterval(() => {
      try {
        const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, "utf8"))?.[1] ?? 0);
        peak = Math.max(peak, kb / 1024);
      } catch {
        // gone
      }
    }, 20);
    child.on("exit", (code) => {
      clearInterval(poll);
      resolve({ code: code ?? -1, err, peakMb: peak });
    });
  });
}

describe.runIf(existsSync("/proc/self/status"))("bounded answers", () => {
  let srv: TestServer;
  beforeAll(async () => {
    srv = await startServer({
      "/v1/endless": (_r, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        const chunk = Buffer.alloc(256 * 1024, 0x20);
        const pump = () => {
          while (!res.destroyed && res.write(chunk));
        };
        res.on("drain", pump);
        res.on("error", () => undefined);
        pump();
      },
      "/v1/huge": (_r, res) => {
        res.writeHead(200, { "content-type": "application/json", "content-length": "100000000000" });
        res.write("{");
      },
      "/v1/echo": (_r, res) => sendJson(res, 200, envelope({ token: KEY })),
      "/v1/": (_r, res) =>
        sendJson(
          res,
          500,
          { error: { code: "internal", message: `key ${KEY.slice(4, 16)} failed` } },
          { "x-request-id": `req-${KEY}` },
        ),
    });
  });
  afterAll(() => srv.close());

  for (const path of ["/endless", "/huge"]) {
    it(`${path}: exit 6 with one line, and memory stays under 200 MB`, async () => {
      const run = await peakMemoryMb(["--base-url", `${srv.url}/v1`, "api", path, "--retries", "0"], tmp.env);
      expect(run.code).toBe(6);
      expect(run.err.split("\n")[0]).toMatch(/^error: the answer is .*32 MiB limit/);
      expect(run.peakMb).toBeGreaterThan(0);
      expect(run.peakMb).toBeLessThan(200);
    });
  }

  it("auth login --with-key -v never shows the key or 8 characters of it, though the server echoes it", async () => {
    const run = await inProcessPep(
      ["--base-url", `${srv.url}/v1`, "-v", "--retries", "0", "auth", "login", "--with-key"],
      {
        env: tmp.env,
        input: `${KEY}\n`,
      },
    );
    expect(run.code).toBe(6);
    expect(run.err).toContain("request req-<redacted>");
    for (let i = 0; i + 8 <= KEY.length; i++) expect(run.err).not.toContain(KEY.slice(i, i + 8));
  });

  it("an answer that echoes the key is printed as sent, with one warning on stderr", async () => {
    const run = await inProcessPep(["--base-url", `http://127.0.0.1:${srv.port}/v1`, "api", "/echo"], {
      env: { ...tmp.env, PEP_API_KEY: KEY },
    });
    expect(run.code).toBe(0);
    expect(JSON.parse(run.out).data.token).toBe(KEY);
    expect(run.err).toBe(
      "warning: the API's answer contains your API key; it is printed as sent, so take care where the output goes\n",
    );
  });
});

describe("the proxy key in the config", () => {
  it("is stored as given and shown without its password", async () => {
    const cfg = scratch("pep-proxy-config-");
    try {
      const set = await inProcessPep(["config", "set", "proxy", "http://u:secretpw@proxy.example:3128"], {
        env: cfg.env,
      });
      expect(set.code).toBe(0);
      const list = await inProcessPep(["config", "list", "-o", "json"], { env: cfg.env });
      expect(JSON.parse(list.out).proxy).toBe("http://u:***@proxy.example:3128");
      expect(set.err + list.out + list.err).not.toContain("secretpw");
      const bad = await inProcessPep(["config", "set", "max_response_mb", "0"], { env: cfg.env });
      expect(bad.code).toBe(2);
      expect(bad.err).toContain(
        "max_response_mb must be the most MiB read of one answer, a whole number from 1 to 4096",
      );
    } finally {
      cfg.cleanup();
    }
  });
});
