/**
 * What the code cache's tests share (test/shell/code-cache*.test.ts): the run they repeat,
 * the trace NODE_DEBUG=pep gives of each file's cache, and a forged cache of the bundle.
 */
import { execFileSync } from "node:child_process";
import { cpSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, onTestFinished } from "vitest";
import type { Sandbox } from "../../src/sandbox/index.js";
import { SANDBOX_KEYS } from "../../src/sandbox/auth.js";
import { ROOT, scratch, spawnPep } from "./cli.js";
import type { Suite } from "./suite.js";

export const LIST = ["peptides", "list", "-o", "json", "--limit", "3"];
export const isRoot = process.getuid?.() === 0;
export const withoutNotice = (err: string) =>
  err
    .replace(/^sandbox data, synthetic: not real research \(\S+\)\n/m, "")
    // A --limit run says how to fetch the next page.
    .replace(/^to continue: pep .*--cursor=\S+\n/m, "");

/** A scratch folder for the running test, removed when it finishes. */
export function useScratch(): ReturnType<typeof scratch> {
  const s = scratch();
  onTestFinished(() => s.cleanup());
  return s;
}

/**
 * V8's code cache of a main.js that has the bundle's length but prints FORGED and exits
 * 42, made as bin/pep.js makes its own (--liftoff-only, node:vm, Module.wrap): V8 checks
 * no more than the source's length, so it runs wherever bin/code-cache.js loads it.
 */
export function forgedMainCache(): Buffer {
  const script = `
    require("node:v8").setFlagsFromString("--liftoff-only");
    const fs = require("node:fs"), vm = require("node:vm"), Module = require("node:module");
    const file = process.argv[1];
    const real = fs.readFileSync(file, "utf8");
    const evil = 'if (process.env.PEP_FORGING !== "1") { process.stdout.write("FORGED\\\\n"); process.exit(42); } /*';
    const forged = evil + "x".repeat(real.length - evil.length - 2) + "*/";
    const s = new vm.Script(Module.wrap(forged), { filename: file });
    s.runInThisContext()();
    process.stdout.write(s.createCachedData().toString("base64"));
  `;
  const out = execFileSync(process.execPath, ["-e", script, path.join(ROOT, "dist", "main.js")], {
    env: { PATH: process.env.PATH, PEP_FORGING: "1" },
    encoding: "utf8",
  });
  return Buffer.from(out, "base64");
}

/** What NODE_DEBUG=pep said of each file: { "main.js": ["accepted"], … }. */
export function traced(err: string): Record<string, string[]> {
  const files: Record<string, string[]> = {};
  for (const m of err.matchAll(/^PEP \d+: code cache (\S+): (none|accepted|rejected|saved)$/gm)) {
    const seen = files[m[1]!] ?? [];
    seen.push(m[2]!);
    files[m[1]!] = seen;
  }
  return files;
}

/**
 * Runs of the real executable against `suite`'s sandbox with a cache folder of the test's,
 * traced, and a warm cache whose main.js.cache is forged: made once by a run and the
 * forger, then copied (modes kept) for each test that changes it.
 */
export function cacheRuns(suite: Suite<Sandbox>) {
  const buildId = () => readFileSync(path.join(ROOT, "dist", "build-id"), "utf8").trim();
  const folder = (cacheDir: string) =>
    path.join(cacheDir, "code-cache", `${process.version}-${process.arch}-${buildId()}`);
  const run = (cacheDir: string, argv: readonly string[] = LIST, more: Record<string, string> = {}) =>
    spawnPep(argv, {
      env: {
        PEP_BASE_URL: suite.api.baseUrl,
        PEP_API_KEY: SANDBOX_KEYS.full,
        PEP_CONFIG_DIR: suite.tmp.env.PEP_CONFIG_DIR,
        PEP_CACHE_DIR: cacheDir,
        NODE_DEBUG: "pep",
        ...more,
      },
    });
  let forged: string | undefined;
  const forgedCache = async () => {
    if (forged === undefined) {
      const made = path.join(suite.tmp.dir, "forged-cache");
      expect((await run(made)).code).toBe(0);
      writeFileSync(path.join(folder(made), "main.js.cache"), forgedMainCache(), { mode: 0o600 });
      forged = made;
    }
    const s = useScratch();
    const dir = path.join(s.dir, "cache");
    cpSync(forged, dir, { recursive: true });
    return { s, dir };
  };
  /** The run printed the three peptides, not the forged code's line. */
  const ranTheBundle = (r: { code: number; out: string; err: string }) => {
    expect(r.out).not.toContain("FORGED");
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as unknown[]).length).toBe(3);
  };
  const cacheFiles = (dir: string) =>
    Object.fromEntries(
      readdirSync(folder(dir))
        .sort()
        .map((n) => [n, readFileSync(path.join(folder(dir), n)).toString("base64")]),
    );

  return { buildId, folder, run, forgedCache, ranTheBundle, cacheFiles };
}
