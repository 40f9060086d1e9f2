/**
 * `pep config list|get|set|unset|path` end to end, in-process: values checked before
 * they are written, the key shown only as its fingerprint, a corrupt file refused and
 * left as it was. None of these needs an API or a base URL.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";

let tmp: ReturnType<typeof scratch>;
let file: string;
beforeEach(() => {
  tmp = scratch("pep-config-");
  file = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
});
afterEach(() => tmp.cleanup());

const pep = (argv: string[], options: { env?: Record<string, string>; stdin?: string } = {}) =>
  runPep(argv, { env: { ...tmp.env, ...options.env }, stdin: options.stdin });

const stored = () => JSON.parse(readFileSync(file, "utf8")) as { profiles: Record<string, Record<string, unknown>> };

describe("pep config", () => {
  it("prints the config file path, also before the file exists", async () => {
    const r = await pep(["config", "path"]);
    expect(r).toMatchObject({ code: 0, out: `${file}\n` });
    expect(existsSync(file)).toBe(false);
  });

  it("sets, gets, lists and unsets values, typed as the key wants", async () => {
    expect((await pep(["config", "set", "base_url", "https://api.example.org/v1/"])).code).toBe(0);
    expect((await pep(["config", "set", "timeout", "12.5"])).code).toBe(0);
    expect((await pep(["config", "set", "retries", "0"])).code).toBe(0);
    expect((await pep(["config", "set", "cache", "off"])).code).toBe(0);
    const r = await pep(["config", "set", "output", "csv"]);
    expect(r.err).toContain("Set output = csv in profile default");
    expect(stored().profiles.default).toEqual({
      base_url: "https://api.example.org/v1",
      timeout: 12.5,
      retries: 0,
      cache: false,
      output: "csv",
    });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(tmp.env.PEP_CONFIG_DIR!).mode & 0o777).toBe(0o700);

    expect(await pep(["config", "get", "base_url"])).toMatchObject({ code: 0, out: "https://api.example.org/v1\n" });
    expect(await pep(["config", "get", "timeout"])).toMatchObject({ code: 0, out: "12.5\n" });

    const list = await pep(["config", "list", "-o", "json"]);
    expect(list.code).toBe(0);
    // The stored values, then the defaults in effect for the keys left unset, apart.
    const listed = JSON.parse(list.out) as Record<string, unknown> & { defaults: Record<string, unknown> };
    expect(listed).toEqual({
      base_url: "https://api.example.org/v1",
      output: "csv",
      timeout: 12.5,
      retries: 0,
      cache: false,
      defaults: expect.objectContaining({ auth_header: "bearer", cache_max_mb: 50, compress: true }),
    });
    for (const k of ["timeout", "retries", "cache", "output"]) expect(listed.defaults).not.toHaveProperty(k);

    const unset = await pep(["config", "unset", "timeout"]);
    expect(unset.code).toBe(0);
    expect(unset.err).toContain("Removed timeout from profile default");
    const again = await pep(["config", "unset", "timeout"]);
    expect(again.code).toBe(0);
    expect(again.err).toContain("timeout was not set in profile default");
    expect(stored().profiles.default!.timeout).toBeUndefined();
  });

  it("an unset key prints its default on stdout, and says on stderr that it is the default", async () => {
    const r = await pep(["config", "get", "retries"]);
    expect(r).toMatchObject({ code: 0, out: "3\n" });
    expect(r.err).toContain("retries is not set in profile default: 3 is the default");
    expect((await pep(["config", "get", "timeout"])).out).toBe("30\n");
    // A default that depends on the run is said, not printed as a value.
    const output = await pep(["config", "get", "output"]);
    expect(output).toMatchObject({ code: 0, out: "" });
    expect(output.err).toContain("output is not set in profile default (default: table on a terminal, json otherwise)");
  });

  it("config list marks the defaults in effect apart from the stored values", async () => {
    const r = await pep(["config", "list", "-o", "table"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toMatch(/^Defaults$/m);
    expect(r.out).toMatch(/^ +Timeout +30$/m);
  });

  it("keeps profiles apart (--profile and PEP_PROFILE)", async () => {
    await pep(["config", "set", "base_url", "https://work.example/v1", "--profile", "work"]);
    await pep(["config", "set", "base_url", "https://ci.example/v1"], { env: { PEP_PROFILE: "ci" } });
    expect((await pep(["--profile", "work", "config", "get", "base_url"])).out).toBe("https://work.example/v1\n");
    expect((await pep(["config", "get", "base_url"], { env: { PEP_PROFILE: "ci" } })).out).toBe(
      "https://ci.example/v1\n",
    );
    expect((await pep(["config", "get", "base_url"])).out).toBe("");
    expect(Object.keys(stored().profiles).sort()).toEqual(["ci", "work"]);
  });

  it.each([
    ["base_url", "ftp://api.example.org/v1", /base_url must be an http\(s\) URL/],
    ["base_url", "https://api.example.org", /base_url must end in the API's version segment/],
    ["timeout", "-1", /timeout must be seconds per request, a number greater than 0/],
    ["retries", "11", /retries must be a whole number from 0 to 10/],
    ["retries", "-1", /retries must be a whole number from 0 to 10/],
    ["output", "yaml", /output must be one of: table, json, ndjson, csv, tsv/],
    ["auth_header", "basic", /auth_header must be one of: bearer, x-api-key/],
    ["cache", "sometimes", /cache must be true or false/],
  ])("refuses %s=%s with exit 2, saying what it accepts, and writes nothing", async (key, value, message) => {
    const r = await pep(["config", "set", key, value]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(existsSync(file)).toBe(false);
  });

  it("refuses unknown keys in every verb with exit 2, listing the keys", async () => {
    for (const argv of [
      ["config", "set", "colour", "x"],
      ["config", "get", "colour"],
      ["config", "unset", "colour"],
    ]) {
      const r = await pep(argv);
      expect(r.code).toBe(2);
      expect(r.err).toContain('unknown config key "colour"');
      expect(r.err).toContain("base_url, api_key, auth_header, output, timeout, retries, cache");
    }
  });

  it("never takes the key on the command line; reads it from stdin with -", async () => {
    const refused = await pep(["config", "set", "api_key", "sk_cmdline_secret"]);
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("pep auth login");
    expect(refused.err).not.toContain("sk_cmdline_secret");
    expect(existsSync(file)).toBe(false);

    const r = await pep(["config", "set", "api_key", "-"], { stdin: "sk_stdin_secret_7a7b\n" });
    expect(r.code).toBe(0);
    expect(r.err).toContain("…7a7b");
    expect(r.err).not.toContain("sk_stdin_secret");
    expect(stored().profiles.default!.api_key).toBe("sk_stdin_secret_7a7b");
  });

  it("shows the stored key only as its fingerprint, in list and get", async () => {
    await pep(["config", "set", "api_key", "-"], { stdin: "sk_listed_secret_c0de" });
    await pep(["config", "set", "base_url", "http://127.0.0.1:9/v1"]);
    for (const argv of [
      ["config", "list", "-o", "json"],
      ["config", "list", "-o", "table"],
      ["config", "list", "-o", "csv"],
      ["config", "get", "api_key"],
    ]) {
      const r = await pep(argv);
      expect(r.code).toBe(0);
      expect(r.out).toContain("…c0de");
      expect(r.out + r.err).not.toContain("sk_listed_secret");
    }
    expect((await pep(["config", "get", "api_key"])).out).toBe("…c0de\n");
  });

  it("runs without a base URL and never starts the sandbox", async () => {
    const r = await pep(["--sandbox", "config", "list", "-o", "json"]);
    expect(r.code).toBe(0);
    expect(r.err).not.toContain("sandbox data");
  });

  it("PEP_CONFIG_DIR at a folder pep did not create (a 1777 shared folder, a project folder) keeps its mode", async () => {
    for (const folderMode of [0o1777, 0o755]) {
      const dir = path.join(tmp.dir, `own-${folderMode.toString(8)}`);
      mkdirSync(dir);
      chmodSync(dir, folderMode);
      const r = await pep(["config", "set", "api_key", "-"], {
        env: { PEP_CONFIG_DIR: dir },
        stdin: "sk_shared_folder_1234\n",
      });
      expect(r.code, r.err).toBe(0);
      expect(statSync(dir).mode & 0o7777).toBe(folderMode);
      expect(statSync(path.join(dir, "config.json")).mode & 0o777).toBe(0o600);
    }
  });

  it("an empty (0-byte) config file is an empty config: config set and auth login --with-key write over it", async () => {
    mkdirSync(tmp.env.PEP_CONFIG_DIR!, { recursive: true });
    writeFileSync(file, "");
    const set = await pep(["config", "set", "retries", "2"]);
    expect(set.code, set.err).toBe(0);
    expect(stored().profiles.default).toEqual({ retries: 2 });
    writeFileSync(file, "");
    const login = await pep(["--sandbox", "auth", "login", "--with-key"], { stdin: "sbx_full_key\n" });
    expect(login.code, login.err).toBe(0);
    expect(stored().profiles.default!.api_key).toBe("sbx_full_key");
  });

  it("refuses a config file that is not JSON with exit 2 naming it, and leaves it untouched", async () => {
    const text = '{"profiles": {"default": {"base_url": ';
    mkdirSync(tmp.env.PEP_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    writeFileSync(file, text, { mode: 0o600 });
    const before = statSync(file).mtimeMs;
    for (const argv of [
      ["config", "list"],
      ["config", "get", "base_url"],
      ["config", "set", "timeout", "5"],
      ["config", "unset", "timeout"],
      ["auth", "logout"],
    ]) {
      const r = await pep(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toContain(`config file ${file} is not valid JSON`);
      expect(r.err).toContain("left untouched");
      expect(r.out).toBe("");
    }
    expect(readFileSync(file, "utf8")).toBe(text);
    expect(statSync(file).mtimeMs).toBe(before);
  });

  it("names the file and the value when a stored value is bad, and lets `config set` repair it", async () => {
    mkdirSync(tmp.env.PEP_CONFIG_DIR!, { recursive: true, mode: 0o700 });
    writeFileSync(
      file,
      JSON.stringify({ profiles: { default: { retries: "many", base_url: "https://x.example/v1" } } }),
      { mode: 0o600 },
    );
    for (const argv of [
      ["config", "list"],
      ["config", "get", "base_url"],
    ]) {
      const r = await pep(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toContain(file);
      expect(r.err).toContain("default.retries");
    }
    expect((await pep(["config", "set", "retries", "2"])).code).toBe(0);
    expect(stored().profiles.default).toEqual({ retries: 2, base_url: "https://x.example/v1" });
    expect((await pep(["config", "get", "base_url"])).out).toBe("https://x.example/v1\n");
  });
});
