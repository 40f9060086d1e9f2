import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KEY_FILE_MAX_BYTES, readKeyFile } from "../../src/config/key-file.js";
import { configDir } from "../../src/config/locations.js";
import { openConfigStore } from "../../src/config/store.js";
import { ConfigError, UsageError } from "../../src/core/errors.js";
import { PassThrough } from "node:stream";
import { scratch } from "../helpers/cli.js";

let tmp: ReturnType<typeof scratch>;
beforeEach(() => {
  tmp = scratch("pep-store-");
});
afterEach(() => tmp.cleanup());

const mode = (p: string) => statSync(p).mode & 0o777;

describe("config store", () => {
  it("creates the folder at 0700 and the file at 0600 on first write", async () => {
    const store = openConfigStore(tmp.env);
    expect(store.profile("default")).toEqual({});
    await store.set("default", "api_key", "sk_test_secret_1234");
    expect(store.file).toBe(path.join(tmp.env.PEP_CONFIG_DIR!, "config.json"));
    expect(mode(tmp.env.PEP_CONFIG_DIR!)).toBe(0o700);
    expect(mode(store.file)).toBe(0o600);
    expect(JSON.parse(readFileSync(store.file, "utf8"))).toEqual({
      profiles: { default: { api_key: "sk_test_secret_1234" } },
    });
  });

  it("tightens a config file that was created too open, and leaves the folder it did not create as it is", async () => {
    mkdirSync(tmp.env.PEP_CONFIG_DIR!, { mode: 0o755 });
    chmodSync(tmp.env.PEP_CONFIG_DIR!, 0o755);
    const file = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
    writeFileSync(file, "{}", { mode: 0o644 });
    chmodSync(file, 0o644);
    await openConfigStore(tmp.env).set("default", "timeout", 5);
    expect(mode(tmp.env.PEP_CONFIG_DIR!)).toBe(0o755);
    expect(mode(file)).toBe(0o600);
  });

  it("a shared folder (mode 1777) keeps its mode and sticky bit; only pep's own file is 0600", async () => {
    const shared = path.join(tmp.dir, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const store = openConfigStore({ PEP_CONFIG_DIR: shared });
    await store.set("default", "retries", 2);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(mode(store.file)).toBe(0o600);
  });

  it("creates missing parents and its own folder at 0700", async () => {
    const nested = path.join(tmp.dir, "a", "b", "pep");
    const store = openConfigStore({ PEP_CONFIG_DIR: nested });
    await store.set("default", "retries", 2);
    expect(mode(nested)).toBe(0o700);
    expect(mode(store.file)).toBe(0o600);
  });

  it("an empty (0-byte or blank) config file is an empty config: read as {}, written over", async () => {
    for (const text of ["", "  \n"]) {
      mkdirSync(tmp.env.PEP_CONFIG_DIR!, { recursive: true });
      const file = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
      writeFileSync(file, text);
      const store = openConfigStore(tmp.env);
      expect(store.profile("default")).toEqual({});
      await store.set("default", "retries", 4);
      expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({ profiles: { default: { retries: 4 } } });
      expect(mode(file)).toBe(0o600);
    }
  });

  it("keeps profiles apart and removes one key without touching the others", async () => {
    const store = openConfigStore(tmp.env);
    await store.set("default", "base_url", "https://a.example/v1");
    await store.set("work", "base_url", "https://b.example/v1");
    await store.set("work", "retries", 5);
    expect(store.profiles().sort()).toEqual(["default", "work"]);
    expect(await store.unset("work", "retries")).toBe(true);
    expect(await store.unset("work", "retries")).toBe(false);
    expect(await store.unset("nobody", "api_key")).toBe(false);
    expect(store.profile("work")).toEqual({ base_url: "https://b.example/v1" });
    expect(store.profile("default")).toEqual({ base_url: "https://a.example/v1" });
  });

  it("keeps keys it does not know in the file", async () => {
    mkdirSync(tmp.env.PEP_CONFIG_DIR!, { recursive: true });
    const file = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
    writeFileSync(file, JSON.stringify({ profiles: { default: { future_key: 1 } }, other: true }));
    await openConfigStore(tmp.env).set("default", "cache", false);
    expect(JSON.parse(readFileSync(file, "utf8"))).toEqual({
      profiles: { default: { future_key: 1, cache: false } },
      other: true,
    });
  });

  it.each([
    ["not JSON", "{ profiles: "],
    ["an array", "[1, 2]"],
    ["profiles not an object", '{"profiles": 3}'],
  ])("refuses a corrupt file (%s), naming it, and never rewrites it", async (_what, text) => {
    mkdirSync(tmp.env.PEP_CONFIG_DIR!, { recursive: true });
    const file = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
    writeFileSync(file, text);
    const store = openConfigStore(tmp.env);
    expect(() => store.profile("default")).toThrow(ConfigError);
    expect(() => store.profile("default")).toThrow(file);
    await expect(store.set("default", "timeout", 3)).rejects.toThrow(file);
    await expect(store.unset("default", "timeout")).rejects.toThrow(ConfigError);
    expect(readFileSync(file, "utf8")).toBe(text);
  });

  it("refuses a stored value of the wrong kind, naming the profile and key", () => {
    mkdirSync(tmp.env.PEP_CONFIG_DIR!, { recursive: true });
    writeFileSync(
      path.join(tmp.env.PEP_CONFIG_DIR!, "config.json"),
      JSON.stringify({ profiles: { default: { retries: 99 } } }),
    );
    expect(() => openConfigStore(tmp.env).profile("default")).toThrow(/default\.retries/);
  });

  it("finds the folder from PEP_CONFIG_DIR, then XDG_CONFIG_HOME, then ~/.config", () => {
    expect(configDir({ PEP_CONFIG_DIR: "/x/y" })).toBe("/x/y");
    expect(configDir({ XDG_CONFIG_HOME: "/xdg" })).toBe("/xdg/pep");
    expect(configDir({ XDG_CONFIG_HOME: "relative" })).toMatch(/\.config\/pep$/);
  });
});

describe("readKeyFile", () => {
  const stdin = (text: string) => {
    const s = new PassThrough();
    s.end(text);
    return s;
  };

  it("takes the first non-empty line of a file or of stdin", async () => {
    const file = path.join(tmp.dir, "key.txt");
    writeFileSync(file, "\n  sk_file_key_9876  \nsecond line\n");
    expect(await readKeyFile(file, stdin(""), "/")).toBe("sk_file_key_9876");
    expect(await readKeyFile("key.txt", stdin(""), tmp.dir)).toBe("sk_file_key_9876");
    expect(await readKeyFile("-", stdin("\r\nsk_stdin_5555\r\n"), "/")).toBe("sk_stdin_5555");
  });

  it("names the flag and never the key in its errors", async () => {
    await expect(readKeyFile("-", stdin("  \n"), "/")).rejects.toThrow("--api-key-file: standard input holds no key");
    await expect(readKeyFile("-", stdin(""), "/", "--with-key")).rejects.toThrow(
      "--with-key: standard input holds no key",
    );
    const err = await readKeyFile("-", stdin("sk two words"), "/").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(String((err as Error).message)).not.toContain("two words");
    await expect(readKeyFile(path.join(tmp.dir, "missing"), stdin(""), "/")).rejects.toThrow(/ENOENT/);
  });

  it(`reads at most ${KEY_FILE_MAX_BYTES} bytes: a key file at the limit is read, one byte more is refused`, async () => {
    const file = path.join(tmp.dir, "key.txt");
    const atLimit = `sk_limit_1234\n${"#".repeat(KEY_FILE_MAX_BYTES - 14)}`;
    expect(Buffer.byteLength(atLimit)).toBe(KEY_FILE_MAX_BYTES);
    writeFileSync(file, atLimit);
    expect(await readKeyFile(file, stdin(""), "/")).toBe("sk_limit_1234");
    expect(await readKeyFile("-", stdin(atLimit), "/")).toBe("sk_limit_1234");
    writeFileSync(file, `${atLimit}#`);
    await expect(readKeyFile(file, stdin(""), "/")).rejects.toThrow(`--api-key-file: ${file} holds more than 4 KiB`);
    await expect(readKeyFile("-", stdin(`${atLimit}#`), "/", "--with-key")).rejects.toThrow(
      "--with-key: standard input holds more than 4 KiB",
    );
  });

  it("refuses a key with control characters (a binary file) without echoing it", async () => {
    const err = await readKeyFile("-", stdin("sk_ab\u0000cd\n"), "/").catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(
      "--api-key-file: standard input does not hold a key (it has control characters)",
    );
  });
});
