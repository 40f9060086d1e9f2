/**
 * The key at rest and in failures, through the real executable: the config file stays
 * 0600 in a 0700 folder after every command that writes it (even under umask 000, even
 * when someone loosened the modes), with no lock or temp file left; the cache never holds
 * the key, even from an answer that echoes it; and no output holds any 8 characters of
 * it: not a crash's stack trace, not V8's excerpt of a file or body that is not JSON,
 * not a key the HTTP header cannot carry.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { BIN, isBuilt, ROOT, scratch, type PepRun } from "../helpers/cli.js";
import { envelope, sendJson, sendText, startServer, type TestServer } from "../helpers/server.js";

const KEY = "sk_live_TOPSECRET_d00d";
let srv: TestServer;
let tmp: ReturnType<typeof scratch>;
let configFile: string;

beforeAll(async () => {
  if (!isBuilt()) throw new Error("dist/ is missing: run `npm run build` before these tests");
  srv = await startServer({
    "/v1/": (_req, res) => sendJson(res, 200, envelope({ version: "1.0.0", endpoints: [] })),
    "/v1/plain": (_req, res) => sendJson(res, 200, envelope({ id: "p1" }), { etag: '"plain1"' }),
    "/v1/echo": (req, res) =>
      sendJson(res, 200, envelope({ seen: String(req.headers.authorization) }), { etag: '"echo1"' }),
    "/v1/echo-etag": (req, res) =>
      sendJson(res, 200, envelope({ id: "p2" }), { etag: `"${String(req.headers.authorization).slice(7)}"` }),
    "/v1/key-text": (req, res) =>
      sendText(res, 200, `${String(req.headers.authorization).slice(7)} is your key`, "text/plain"),
  });
});
afterAll(() => srv.close());
beforeEach(() => {
  tmp = scratch("pep-at-rest-");
  configFile = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
});
afterEach(() => tmp.cleanup());

/**
 * `node bin/pep.js` under `sh -c 'umask …'`, stdout to a pipe or to a given file. Spawned:
 * the umask belongs to a process, and these runs check V8's own error text and a crash's.
 */
function pep(
  argv: readonly string[],
  options: { env?: Record<string, string>; input?: string; umask?: string; stdoutTo?: string } = {},
): Promise<PepRun> {
  const env = { PATH: process.env.PATH, HOME: process.env.HOME, ...tmp.env, PEP_API_KEY: KEY, ...options.env };
  const outFd = options.stdoutTo ? openSync(options.stdoutTo, "w") : undefined;
  const child = spawn(
    "sh",
    [
      "-c",
      `umask ${options.umask ?? "022"} && exec "$0" "$@"`,
      process.execPath,
      BIN,
      "--base-url",
      `${srv.url}/v1`,
      ...argv,
    ],
    {
      cwd: ROOT,
      env,
      stdio: ["pipe", outFd ?? "pipe", "pipe"],
    },
  );
  if (outFd !== undefined) closeSync(outFd);
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  child.stdout?.on("data", (c: Buffer) => out.push(c));
  child.stderr!.on("data", (c: Buffer) => err.push(c));
  child.stdin!.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({
        code: code ?? 128,
        out: Buffer.concat(out).toString("utf8"),
        err: Buffer.concat(err).toString("utf8"),
      });
    });
  });
}

/** Any 8 characters in a row of the key (its last 4 alone are the fingerprint). */
function leaksKey(text: string, key = KEY): boolean {
  for (let i = 0; i + 8 <= key.length; i++) if (text.includes(key.slice(i, i + 8))) return true;
  return false;
}

function expectNoKey(r: PepRun, key = KEY): void {
  expect(leaksKey(r.out, key), r.out).toBe(false);
  expect(leaksKey(r.err, key), r.err).toBe(false);
}

const mode = (p: string) => statSync(p).mode & 0o777;
// Only the file: a folder that exists keeps the mode it has (it may be a shared or project
// folder pep did not make); the folder pep made in the first step stays 0700.
const loosen = () => {
  chmodSync(configFile, 0o644);
};
const stored = () =>
  (JSON.parse(readFileSync(configFile, "utf8")) as { profiles: Record<string, Record<string, unknown>> }).profiles
    .default;

describe("the config file stays 0600 in a 0700 folder", () => {
  it("after config set, auth login --with-key, config set api_key -, config unset and auth logout, under umask 000", async () => {
    const steps: Array<
      [string[], { input?: string; env?: Record<string, string> }, (v: Record<string, unknown> | undefined) => void]
    > = [
      [["config", "set", "retries", "4"], {}, (v) => expect(v).toEqual({ retries: 4 })],
      [
        ["auth", "login", "--with-key"],
        { input: `${KEY}\n`, env: { PEP_API_KEY: "" } },
        // --base-url is stored with the key
        (v) => expect(v).toEqual({ retries: 4, base_url: `${srv.url}/v1`, api_key: KEY, api_key_origin: srv.url }),
      ],
      [
        ["config", "set", "api_key", "-"],
        { input: `${KEY}\n` },
        (v) => expect(v).toEqual({ retries: 4, base_url: `${srv.url}/v1`, api_key: KEY, api_key_origin: srv.url }),
      ],
      [
        ["config", "unset", "retries"],
        {},
        (v) => expect(v).toEqual({ base_url: `${srv.url}/v1`, api_key: KEY, api_key_origin: srv.url }),
      ],
      [["auth", "logout"], {}, (v) => expect(v).toEqual({ base_url: `${srv.url}/v1` })],
    ];
    for (const [argv, options, check] of steps) {
      if (existsSync(configFile)) loosen();
      const r = await pep(["-v", ...argv], { ...options, umask: "000" });
      expect(r.code, `${argv.join(" ")}: ${r.err}`).toBe(0);
      expectNoKey(r);
      expect(mode(tmp.env.PEP_CONFIG_DIR!), argv.join(" ")).toBe(0o700);
      expect(mode(configFile), argv.join(" ")).toBe(0o600);
      check(stored());
      expect(readdirSync(tmp.env.PEP_CONFIG_DIR!)).toEqual(["config.json"]);
    }
  });

  it("a folder made for the file is 0700 at every level pep creates", async () => {
    const deep = path.join(tmp.dir, "a", "b", "pep");
    const r = await pep(["config", "set", "output", "json"], { umask: "000", env: { PEP_CONFIG_DIR: deep } });
    expect(r.code, r.err).toBe(0);
    for (const d of [path.join(tmp.dir, "a"), path.join(tmp.dir, "a", "b"), deep]) expect(mode(d), d).toBe(0o700);
    expect(mode(path.join(deep, "config.json"))).toBe(0o600);
  });

  it("the key is not taken on the command line, and not repeated when refused", async () => {
    const r = await pep(["config", "set", "api_key", KEY]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("pep auth login");
    expectNoKey(r);
    expect(existsSync(configFile)).toBe(false);
  });
});

describe("the cache never holds the key", () => {
  const cacheText = () => {
    const dir = tmp.env.PEP_CACHE_DIR!;
    // Every file under it, Node's module compile cache (node-compile-cache/…) included.
    if (!existsSync(dir)) return "";
    const files = readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((f) =>
      statSync(path.join(dir, f)).isFile(),
    );
    return files.map((f) => f + readFileSync(path.join(dir, f), "latin1")).join("\n");
  };

  it("an answer that echoes the key in its body or its ETag is not stored; another one is (the control)", async () => {
    for (const p of ["/echo", "/echo-etag"]) {
      for (let i = 0; i < 2; i++) expect((await pep(["api", p])).code).toBe(0);
      expect(srv.requests.filter((q) => q.path === `/v1${p}`).map((q) => q.headers["if-none-match"])).toEqual([
        undefined,
        undefined,
      ]);
    }
    expect(cacheText()).not.toContain("echo1");
    expect(leaksKey(cacheText())).toBe(false);
    for (let i = 0; i < 2; i++) expect((await pep(["api", "/plain"])).code).toBe(0);
    expect(srv.requests.filter((q) => q.path === "/v1/plain").map((q) => q.headers["if-none-match"])).toEqual([
      undefined,
      '"plain1"',
    ]);
    expect(cacheText()).toContain("plain1");
    expect(leaksKey(cacheText())).toBe(false);
  });
});

describe("no part of the key in failures", () => {
  it.skipIf(!existsSync("/dev/full") || !statSync("/dev/full").isCharacterDevice())(
    "a failure outside the API (stdout on a full disk) prints its stack with -v, and no key",
    async () => {
      const r = await pep(["-v", "api", "/echo"], { stdoutTo: "/dev/full" });
      expect(r.code, r.err).toBe(1);
      expect(r.err).toContain("error: cannot write the output");
      expect(r.err).toMatch(/\n {4}at /); // the stack trace is there
      expect(r.err).toContain("Authorization: Bearer ****d00d");
      expectNoKey(r);
    },
  );

  it("a 200 whose body is not JSON and begins with the key: V8's excerpt of it is not printed", async () => {
    for (const format of ["json", "table"]) {
      const r = await pep(["-v", "--no-retry", "api", "/key-text", "-o", format]);
      expect(r.code, r.err).toBe(6);
      expect(r.err).toMatch(/the response was not valid JSON: Unexpected token \(text\/plain\)/);
      expectNoKey(r);
    }
  });

  it("a config file that is not JSON and holds the key: the error names the file, not its text", async () => {
    mkdirSync(tmp.env.PEP_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    for (const text of [KEY, `${KEY}\n{"profiles": {}}`, `{"profiles": {"default": {"api_key": ${KEY}}}}`]) {
      writeFileSync(configFile, text, { mode: 0o600 });
      for (const argv of [
        ["auth", "status"],
        ["-v", "config", "list"],
        ["config", "set", "retries", "2"],
      ]) {
        const r = await pep(argv, { env: { PEP_API_KEY: "" } });
        expect(r.code, r.err).toBe(2);
        expect(r.err).toContain(`config file ${configFile} is not valid JSON`);
        expectNoKey(r);
      }
      expect(readFileSync(configFile, "utf8")).toBe(text);
    }
  });

  it("a key an HTTP header cannot carry (non-ASCII) is refused before sending: exit 2, not a network error", async () => {
    for (const key of ["sk_live_TOPSECRET_dĀ0d", "sk_live_TOPSECRET_dé0d"]) {
      const before = srv.requests.length;
      for (const header of ["bearer", "x-api-key"]) {
        const r = await pep(["-v", "--auth-header", header, "api", "/plain"], { env: { PEP_API_KEY: key } });
        expect(r.code, r.err).toBe(2);
        expect(r.err).toMatch(/the API key holds .*non-ASCII character/);
        expectNoKey(r, key);
      }
      expect(srv.requests.length).toBe(before);
    }
  });
});
