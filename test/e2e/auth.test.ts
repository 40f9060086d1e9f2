/**
 * `pep auth login|status|logout` end to end against a loopback server that accepts one
 * key: the key checked before it is stored, stored at 0600 in a 0700 folder, nothing
 * stored when refused or unreachable, and only its last 4 characters ever shown.
 */
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testIO, type TestIO } from "../../src/core/io.js";
import { run } from "../../src/cli/main.js";
import { runPep, scratch } from "../helpers/cli.js";
import { envelope, errorBody, sendJson, startServer, unusedPort, type TestServer } from "../helpers/server.js";

const GOOD = "sk_good_key_ab12";
let srv: TestServer;
let tmp: ReturnType<typeof scratch>;
let file: string;
let base: string;

beforeAll(async () => {
  srv = await startServer({
    "/v1/": (req, res) => {
      const key = req.headers.authorization?.replace(/^Bearer /, "") ?? req.headers["x-api-key"];
      if (key === GOOD || key === undefined) sendJson(res, 200, envelope({ version: "1.0.0", endpoints: [] }));
      else sendJson(res, 401, errorBody("invalid_key", "Invalid API key", "req_bad"));
    },
  });
  base = `${srv.url}/v1`;
});
afterAll(() => srv.close());
beforeEach(() => {
  tmp = scratch("pep-auth-");
  file = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
  srv.requests.length = 0;
});
afterEach(() => tmp.cleanup());

const pep = (argv: string[], options: { env?: Record<string, string>; stdin?: string } = {}) =>
  runPep(["--base-url", base, ...argv], { env: { ...tmp.env, ...options.env }, stdin: options.stdin });

const storedProfile = (profile = "default"): Record<string, unknown> =>
  (JSON.parse(readFileSync(file, "utf8")) as { profiles: Record<string, Record<string, unknown>> }).profiles[profile] ??
  {};
const storedKey = (profile = "default") => storedProfile(profile).api_key;

describe("pep auth login", () => {
  it("checks the key with GET / and stores it at 0600 in a 0700 folder", async () => {
    const r = await pep(["auth", "login", "--with-key"], { stdin: `${GOOD}\n` });
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("");
    expect(r.err).toMatch(
      new RegExp(`Logged in to ${base} as profile default \\(key …ab12, fingerprint [0-9a-f]{4}…[0-9a-f]{4}\\)`),
    );
    expect(storedProfile().base_url).toBe(base); // --base-url is stored with the key
    expect(r.err).not.toContain(GOOD);
    expect(srv.requests.map((q) => [q.path, q.headers.authorization])).toEqual([["/v1/", `Bearer ${GOOD}`]]);
    expect(storedKey()).toBe(GOOD);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(tmp.env.PEP_CONFIG_DIR!).mode & 0o777).toBe(0o700);
  });

  it("stores nothing when the API refuses the key (exit 3)", async () => {
    const r = await pep(["auth", "login", "--with-key"], { stdin: "sk_wrong_key_zz99\n" });
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/refused the key …zz99: Invalid API key \(HTTP 401, invalid_key, request req_bad\)/);
    expect(r.err).toContain("Nothing was stored");
    expect(r.err).not.toContain("sk_wrong_key");
    expect(existsSync(file)).toBe(false);
  });

  it("stores nothing when the API cannot be reached (exit 6)", async () => {
    const port = await unusedPort();
    const r = await runPep(["--base-url", `http://127.0.0.1:${port}/v1`, "--no-retry", "auth", "login", "--with-key"], {
      env: tmp.env,
      stdin: GOOD,
    });
    expect(r.code).toBe(6);
    expect(r.err).toContain("connection refused");
    expect(r.err).toContain("Nothing was stored");
    expect(existsSync(file)).toBe(false);
  });

  it("keeps a stored key when a new one is refused", async () => {
    await pep(["auth", "login", "--with-key"], { stdin: GOOD });
    expect((await pep(["auth", "login", "--with-key"], { stdin: "sk_wrong_key_zz99" })).code).toBe(3);
    expect(storedKey()).toBe(GOOD);
  });

  it("asks for --with-key when stdin is not a terminal, sending nothing", async () => {
    const r = await pep(["auth", "login"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("--with-key");
    expect(srv.requests).toHaveLength(0);
  });

  it("refuses an empty stdin with exit 2", async () => {
    const r = await pep(["auth", "login", "--with-key"], { stdin: "\n\n" });
    expect(r.code).toBe(2);
    expect(r.err).toContain("--with-key: standard input holds no key");
    expect(existsSync(file)).toBe(false);
  });

  it("takes the key from --api-key-file too, and stores it in the chosen profile", async () => {
    const keyFile = path.join(tmp.dir, "key.txt");
    writeFileSync(keyFile, `${GOOD}\n`);
    const r = await pep(["--profile", "work", "--api-key-file", keyFile, "auth", "login"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain("as profile work (key …ab12, fingerprint ");
    expect(storedKey("work")).toBe(GOOD);
    expect(storedKey("default")).toBeUndefined();
  });

  it("sends the key with the configured header (x-api-key)", async () => {
    const r = await pep(["--auth-header", "x-api-key", "auth", "login", "--with-key"], { stdin: GOOD });
    expect(r.code, r.err).toBe(0);
    expect(srv.requests[0]!.headers["x-api-key"]).toBe(GOOD);
    expect(srv.requests[0]!.headers.authorization).toBeUndefined();
  });

  it("warns that PEP_API_KEY overrides the key it stored", async () => {
    const r = await pep(["auth", "login", "--with-key"], { stdin: GOOD, env: { PEP_API_KEY: "sk_other_env_key" } });
    expect(r.code).toBe(0);
    expect(r.err).toContain("PEP_API_KEY is set");
    expect(srv.requests[0]!.headers.authorization).toBe(`Bearer ${GOOD}`);
  });

  it("reads the key from a hidden prompt on a terminal, echoing nothing", async () => {
    const stdin = Object.assign(new PassThrough(), {
      isRaw: false,
      setRawMode(m: boolean) {
        stdin.isRaw = m;
      },
    });
    const io = { ...testIO({ env: tmp.env, tty: true }), stdin, stdinIsTTY: true } as TestIO;
    const done = run(["--base-url", base, "auth", "login"], { io });
    setTimeout(() => stdin.write(`${GOOD}\r`), 10);
    expect(await done).toBe(0);
    expect(io.err()).toContain("Paste your API key (input hidden): ");
    expect(io.err() + io.out()).not.toContain(GOOD);
    expect(stdin.isRaw).toBe(false);
    expect(storedKey()).toBe(GOOD);
  });
});

describe("pep auth status", () => {
  it("shows profile, base URL, key source and fingerprint, and that the API accepts it", async () => {
    await pep(["auth", "login", "--with-key"], { stdin: GOOD });
    srv.requests.length = 0;
    const r = await pep(["auth", "status", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual({
      profile: "default",
      base_url: base,
      base_url_source: "flag",
      api_key: "…ab12",
      fingerprint: expect.stringMatching(/^[0-9a-f]{4}…[0-9a-f]{4}$/),
      api_key_source: "config",
      api_key_origin: new URL(base).origin,
      scopes_seen: [],
      scopes_refused: [],
      key_check: "accepted",
      api_version: "1.0.0",
      config_file: file,
    });
    expect(srv.requests[0]!.headers.authorization).toBe(`Bearer ${GOOD}`);
    const table = await pep(["auth", "status", "-o", "table"]);
    expect(table.code).toBe(0);
    expect(table.out).toContain("…ab12");
    expect(table.out + table.err + r.out + r.err).not.toContain(GOOD);
  });

  it("tells where the key comes from: env, file, stdin", async () => {
    const keyFile = path.join(tmp.dir, "k");
    writeFileSync(keyFile, GOOD);
    const source = async (argv: string[], options: { env?: Record<string, string>; stdin?: string } = {}) =>
      (JSON.parse((await pep([...argv, "auth", "status", "-o", "json"], options)).out) as { api_key_source: string })
        .api_key_source;
    expect(await source([], { env: { PEP_API_KEY: GOOD } })).toBe("env");
    expect(await source(["--api-key-file", keyFile], { env: { PEP_API_KEY: "sk_ignored_env" } })).toBe("file");
    expect(await source(["--api-key-file", "-"], { stdin: `${GOOD}\n` })).toBe("stdin");
  });

  it("exits 3 when the API refuses the key, naming its fingerprint and origin", async () => {
    const r = await pep(["auth", "status"], { env: { PEP_API_KEY: "sk_revoked_key_r3v0" } });
    expect(r.code).toBe(3);
    expect(r.out).toBe("");
    expect(r.err).toMatch(/refused the key …r3v0 \(from PEP_API_KEY\) of profile default/);
    expect(r.err).toContain("PEP_API_KEY is set and overrides the stored key");
    expect(r.err).not.toContain("sk_revoked");
  });

  it("exits 3 without a request when there is no key", async () => {
    const r = await pep(["auth", "status"]);
    expect(r.code).toBe(3);
    expect(r.err).toContain("no API key is set for profile default");
    expect(r.err).toContain("pep auth login");
    expect(srv.requests).toHaveLength(0);
  });

  it("exits 6 when the API cannot be reached", async () => {
    const port = await unusedPort();
    const r = await runPep(["--base-url", `http://127.0.0.1:${port}/v1`, "--no-retry", "auth", "status"], {
      env: { ...tmp.env, PEP_API_KEY: GOOD },
    });
    expect(r.code).toBe(6);
  });
});

describe("pep auth logout", () => {
  it("removes the stored key, and says when there was none", async () => {
    await pep(["auth", "login", "--with-key"], { stdin: GOOD });
    const first = await runPep(["auth", "logout"], { env: tmp.env });
    expect(first.code).toBe(0);
    expect(first.err).toContain(`Removed the API key of profile default from ${file}`);
    expect(storedKey()).toBeUndefined();
    const second = await runPep(["auth", "logout"], { env: tmp.env });
    expect(second.code).toBe(0);
    expect(second.err).toContain("Profile default has no stored API key; nothing to remove");
    expect((await pep(["auth", "status"])).code).toBe(3);
  });

  it("removes only the chosen profile's key and warns about PEP_API_KEY", async () => {
    await pep(["auth", "login", "--with-key"], { stdin: GOOD });
    await pep(["--profile", "work", "auth", "login", "--with-key"], { stdin: GOOD });
    const r = await runPep(["--profile", "work", "auth", "logout"], {
      env: { ...tmp.env, PEP_API_KEY: "x_env_key_long" },
    });
    expect(r.code).toBe(0);
    expect(r.err).toContain("PEP_API_KEY is still set");
    expect(storedKey("work")).toBeUndefined();
    expect(storedKey("default")).toBe(GOOD);
  });
});

describe("pep auth status against the sandbox", () => {
  it("shows the API version the index names (api_version)", async () => {
    const r = await runPep(["--sandbox", "auth", "status", "-o", "json"], { env: tmp.env });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out).api_version).toBe("v1");
  });
});
