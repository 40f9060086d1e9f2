/**
 * Sign-in and profiles end to end, run in-process against the sandbox
 * server and a loopback server that counts requests: `auth login` stops before reading a
 * key when there is no base URL, stores `--base-url` with the key, an unknown profile is
 * refused before any request, every suggested command names the profile in use,
 * `config profiles` lists and deletes, and `auth status` tells keys apart by fingerprint
 * and shows the scopes they were seen to have.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { PassThrough } from "node:stream";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { testIO, type TestIO } from "../../src/core/io.js";
import { run } from "../../src/cli/main.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { scratch, inProcessPep } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

let sbx: Sandbox;
let counter: TestServer;
let tmp: ReturnType<typeof scratch>;
let file: string;

beforeAll(async () => {
  sbx = await startSandbox({ port: 0, host: "127.0.0.1" });
  counter = await startServer((_req, res) => sendJson(res, 200, envelope({ version: "1.0.0", endpoints: [] })));
});
afterAll(async () => {
  await sbx.close();
  await counter.close();
});
beforeEach(() => {
  tmp = scratch("pep-profiles-");
  file = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
  counter.requests.length = 0;
});
afterEach(() => tmp.cleanup());

const pep = (argv: string[], options: { env?: Record<string, string>; input?: string } = {}) =>
  inProcessPep(argv, { env: { ...tmp.env, ...options.env }, input: options.input });

type Shape = { profiles: Record<string, Record<string, unknown>> };
const stored = (): Shape => JSON.parse(readFileSync(file, "utf8")) as Shape;

/** Stores `profiles` through `pep config set`, the way a user makes them. */
async function makeProfiles(values: Record<string, Record<string, string>>): Promise<void> {
  for (const [profile, kv] of Object.entries(values))
    for (const [key, value] of Object.entries(kv)) {
      const r = await pep(["--profile", profile, "config", "set", key, value]);
      expect(r.code, r.err).toBe(0);
    }
}

describe("pep auth login without a base URL", () => {
  it("exits 2 before reading the key, saying how to give one, and stores nothing", async () => {
    const r = await pep(["auth", "login", "--with-key"], { input: "sbx_full_key\n" });
    expect(r.code).toBe(2);
    expect(r.err).toContain("error: profile default has no API base URL");
    expect(r.err).toContain("`pep auth login --base-url https://<host>/v1`");
    expect(r.err).toContain("`pep config set base_url https://<host>/v1`");
    expect(r.err).not.toContain("--profile"); // the default profile is named nowhere
    expect(r.err).not.toContain("sbx_full_key");
    expect(existsSync(file)).toBe(false);
  });

  it("names the profile in use in the commands it suggests", async () => {
    const r = await pep(["--profile", "work", "auth", "login", "--with-key"], { input: "sbx_full_key\n" });
    expect(r.code).toBe(2);
    expect(r.err).toContain("profile work has no API base URL");
    expect(r.err).toContain("`pep --profile work auth login --base-url https://<host>/v1`");
    expect(r.err).toContain("`pep --profile work config set base_url https://<host>/v1`");
  });

  it("leaves the key on stdin unread, and asks for nothing on a terminal", async () => {
    const stdin = new PassThrough();
    stdin.write("sbx_full_key\n");
    const io = { ...testIO({ env: tmp.env }), stdin } as TestIO;
    expect(await run(["auth", "login", "--with-key"], { io })).toBe(2);
    expect(String(stdin.read())).toBe("sbx_full_key\n"); // still there: never read

    const tty = Object.assign(new PassThrough(), { isRaw: false, setRawMode: () => {} });
    const ttyIO = { ...testIO({ env: tmp.env, tty: true }), stdin: tty, stdinIsTTY: true } as TestIO;
    expect(await run(["auth", "login"], { io: ttyIO })).toBe(2);
    expect(ttyIO.err()).not.toContain("Paste your API key");
    expect(ttyIO.err()).toContain("has no API base URL");
  });

  it("does not open an --api-key-file either", async () => {
    const r = await pep(["--api-key-file", path.join(tmp.dir, "missing-key-file"), "auth", "login"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("has no API base URL");
    expect(r.err).not.toContain("cannot read");
  });

  it("refuses a base URL that is not one (exit 2, naming the flag), sending nothing", async () => {
    const r = await pep(["auth", "login", "--base-url", `${counter.url}/api`, "--with-key"], { input: "k_12345678" });
    expect(r.code).toBe(2);
    expect(r.err).toContain("--base-url must end in the API's version segment");
    expect(counter.requests).toHaveLength(0);
    expect(existsSync(file)).toBe(false);
  });
});

describe("pep auth login --base-url", () => {
  it("stores the base URL with the key in the profile, so later runs need neither", async () => {
    const r = await pep(["--profile", "work", "auth", "login", "--base-url", sbx.baseUrl, "--with-key"], {
      input: "sbx_vendors_key\n",
    });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain("as profile work");
    expect(r.err).toContain("with the base URL");
    expect(stored().profiles).toEqual({
      work: { base_url: sbx.baseUrl, api_key: "sbx_vendors_key", api_key_origin: new URL(sbx.baseUrl).origin },
    });
    const vendors = await pep(["--profile", "work", "vendors", "list", "--limit", "1", "-o", "json"]);
    expect(vendors.code, vendors.err).toBe(0);
    expect(JSON.parse(vendors.out)).toHaveLength(1);
  });

  it("stores neither when the API refuses the key", async () => {
    const r = await pep(["auth", "login", "--base-url", sbx.baseUrl, "--with-key"], { input: "sbx_unknown_key\n" });
    expect(r.code).toBe(3);
    expect(r.err).toContain("Nothing was stored");
    expect(existsSync(file)).toBe(false);
  });
});

describe("an unknown profile", () => {
  beforeEach(() => makeProfiles({ work: { base_url: `${counter.url}/v1` } }));

  it("is an error listing the profiles, with the nearest, exit 2 and no request", async () => {
    const r = await pep(["--base-url", `${counter.url}/v1`, "--profile", "wrok", "peptides", "list"]);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toContain('error: unknown profile "wrok" (profiles: default, work)');
    expect(r.err).toContain("Did you mean `work`? (`--profile work`)");
    expect(counter.requests).toHaveLength(0);
  });

  it("says when the name came from PEP_PROFILE, and is one JSON object with -o json", async () => {
    const r = await pep(["--base-url", `${counter.url}/v1`, "health", "-o", "json"], {
      env: { PEP_PROFILE: "nosuch" },
    });
    expect(r.code).toBe(2);
    const failure = JSON.parse(r.err) as { error: { message: string }; exit_code: number };
    expect(failure.error.message).toBe('unknown profile "nosuch" from PEP_PROFILE (profiles: default, work)');
    expect(failure.exit_code).toBe(2);
    expect(counter.requests).toHaveLength(0);
  });

  it("is refused by offline commands and the sandbox too", async () => {
    for (const argv of [
      ["config", "list"],
      ["config", "get", "base_url"],
      ["config", "unset", "base_url"],
      ["auth", "logout"],
      ["auth", "status"],
      ["--sandbox", "peptides", "list"],
    ]) {
      const r = await pep(["--profile", "nosuch", ...argv]);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err, argv.join(" ")).toContain('unknown profile "nosuch"');
    }
    expect(Object.keys(stored().profiles)).toEqual(["work"]);
  });

  it("is made by config set and auth login", async () => {
    expect((await pep(["--profile", "fresh", "config", "set", "output", "csv"])).code).toBe(0);
    const login = await pep(["--profile", "other", "auth", "login", "--base-url", sbx.baseUrl, "--with-key"], {
      input: "sbx_full_key",
    });
    expect(login.code, login.err).toBe(0);
    expect(Object.keys(stored().profiles)).toEqual(["work", "fresh", "other"]);
    expect((await pep(["--profile", "fresh", "config", "get", "output"])).out).toBe("csv\n");
  });
});

describe("the default profile", () => {
  it("works on a fresh machine with no config file", async () => {
    const r = await pep(["--sandbox", "peptides", "list", "--limit", "1", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toHaveLength(1);
    expect((await pep(["config", "list"])).code).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});

describe("hints", () => {
  it("name the profile in use when it is not the default", async () => {
    await makeProfiles({ work: { base_url: sbx.baseUrl }, default: { base_url: sbx.baseUrl } });
    const work = await pep(["--profile", "work", "vendors", "list"]);
    expect(work.code).toBe(3);
    expect(work.err).toContain("`pep --profile work auth login`");
    expect(work.err).not.toMatch(/`pep auth/);
    const plain = await pep(["vendors", "list"]);
    expect(plain.code).toBe(3);
    expect(plain.err).toContain("`pep auth login`");
    expect(plain.err).not.toContain("--profile");
  });

  it("quote a profile name the shell would split", async () => {
    await makeProfiles({ "my work": { output: "json" } });
    const r = await pep(["--profile", "my work", "auth", "status"]);
    expect(r.code).toBe(3);
    expect(r.err).toContain("`pep --profile 'my work' auth login`");
  });

  it("in notices too", async () => {
    await makeProfiles({ work: { output: "json" } });
    await pep(["--profile", "work", "config", "unset", "output"]);
    const r = await pep(["--profile", "work", "config", "list"]);
    expect(r.code).toBe(0);
    expect(r.err).toContain("`pep --profile work config set <key> <value>`");
  });
});

describe("pep config profiles", () => {
  beforeEach(async () => {
    await makeProfiles({ work: { base_url: sbx.baseUrl }, ci: { output: "json" } });
    const login = await pep(["--profile", "work", "auth", "login", "--with-key"], { input: "sbx_full_key" });
    expect(login.code, login.err).toBe(0);
  });

  it("lists default and the stored ones, the one in use marked, a key only as whether there is one", async () => {
    const r = await pep(["--profile", "work", "config", "profiles", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual([
      { name: "default", in_use: false, has_key: false, base_url: null },
      { name: "work", in_use: true, has_key: true, base_url: sbx.baseUrl },
      { name: "ci", in_use: false, has_key: false, base_url: null },
    ]);
    expect(r.out + r.err).not.toContain("sbx_full_key");
    const table = await pep(["config", "profiles", "-o", "table"]);
    expect(table.code).toBe(0);
    expect(table.out).toMatch(/PROFILE\s+IN USE\s+API KEY\s+BASE URL/);
    // The key is said stored or not, never shown; an unset base URL reads "not set".
    expect(table.out).toMatch(/^default\s+yes\s+not set\s+not set$/m);
    expect(table.out).toMatch(/^work\s+stored\s+http:\/\/\S+$/m);
    expect(table.out).not.toContain("sbx_full_key");
  });

  it("deletes one with --delete, key included, and keeps the others", async () => {
    const r = await pep(["config", "profiles", "--delete", "work"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toContain(`Deleted profile work and all it held from ${file}`);
    expect(Object.keys(stored().profiles)).toEqual(["ci"]);
    expect(readFileSync(file, "utf8")).not.toContain("sbx_full_key");
    expect((await pep(["--profile", "work", "config", "list"])).code).toBe(2);
  });

  it("refuses to delete an unknown one (exit 2), listing the profiles and changing nothing", async () => {
    const before = readFileSync(file, "utf8");
    const r = await pep(["config", "profiles", "--delete", "wrk"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown profile "wrk" (profiles: default, work, ci)');
    expect(r.err).toContain("Did you mean `work`?");
    expect(readFileSync(file, "utf8")).toBe(before);
  });
});

describe("pep auth status", () => {
  beforeEach(async () => {
    for (const [profile, key] of [
      ["default", "sbx_vendors_key"],
      ["full", "sbx_full_key"],
    ] as const) {
      const r = await pep(["--profile", profile, "auth", "login", "--base-url", sbx.baseUrl, "--with-key"], {
        input: key,
      });
      expect(r.code, r.err).toBe(0);
    }
  });

  const status = async (argv: string[] = []) => {
    const r = await pep([...argv, "auth", "status", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out) as Record<string, unknown>;
  };

  it("tells apart two keys that end alike by their fingerprint", async () => {
    const vendors = await status();
    const full = await status(["--profile", "full"]);
    expect(vendors.api_key).toBe("…_key");
    expect(full.api_key).toBe("…_key");
    expect(vendors.fingerprint).toMatch(/^[0-9a-f]{4}…[0-9a-f]{4}$/);
    expect(full.fingerprint).toMatch(/^[0-9a-f]{4}…[0-9a-f]{4}$/);
    expect(vendors.fingerprint).not.toBe(full.fingerprint);
    expect(JSON.stringify([vendors, full])).not.toMatch(/sbx_(vendors|full)_key/);
  });

  it("shows the scopes keyed endpoints granted and refused the stored key", async () => {
    expect(await status()).toMatchObject({ scopes_seen: [], scopes_refused: [] });
    expect((await pep(["vendors", "list", "--limit", "1", "-o", "json"])).code).toBe(0);
    expect((await pep(["prices", "--limit", "1", "-o", "json"])).code).toBe(3);
    expect(await status()).toMatchObject({ scopes_seen: ["vendors:read"], scopes_refused: ["pricing:read"] });
    // Recorded per key: the other profile's key has seen nothing yet.
    expect(await status(["--profile", "full"])).toMatchObject({ scopes_seen: [], scopes_refused: [] });
    const card = await pep(["auth", "status", "-o", "table"]);
    expect(card.out).toMatch(/Fingerprint\s+[0-9a-f]{4}…[0-9a-f]{4}/);
    expect(card.out).toMatch(/Scopes seen\s+vendors:read/);
    expect(card.out).toMatch(/Scopes refused\s+pricing:read/);
    // What was seen is not a secret: the key is stored once, as api_key, and nowhere else.
    const text = readFileSync(file, "utf8");
    expect(text.split("sbx_vendors_key")).toHaveLength(2);
  });
});
