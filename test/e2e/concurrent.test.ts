/**
 * Several real `pep` processes at once on the same folders. The cache: the same requests
 * with the ETag cache on, round after round; every entry left is whole JSON, no temp
 * file stays, and the next run is answered from it (304). The config file: `pep config
 * set` of different keys at the same moment, round after round, with readers running
 * alongside; the file always parses, keeps every run's change (writes take a lock file),
 * stays 0600, and neither lock nor temp file is left behind; a lock whose process is gone
 * is taken at once.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { spawnPep, type PepRun } from "../helpers/cli.js";
import { useLoopback } from "../helpers/suite.js";

const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-concurrent-");
const { tmp } = suite;
const configFile = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");

const pep = (argv: readonly string[], env: Record<string, string> = {}) =>
  spawnPep(["--base-url", suite.api.baseUrl, ...argv], { env: { ...tmp.env, ...env }, timeoutMs: 30_000 });

const all = (runs: Array<Promise<PepRun>>) => Promise.all(runs);

function expectAllOk(runs: PepRun[]): void {
  for (const r of runs) expect(r.code, r.err).toBe(0);
}

describe("the cache folder, written by several runs at once", () => {
  it("holds whole entries only, and answers the next run with a 304", { timeout: 90_000 }, async () => {
    const requests: Array<[string[], Record<string, string>]> = [
      [["peptides", "list", "-o", "json", "--limit", "20"], {}],
      [["vendors", "list", "-o", "json", "--limit", "10"], { PEP_API_KEY: "sbx_full_key" }],
    ];
    for (let round = 0; round < 3; round++) {
      const runs = await all(requests.flatMap(([argv, env]) => [pep(argv, env), pep(argv, env), pep(argv, env)]));
      expectAllOk(runs);
      // The same request printed the same thing in every run.
      expect(new Set(runs.slice(0, 3).map((r) => r.out)).size).toBe(1);
      expect(new Set(runs.slice(3).map((r) => r.out)).size).toBe(1);
    }
    // Beside the ETag entries: V8's code cache of the bundle, written by six runs at once
    // (whole files only, no temp file left), and Node's module compile cache (22.1 and later).
    const codeCache = path.join(tmp.env.PEP_CACHE_DIR!, "code-cache");
    const [build, ...others] = readdirSync(codeCache);
    expect(others).toEqual([]);
    const cached = readdirSync(path.join(codeCache, build!));
    expect(cached).toContain("main.js.cache");
    expect(cached.filter((f) => !/\.(cache|seen)$/.test(f))).toEqual([]);
    const files = readdirSync(tmp.env.PEP_CACHE_DIR!).filter((f) => f !== "node-compile-cache" && f !== "code-cache");
    expect(files.filter((f) => !/^[0-9a-f]{64}\.json$/.test(f))).toEqual([]); // no temp files left
    expect(files).toHaveLength(requests.length);
    for (const f of files) {
      const entry = JSON.parse(readFileSync(path.join(tmp.env.PEP_CACHE_DIR!, f), "utf8")) as {
        etag: unknown;
        body: unknown;
      };
      expect(typeof entry.etag).toBe("string");
      expect(typeof entry.body).toBe("string");
      expect(JSON.parse(entry.body as string)).toHaveProperty("data");
      expect(statSync(path.join(tmp.env.PEP_CACHE_DIR!, f)).mode & 0o777).toBe(0o600);
    }
    for (const [argv, env] of requests) {
      const again = await pep(["-v", ...argv], env);
      expect(again.code, again.err).toBe(0);
      expect(again.err).toContain("(not modified, from cache)");
    }
  });
});

describe("the config file, changed by several runs at once", () => {
  const stored = () =>
    (JSON.parse(readFileSync(configFile, "utf8")) as { profiles: Record<string, Record<string, unknown>> }).profiles;

  it("keeps every run's change, round after round, and parses for readers meanwhile", { timeout: 90_000 }, async () => {
    for (let round = 1; round <= 4; round++) {
      const changes: Record<string, string> = {
        retries: String(round),
        timeout: String(10 + round),
        output: round % 2 ? "csv" : "ndjson",
        auth_header: round % 2 ? "x-api-key" : "bearer",
        cache: round % 2 ? "false" : "true",
      };
      const writers = Object.entries(changes).map(([k, v]) => pep(["config", "set", k, v]));
      const readers = round > 1 ? [pep(["config", "list", "-o", "json"]), pep(["config", "get", "retries"])] : [];
      const runs = await all([...writers, ...readers]);
      expectAllOk(runs);
      for (const r of runs.slice(writers.length)) expect(r.err).not.toMatch(/not valid JSON/);
      expect(stored().default).toEqual({
        retries: round,
        timeout: 10 + round,
        output: changes.output,
        auth_header: changes.auth_header,
        cache: changes.cache === "true",
      });
      expect(readdirSync(tmp.env.PEP_CONFIG_DIR!)).toEqual(["config.json"]);
      expect(statSync(configFile).mode & 0o777).toBe(0o600);
    }
  });

  it("the same key set to different values at once ends holding one of them; other profiles are kept", {
    timeout: 60_000,
  }, async () => {
    expect((await pep(["config", "set", "output", "tsv"])).code).toBe(0);
    const runs = await all([
      pep(["config", "set", "retries", "7"]),
      pep(["config", "set", "retries", "8"]),
      pep(["--profile", "ci", "config", "set", "retries", "9"]),
      pep(["--profile", "ci", "config", "set", "timeout", "5"]),
    ]);
    expectAllOk(runs);
    const profiles = stored();
    expect([7, 8]).toContain(profiles.default!.retries);
    expect(profiles.ci).toEqual({ retries: 9, timeout: 5 });
    expect(profiles.default!.output).toBe("tsv");
    expect(readdirSync(tmp.env.PEP_CONFIG_DIR!)).toEqual(["config.json"]);
  });

  it("a lock left by a run that was killed is taken at once, however new: its process is gone", async () => {
    const lock = `${configFile}.lock`;
    const dead = spawnSync(process.execPath, ["-e", ""]).pid!;
    for (const left of [`${JSON.stringify({ pid: dead, created_ms: Date.now(), token: "x" })}\n`, "999999\n"]) {
      writeFileSync(lock, left, { mode: 0o600 });
      const r = await pep(["config", "set", "retries", "3"]);
      expect(r.code, r.err).toBe(0);
      expect(stored().default!.retries).toBe(3);
      expect(readdirSync(tmp.env.PEP_CONFIG_DIR!)).toEqual(["config.json"]);
      await pep(["config", "unset", "retries"]);
    }
  });
});
