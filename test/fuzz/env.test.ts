/**
 * Fuzzed environment: the PEP_* variables, NO_COLOR and FORCE_COLOR with valid, boundary
 * and garbage values end documented like any flag; config and cache folders that cannot
 * be made (under /proc, behind a dangling symlink, a file in the way) end with a message
 * in bounded time. Every run is in-process.
 */
import { mkdirSync, symlinkSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import {
  describeRun,
  enumOf,
  expectDocumented,
  garbage,
  noRetries,
  params,
  startFuzzer,
  TIMEOUT,
  type Fuzzer,
} from "./harness.js";

let fz: Fuzzer;
beforeAll(async () => {
  fz = await startFuzzer();
  mkdirSync(path.join(fz.dir, "links"));
  symlinkSync(path.join(fz.dir, "no-such-disk"), path.join(fz.dir, "links", "dangling"));
});
afterAll(() => fz.close());

const ENV: Record<string, fc.Arbitrary<string>> = {
  PEP_OUTPUT: enumOf(["table", "json", "ndjson", "csv", "tsv", "bibtex", "ris", "csl-json"]),
  PEP_TIMEOUT: fc.oneof(fc.constantFrom("30", "3600", "3601", "0", "-1", "0.5", "abc", ""), garbage),
  PEP_RETRIES: fc.oneof(fc.constantFrom("0", "11", "-1", "x", ""), garbage).filter(noRetries),
  PEP_AUTH_HEADER: enumOf(["bearer", "x-api-key"]),
  PEP_PROFILE: fc.oneof(fc.constantFrom("default", "__proto__", "constructor", ""), garbage),
  PEP_NO_CACHE: fc.oneof(fc.constantFrom("1", "0", "", "false", "yes"), garbage),
  PEP_API_KEY: fc.oneof(
    fc.constantFrom("sbx_full_key", "sbx_research_key", "", " ", "bad key", "sbx_unknown"),
    garbage,
  ),
  PEP_BASE_URL: fc.constantFrom(
    "",
    "not a url",
    "ftp://127.0.0.1/v1",
    "http://127.0.0.1:1/v1",
    "http://127.0.0.1/v1?key=k",
  ),
  NO_COLOR: fc.oneof(fc.constantFrom("1", ""), garbage),
  FORCE_COLOR: fc.oneof(fc.constantFrom("0", "1", "2", "3", "true", ""), garbage),
};

describe("fuzzed environment", () => {
  it(
    "ends with a documented exit code and a message, and a refused value sends nothing",
    async () => {
      const envArb = fc
        .dictionary(fc.constantFrom(...Object.keys(ENV)), fc.constant(""), { maxKeys: 4 })
        .chain((picked) => fc.record(Object.fromEntries(Object.keys(picked).map((k) => [k, ENV[k]!]))));
      const argvArb = fc.constantFrom(
        ["health"],
        ["peptides", "list", "--limit", "2"],
        ["studies", "get", "1"],
        ["vendors", "--limit", "1"],
        ["prices", "--limit", "1"],
        ["auth", "status"],
        ["config", "list"],
        ["search", "repair"],
      );
      await fc.assert(
        fc.asyncProperty(argvArb, envArb, async (argv, env) => {
          const r = await fz.run(argv, { env: env as Record<string, string>, freshConfig: true });
          expectDocumented(r);
        }),
        params(60),
      );
    },
    TIMEOUT,
  );
});

const unmakeable = () => [
  ["under /proc", "/proc/pep-no-such/dir"],
  ["behind a dangling symlink", path.join(fz.dir, "links", "dangling", "pep")],
  ["below a file", path.join(fz.dir, "key.txt", "pep")],
];

describe("config and cache folders that cannot be made", () => {
  // The cache is written asynchronously, so a hang here would only time the test out.
  it("a cache folder that cannot be made is skipped: the answer still prints (exit 0)", async () => {
    for (const [name, dir] of unmakeable()) {
      const r = await fz.run(["peptides", "list", "--limit", "1", "-o", "json"], { env: { PEP_CACHE_DIR: dir! } });
      expect(r.code, `${name}: ${describeRun(r)}`).toBe(0);
      expect(JSON.parse(r.out)).toHaveLength(1);
    }
  });

  // The config folder is made synchronously; a run that hangs fails at its 10 s bound.
  it("a config folder that cannot be made exits 2 naming it, in bounded time", async () => {
    for (const [name, dir] of unmakeable()) {
      const r = await inProcessPep(["config", "set", "output", "csv"], {
        env: { PEP_CONFIG_DIR: dir!, PEP_CACHE_DIR: path.join(fz.dir, "cache") },
        timeoutMs: 10_000,
      });
      expect(r.code, `${name}: exit ${r.code} ${r.err}`).toBe(2);
      expect(r.err).toMatch(/error: cannot (create config folder|read config file) .*(ENOENT|ENOTDIR)/);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
  });
});
