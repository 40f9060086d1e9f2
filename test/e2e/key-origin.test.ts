/**
 * A stored key goes only to the origin it was stored for, as gh keeps one token per
 * host: after `pep auth login --base-url A`, a run whose base URL is B (PEP_BASE_URL from
 * a `.envrc`, a --base-url) sends no key to B and says so once; `pep auth status` names
 * the origin the key belongs to, and against B says the key was not sent. A key given
 * for the run (PEP_API_KEY, --api-key-file) is sent as before. A profile stored before
 * origins were recorded keeps its key for its own base_url. Two loopback servers.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

const KEY = "sk_bound_key_0123456789";
let a: TestServer;
let b: TestServer;
let tmp: ReturnType<typeof scratch>;

const index = (req: { headers: Record<string, string | string[] | undefined> }, res: Parameters<typeof sendJson>[0]) =>
  sendJson(res, 200, envelope({ version: "1.0.0", endpoints: [], seen: req.headers.authorization ?? null }));

beforeAll(async () => {
  a = await startServer({ "/v1/": index });
  b = await startServer({ "/v1/": index });
});
afterAll(async () => {
  await a.close();
  await b.close();
});
beforeEach(() => {
  tmp = scratch("pep-key-origin-");
  a.requests.length = 0;
  b.requests.length = 0;
});
afterEach(() => tmp.cleanup());

const pep = (argv: string[], env: Record<string, string> = {}, stdin?: string) =>
  runPep(argv, { env: { ...tmp.env, ...env }, ...(stdin === undefined ? {} : { stdin }) });
const configFile = () => path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
const sentKeys = (srv: TestServer) => srv.requests.map((r) => r.headers.authorization ?? null);

async function loginAtA(profile = "default"): Promise<void> {
  const r = await pep(["--profile", profile, "auth", "login", "--base-url", `${a.url}/v1`, "--with-key"], {}, KEY);
  expect(r.code, r.err).toBe(0);
  expect(r.err).toContain(`for ${a.url} only`);
}

describe("a key stored for one origin", () => {
  it("is not sent to another base URL: one note on stderr, no Authorization header", async () => {
    await loginAtA();
    const r = await pep(["api", "/", "-o", "json"], { PEP_BASE_URL: `${b.url}/v1` });
    expect(r.code, r.err).toBe(0);
    expect(sentKeys(b)).toEqual([null]);
    const notes = r.err.split("\n").filter((l) => l.includes("is not sent to"));
    expect(notes).toEqual([
      `note: the stored key of profile default belongs to ${a.url}, so it is not sent to ${b.url}, this run's base URL; \`pep auth login --base-url <url>\` stores a key for it, or give one for this run with PEP_API_KEY or --api-key-file`,
    ]);
    expect(r.out + r.err).not.toContain(KEY);
  });

  it("is sent to its own origin, and auth status names that origin", async () => {
    await loginAtA();
    a.requests.length = 0;
    const r = await pep(["auth", "status", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ api_key_source: "config", api_key_origin: a.url, key_check: "accepted" });
    expect(sentKeys(a)).toEqual([`Bearer ${KEY}`]);
  });

  it("auth status against another origin exits 3, saying whose key it is, and sends nothing", async () => {
    await loginAtA();
    const r = await pep(["auth", "status"], { PEP_BASE_URL: `${b.url}/v1` });
    expect(r.code).toBe(3);
    expect(r.err).toContain(`the stored key of profile default belongs to ${a.url}, not to ${b.url}`);
    expect(b.requests).toHaveLength(0);
  });

  it("a key given for the run goes to the run's base URL as before", async () => {
    await loginAtA();
    const viaEnv = await pep(["api", "/"], { PEP_BASE_URL: `${b.url}/v1`, PEP_API_KEY: "sk_run_key_abcdef123456" });
    expect(viaEnv.code, viaEnv.err).toBe(0);
    const keyFile = path.join(tmp.dir, "key.txt");
    writeFileSync(keyFile, "sk_file_key_abcdef123456\n", { mode: 0o600 });
    const viaFile = await pep(["--api-key-file", keyFile, "api", "/"], { PEP_BASE_URL: `${b.url}/v1` });
    expect(viaFile.code, viaFile.err).toBe(0);
    expect(sentKeys(b)).toEqual(["Bearer sk_run_key_abcdef123456", "Bearer sk_file_key_abcdef123456"]);
    expect(viaEnv.err + viaFile.err).not.toContain("is not sent to");
  });

  it("each profile keeps its own: a profile stored for B is sent to B", async () => {
    await loginAtA();
    const r = await pep(["--profile", "b", "auth", "login", "--base-url", `${b.url}/v1`, "--with-key"], {}, KEY);
    expect(r.code, r.err).toBe(0);
    b.requests.length = 0;
    expect((await pep(["--profile", "b", "api", "/"])).code).toBe(0);
    expect((await pep(["api", "/"])).code).toBe(0);
    expect(sentKeys(b)).toEqual([`Bearer ${KEY}`]);
    expect(sentKeys(a).at(-1)).toBe(`Bearer ${KEY}`);
  });

  it("a profile stored before origins were recorded keeps its key for its own base_url", async () => {
    const { mkdirSync } = await import("node:fs");
    mkdirSync(tmp.env.PEP_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    writeFileSync(configFile(), JSON.stringify({ profiles: { default: { base_url: `${a.url}/v1`, api_key: KEY } } }), {
      mode: 0o600,
    });
    expect((await pep(["api", "/"])).code).toBe(0);
    expect((await pep(["api", "/"], { PEP_BASE_URL: `${b.url}/v1` })).code).toBe(0);
    expect(sentKeys(a)).toEqual([`Bearer ${KEY}`]);
    expect(sentKeys(b)).toEqual([null]);
    // Nothing is rewritten by reading it.
    expect(JSON.parse(readFileSync(configFile(), "utf8")).profiles.default).toEqual({
      base_url: `${a.url}/v1`,
      api_key: KEY,
    });
  });
});
