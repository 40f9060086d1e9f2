/**
 * What bin/pep.js sets up in the Node that runs it, checked on whichever release runs the
 * suite (CI runs it on 20, 22, 24 and 26): the module compile cache in pep's cache folder,
 * V8's --liftoff-only for undici's WebAssembly parser, and the lean undici entry of the
 * bundle (no Node's own undici (fetch's), no HTTP/2 or TLS for an http:// API).
 */
import { spawn } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { SANDBOX_KEYS } from "../../src/sandbox/auth.js";
import { isBuilt, ROOT, scratch, spawnPep } from "../helpers/cli.js";
import { useLoopback } from "../helpers/suite.js";

const LIST = ["peptides", "list", "-o", "json", "--limit", "3"];
const hasCompileCache =
  typeof (createRequire(import.meta.url)("node:module") as { enableCompileCache?: unknown }).enableCompileCache ===
  "function";
const isRoot = process.getuid?.() === 0;
/** stderr less the one synthetic-data notice that every answer of a sandbox earns. */
const withoutNotice = (err: string) =>
  err
    .replace(/^sandbox data, synthetic: not real research \(\S+\)\n/m, "")
    // A --limit run says how to fetch the next page.
    .replace(/^to continue: pep .*--cursor=\S+\n/m, "");

describe.skipIf(!isBuilt())("the Node that runs pep", () => {
  const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-node-");
  const env = (cacheDir: string, more: Record<string, string> = {}) => ({
    PEP_BASE_URL: suite.api.baseUrl,
    PEP_API_KEY: SANDBOX_KEYS.full,
    PEP_CONFIG_DIR: suite.tmp.env.PEP_CONFIG_DIR,
    PEP_CACHE_DIR: cacheDir,
    ...more,
  });
  /** A list run that must print three peptides and nothing on stderr. */
  const listOk = async (cacheDir: string, more: Record<string, string> = {}) => {
    const r = await spawnPep(LIST, { env: env(cacheDir, more) });
    expect(withoutNotice(r.err)).toBe("");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as unknown[]).length).toBe(3);
    return r;
  };
  /** A --jq run: it loads jq-wasm, the one file outside the bundle that Node's compile cache holds. */
  const jqOk = async (cacheDir: string, more: Record<string, string> = {}) => {
    const r = await spawnPep([...LIST, "--jq", ".[0].id"], { env: env(cacheDir, more) });
    expect(withoutNotice(r.err)).toBe("");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^"[a-z0-9-]+"\n$/);
    return r;
  };
  const compileCache = (cacheDir: string) => path.join(cacheDir, "node-compile-cache");
  const entries = (dir: string) => (existsSync(dir) ? readdirSync(dir) : []);

  describe.runIf(hasCompileCache)(`compile cache (${process.version})`, () => {
    it("keeps what the bundle does not hold (jq-wasm, on a --jq run) in <cache folder>/node-compile-cache, one subfolder per Node, and the next run reads it", async () => {
      const s = scratch();
      try {
        const dir = path.join(s.dir, "cache");
        // A list run compiles nothing outside the bundle: node:module stays unloaded and
        // Node's cache is not started.
        await listOk(dir);
        expect(existsSync(compileCache(dir))).toBe(false);
        const jq = [...LIST, "--jq", ".[0].id"];
        const first = await spawnPep(jq, { env: env(dir) });
        expect(first.code).toBe(0);
        expect(first.out).toMatch(/^"[a-z0-9-]+"\n$/);
        const [version, ...others] = entries(compileCache(dir));
        expect(others).toEqual([]);
        expect(version).toContain(process.version);
        expect(entries(path.join(compileCache(dir), version!)).length).toBeGreaterThan(0);
        // Node's own trace of the cache: jq-wasm's entry is read back and accepted.
        const again = await spawnPep(jq, { env: env(dir, { NODE_DEBUG_NATIVE: "COMPILE_CACHE" }) });
        expect(again.code).toBe(0);
        expect(again.out).toBe(first.out);
        expect(again.err).toContain(`reading cache from ${compileCache(dir)}${path.sep}${version}`);
        expect(again.err).toMatch(/cache for (ESM |CommonJS )?\S*jq-wasm\S* was accepted/);
        // The bundle is not Node's to cache: V8's code cache below holds it.
        expect(again.err).not.toMatch(/dist\/main\.js/);
      } finally {
        s.cleanup();
      }
    });

    it("without PEP_CACHE_DIR: $XDG_CACHE_HOME/pep, else ~/.cache/pep, like the ETag cache", async () => {
      const s = scratch();
      try {
        const base = {
          PEP_BASE_URL: suite.api.baseUrl,
          PEP_API_KEY: SANDBOX_KEYS.full,
          PEP_CONFIG_DIR: s.env.PEP_CONFIG_DIR,
        };
        const xdg = path.join(s.dir, "xdg");
        const home = path.join(s.dir, "home");
        mkdirSync(home);
        const jq = [...LIST, "--jq", ".[0].id"];
        expect((await spawnPep(jq, { env: { ...base, HOME: home, XDG_CACHE_HOME: xdg } })).code).toBe(0);
        expect(entries(compileCache(path.join(xdg, "pep"))).length).toBe(1);
        expect(existsSync(path.join(home, ".cache"))).toBe(false);
        // A relative XDG_CACHE_HOME is ignored, as the XDG rules say.
        expect((await spawnPep(jq, { env: { ...base, HOME: home, XDG_CACHE_HOME: "relative" } })).code).toBe(0);
        expect(entries(compileCache(path.join(home, ".cache", "pep"))).length).toBe(1);
      } finally {
        s.cleanup();
      }
    });

    it("NODE_DISABLE_COMPILE_CACHE turns it off; NODE_COMPILE_CACHE puts it where that says", async () => {
      const s = scratch();
      try {
        const dir = path.join(s.dir, "cache");
        await jqOk(dir, { NODE_DISABLE_COMPILE_CACHE: "1" });
        expect(existsSync(compileCache(dir))).toBe(false);
        const own = path.join(s.dir, "own");
        await jqOk(dir, { NODE_COMPILE_CACHE: own });
        expect(existsSync(compileCache(dir))).toBe(false);
        expect(entries(own).length).toBe(1);
      } finally {
        s.cleanup();
      }
    });

    it("a folder that cannot be made or written costs only the speed-up: same output, nothing on stderr", async () => {
      const s = scratch();
      try {
        const good = await jqOk(path.join(s.dir, "good"));
        const version = entries(compileCache(path.join(s.dir, "good")))[0]!;

        // A file where the compile cache folder should be.
        const fileThere = path.join(s.dir, "file-there");
        mkdirSync(fileThere);
        writeFileSync(compileCache(fileThere), "not a folder");
        expect((await jqOk(fileThere)).out).toBe(good.out);
        expect(statSync(compileCache(fileThere)).isFile()).toBe(true);

        // A file where the cache folder itself should be (its parent is a file).
        const parentFile = path.join(s.dir, "parent-file");
        writeFileSync(parentFile, "");
        expect((await jqOk(parentFile)).out).toBe(good.out);

        // Node cannot make its version's folder: what a read-only folder does, also to root.
        const blocked = path.join(s.dir, "blocked");
        mkdirSync(compileCache(blocked), { recursive: true });
        writeFileSync(path.join(compileCache(blocked), version), "");
        expect((await jqOk(blocked)).out).toBe(good.out);

        // Cache files that are not cache files (cut short by a full disk): read past, rewritten.
        const broken = path.join(s.dir, "broken");
        mkdirSync(path.join(compileCache(broken), version), { recursive: true });
        for (const name of entries(path.join(compileCache(path.join(s.dir, "good")), version))) {
          writeFileSync(path.join(compileCache(broken), version, name), "garbage");
        }
        expect((await jqOk(broken)).out).toBe(good.out);
        expect((await jqOk(broken)).out).toBe(good.out);
      } finally {
        s.cleanup();
      }
    });

    it.skipIf(isRoot)("a read-only cache folder: same output, nothing written, nothing on stderr", async () => {
      const s = scratch();
      try {
        const dir = path.join(s.dir, "ro");
        mkdirSync(compileCache(dir), { recursive: true });
        chmodSync(compileCache(dir), 0o555);
        await jqOk(dir);
        expect(entries(compileCache(dir))).toEqual([]);
        chmodSync(compileCache(dir), 0o755);
      } finally {
        s.cleanup();
      }
    });
  });

  it.skipIf(hasCompileCache)(
    `no compile cache on ${process.version} (Node 22.1 or later has it): no folder made`,
    async () => {
      const s = scratch();
      try {
        const dir = path.join(s.dir, "cache");
        await jqOk(dir);
        expect(existsSync(compileCache(dir))).toBe(false);
      } finally {
        s.cleanup();
      }
    },
  );

  it(`undici's WebAssembly HTTP parser runs on V8's baseline tier only (--liftoff-only, ${process.version})`, async () => {
    // V8 traces each WebAssembly function it compiles, with the tier, on stdout. Without the
    // flag, Node 20 also compiles the parser with TurboFan in the background.
    const s = scratch();
    try {
      const r = await new Promise<{ code: number; out: string; err: string }>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ["--trace-wasm-compilation-times", path.join(ROOT, "bin", "pep.js"), ...LIST, "--no-compress"],
          {
            env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env(path.join(s.dir, "cache")) },
          },
        );
        let out = "";
        let err = "";
        child.stdout.on("data", (c: Buffer) => (out += c.toString()));
        child.stderr.on("data", (c: Buffer) => (err += c.toString()));
        child.on("error", reject);
        child.on("close", (code) => resolve({ code: code ?? 1, out, err }));
      });
      // --no-compress: on Node 24 and 26 (not 20 or 22) a compressed answer brings one
      // TurboFan compile of a WebAssembly function despite --liftoff-only, not explained
      // yet and left open in the notes; this pins the path that holds on every release.
      expect(withoutNotice(r.err)).toBe("");
      expect(r.code).toBe(0);
      const compiled = r.out.split("\n").filter((l) => l.startsWith("Compiled function"));
      expect(compiled.filter((l) => l.includes("using Liftoff")).length).toBeGreaterThan(0);
      expect(compiled.filter((l) => !l.includes("using Liftoff"))).toEqual([]);
    } finally {
      s.cleanup();
    }
  });

  it(`a list run loads the lean undici and no more of Node than it uses: no fetch's undici, node:http, HTTP/2, TLS, crypto or assert (${process.version})`, async () => {
    // A preloaded script reports, at exit, the built-in modules Node loaded and every file
    // required from the undici package (the bundle requires two of its files only on paths
    // pep never takes).
    const s = scratch();
    try {
      const probe = path.join(s.dir, "probe.cjs");
      const report = path.join(s.dir, "report.json");
      writeFileSync(
        probe,
        `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(report)}, JSON.stringify({
          builtins: process.moduleLoadList,
          undici: Object.keys(require.cache).filter((f) => f.includes("${path.sep}undici${path.sep}")),
        })));`,
      );
      await listOk(path.join(s.dir, "cache"), { NODE_OPTIONS: `--require ${probe}` });
      const { builtins, undici } = JSON.parse(readFileSync(report, "utf8")) as { builtins: string[]; undici: string[] };
      expect(builtins.length).toBeGreaterThan(20);
      expect(builtins).toContain("NativeModule net");
      // node:http too: undici's two uses of it are read when first needed (lazy-http).
      expect(builtins.filter((m) => /undici|http2|\bhttp\b|_http_|\btls\b|_tls_wrap|child_process/.test(m))).toEqual(
        [],
      );
      // The ETag cache names its files with @noble/hashes' sha256, and undici's invariant
      // checks load node:assert only when one fails (scripts/build.mjs, lazy-assert).
      expect(
        builtins.filter((m) => /^NativeModule (crypto|internal\/crypto\/|assert|internal\/assert\/)/.test(m)),
      ).toEqual([]);
      expect(undici).toEqual([]);
    } finally {
      s.cleanup();
    }
  });
});
