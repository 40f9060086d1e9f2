/**
 * A config file that someone else can write, as ssh refuses one: whoever can write
 * config.json (mode 666, a group-writable file, a folder others can write without the
 * sticky bit, a file or folder another user owns) can point `base_url` at their own
 * server and collect the key. pep refuses it before any request (exit 2), naming the
 * file and the `chmod` to run. Run as root; other owners are made with `chown 1234`.
 */
import { chmodSync, chownSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

const KEY = "sk_live_victim_key_1234";
let attacker: TestServer;
let tmp: ReturnType<typeof scratch>;
let dir: string;
let file: string;

beforeAll(async () => {
  attacker = await startServer((_req, res) => sendJson(res, 200, envelope([])));
});
afterAll(async () => {
  await attacker.close();
  tmp?.cleanup();
});
beforeEach(() => {
  tmp?.cleanup();
  tmp = scratch("pep-hostile-config-");
  dir = path.join(tmp.dir, "conf");
  file = path.join(dir, "config.json");
  mkdirSync(dir, { mode: 0o700 });
  chmodSync(dir, 0o700);
  // What someone else wrote into it: their server, the victim's key still there.
  writeFileSync(file, JSON.stringify({ profiles: { default: { base_url: `${attacker.url}/v1`, api_key: KEY } } }), {
    mode: 0o600,
  });
  chmodSync(file, 0o600);
});

const pep = (argv: readonly string[], format = "table") =>
  runPep([...argv, "-o", format], { env: { PEP_CONFIG_DIR: dir, PEP_CACHE_DIR: path.join(tmp.dir, "cache") } });

const isRoot = process.getuid?.() === 0;

async function expectRefused(chmodLine: RegExp | undefined, reason: RegExp): Promise<void> {
  const before = attacker.requests.length;
  const r = await pep(["vendors", "list"]);
  expect(r.code, r.err).toBe(2);
  expect(attacker.requests.length).toBe(before);
  expect(r.out).toBe("");
  expect(r.err).toMatch(reason);
  expect(r.err).not.toContain(KEY);
  if (chmodLine) expect(r.err).toMatch(chmodLine);
  // the JSON form says the same, with its code
  const j = await pep(["vendors", "list"], "json");
  expect(j.code).toBe(2);
  const o = JSON.parse(j.err.trim()) as { error: { code: string; message: string }; hints: string[] };
  expect(o.error.code).toBe("config_error");
  expect(o.error.message).toMatch(reason);
}

describe.runIf(process.platform !== "win32")("a config file others can write is refused before any request", () => {
  it("mode 666", async () => {
    chmodSync(file, 0o666);
    await expectRefused(
      new RegExp(`chmod 600 ${file.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`),
      /config file .*config\.json.* can be written by others \(mode 0666\)/,
    );
  });

  it("group-writable (mode 620)", async () => {
    chmodSync(file, 0o620);
    await expectRefused(/chmod 600 /, /can be written by others \(mode 0620\)/);
  });

  it("a folder others can write, without the sticky bit (mode 777)", async () => {
    chmodSync(dir, 0o777);
    await expectRefused(
      new RegExp(`chmod go-w ${dir.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}`),
      /config folder .*conf.* can be written by others \(mode 0777\)/,
    );
  });

  it.runIf(isRoot)("a file another user owns", async () => {
    chownSync(file, 1234, 1234);
    await expectRefused(undefined, /config file .*config\.json.* belongs to uid 1234/);
  });

  it.runIf(isRoot)("a folder another user owns", async () => {
    chownSync(dir, 1234, 1234);
    await expectRefused(undefined, /config folder .*conf.* belongs to uid 1234/);
  });

  it("config set refuses to write into such a file too, and leaves it as it was", async () => {
    chmodSync(file, 0o666);
    const r = await pep(["config", "set", "retries", "5"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/chmod 600 /);
  });
});

describe.runIf(process.platform !== "win32")("what stays accepted", () => {
  it("0600 in a 0700 folder; 0644 (others may read, not write)", async () => {
    for (const mode of [0o600, 0o644]) {
      chmodSync(file, mode);
      const before = attacker.requests.length;
      const r = await pep(["peptides", "list", "--limit", "1"]);
      expect(r.code, r.err).toBe(0);
      expect(attacker.requests.length).toBe(before + 1);
    }
  });

  it("a sticky folder others can write (a 1777 tmp): nobody else can replace a file there", async () => {
    chmodSync(dir, 0o1777);
    const r = await pep(["peptides", "list", "--limit", "1"]);
    expect(r.code, r.err).toBe(0);
  });

  it.runIf(isRoot)("a file root owns", async () => {
    chownSync(file, 0, 0);
    const r = await pep(["peptides", "list", "--limit", "1"]);
    expect(r.code, r.err).toBe(0);
  });

  it("pep config path still prints where the file is, to help fix it", async () => {
    chmodSync(file, 0o666);
    const r = await pep(["config", "path"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toContain(file);
  });
});
