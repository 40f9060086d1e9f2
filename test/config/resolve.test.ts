import { writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { keyEnding } from "../../src/core/key-display.js";
import { profileName, resolveConfig } from "../../src/config/resolve.js";
import { openConfigStore } from "../../src/config/store.js";
import type { GlobalOptions } from "../../src/cli/run-context.js";
import { testIO } from "../../src/core/io.js";
import { scratch } from "../helpers/cli.js";

let tmp: ReturnType<typeof scratch>;
beforeEach(() => {
  tmp = scratch("pep-resolve-");
});
afterEach(() => tmp.cleanup());

async function resolve(globals: GlobalOptions, env: Record<string, string> = {}, stdin?: string) {
  const io = testIO({ env: { ...tmp.env, ...env }, stdin, cwd: tmp.dir });
  return resolveConfig(globals, io, openConfigStore(io.env));
}

describe("resolveConfig: flags > environment > profile > defaults", () => {
  it("uses the defaults when nothing is set", async () => {
    const cfg = await resolve({});
    expect(cfg).toMatchObject({
      profile: "default",
      baseUrl: undefined,
      apiKey: undefined,
      authHeader: "bearer",
      timeoutSeconds: 30,
      retries: 3,
      cache: true,
    });
  });

  it("takes each value from the strongest source", async () => {
    const store = openConfigStore(tmp.env);
    await store.set("default", "base_url", "https://profile.example/v1");
    await store.set("default", "timeout", 10);
    await store.set("default", "retries", 1);
    let cfg = await resolve({});
    expect([cfg.baseUrl, cfg.baseUrlSource, cfg.timeoutSeconds, cfg.retries]).toEqual([
      "https://profile.example/v1",
      "config",
      10,
      1,
    ]);
    cfg = await resolve({}, { PEP_BASE_URL: "https://env.example/v1", PEP_TIMEOUT: "20" });
    expect([cfg.baseUrl, cfg.baseUrlSource, cfg.timeoutSeconds]).toEqual(["https://env.example/v1", "env", 20]);
    cfg = await resolve(
      { baseUrl: "https://flag.example/v1/", timeout: "5", retry: false },
      { PEP_BASE_URL: "https://env.example/v1", PEP_TIMEOUT: "20" },
    );
    expect([cfg.baseUrl, cfg.baseUrlSource, cfg.timeoutSeconds, cfg.retries]).toEqual([
      "https://flag.example/v1",
      "flag",
      5,
      0,
    ]);
  });

  it("reads the profile named by --profile, else PEP_PROFILE", async () => {
    const store = openConfigStore(tmp.env);
    await store.set("work", "base_url", "https://work.example/v1");
    await store.set("ci", "base_url", "https://ci.example/v1");
    expect((await resolve({}, { PEP_PROFILE: "ci" })).baseUrl).toBe("https://ci.example/v1");
    expect((await resolve({ profile: "work" }, { PEP_PROFILE: "ci" })).baseUrl).toBe("https://work.example/v1");
    expect(profileName({ profile: "" }, {})).toBe("default");
  });

  it("takes the key from --api-key-file, then PEP_API_KEY, then the profile, and says which", async () => {
    await openConfigStore(tmp.env).set("default", "api_key", "sk_profile_1111");
    const file = path.join(tmp.dir, "key");
    writeFileSync(file, "sk_file_2222\n");
    let cfg = await resolve({});
    expect([cfg.apiKey, cfg.apiKeySource]).toEqual(["sk_profile_1111", "config"]);
    cfg = await resolve({}, { PEP_API_KEY: "sk_env_333333" });
    expect([cfg.apiKey, cfg.apiKeySource]).toEqual(["sk_env_333333", "env"]);
    cfg = await resolve({ apiKeyFile: file }, { PEP_API_KEY: "sk_env_333333" });
    expect([cfg.apiKey, cfg.apiKeySource]).toEqual(["sk_file_2222", "file"]);
    cfg = await resolve({ apiKeyFile: "-" }, { PEP_API_KEY: "sk_env_333333" }, "sk_stdin_4444\n");
    expect([cfg.apiKey, cfg.apiKeySource]).toEqual(["sk_stdin_4444", "stdin"]);
    // an empty PEP_API_KEY does not hide the stored key
    cfg = await resolve({}, { PEP_API_KEY: "  " });
    expect([cfg.apiKey, cfg.apiKeySource]).toEqual(["sk_profile_1111", "config"]);
  });

  it("turns the cache off with PEP_NO_CACHE=1 or --no-cache, not with PEP_NO_CACHE=0", async () => {
    expect((await resolve({}, { PEP_NO_CACHE: "1" })).cache).toBe(false);
    expect((await resolve({}, { PEP_NO_CACHE: "0" })).cache).toBe(true);
    expect((await resolve({ cache: false })).cache).toBe(false);
    await openConfigStore(tmp.env).set("default", "cache", false);
    expect((await resolve({})).cache).toBe(false);
  });

  it("names the source of a bad value", async () => {
    await expect(resolve({}, { PEP_TIMEOUT: "-1" })).rejects.toThrow(/PEP_TIMEOUT must be/);
    await expect(resolve({ retries: "11" })).rejects.toThrow(/--retries must be a whole number from 0 to 10/);
    await expect(resolve({ baseUrl: "ftp://x/v1" })).rejects.toThrow(/--base-url must be an http\(s\) URL/);
  });
});

describe("keyEnding", () => {
  it("shows the last 4 characters only, and nothing of a short key", () => {
    expect(keyEnding("sbx_full_key")).toBe("…_key");
    expect(keyEnding("abcd")).toBe("****");
    expect(keyEnding("abcdefg")).toBe("****");
    expect(keyEnding("abcdefgh")).toBe("…efgh");
    expect(keyEnding("sk_live_0123456789")).not.toContain("sk_live");
  });
});
