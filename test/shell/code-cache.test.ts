/**
 * V8's code cache of the bundle (bin/code-cache.js), through the real executable on
 * whichever Node runs the suite (CI runs it on 20, 22, 24 and 26): where it is kept, when
 * a run saves it, and that nothing about it can change a run's output or fail a run.
 * NODE_DEBUG=pep traces, per file of the bundle, whether its cache was accepted,
 * rejected or missing, and which files the run saved.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { SANDBOX_KEYS } from "../../src/sandbox/auth.js";
import { isBuilt, ROOT, scratch, spawnPep } from "../helpers/cli.js";
import { useLoopback } from "../helpers/suite.js";

const LIST = ["peptides", "list", "-o", "json", "--limit", "3"];
const isRoot = process.getuid?.() === 0;
const withoutNotice = (err: string) =>
  err
    .replace(/^sandbox data, synthetic: not real research \(\S+\)\n/m, "")
    // A --limit run says how to fetch the next page.
    .replace(/^to continue: pep .*--cursor=\S+\n/m, "");

/** A scratch folder for the running test, removed when it finishes. */
function useScratch(): ReturnType<typeof scratch> {
  const s = scratch();
  onTestFinished(() => s.cleanup());
  return s;
}

/**
 * V8's code cache of a main.js that has the bundle's length but prints FORGED and exits
 * 42, made as bin/pep.js makes its own (--liftoff-only, node:vm, Module.wrap): V8 checks
 * no more than the source's length, so it runs wherever bin/code-cache.js loads it.
 */
function forgedMainCache(): Buffer {
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
function traced(err: string): Record<string, string[]> {
  const files: Record<string, string[]> = {};
  for (const m of err.matchAll(/^PEP \d+: code cache (\S+): (none|accepted|rejected|saved)$/gm)) {
    const seen = files[m[1]!] ?? [];
    seen.push(m[2]!);
    files[m[1]!] = seen;
  }
  return files;
}

describe.skipIf(!isBuilt())(`V8's code cache of the bundle (${process.version})`, () => {
  const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-code-cache-");
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
  /** A list run that must print three peptides and nothing on stderr but the trace. */
  const listOk = async (cacheDir: string, more: Record<string, string> = {}) => {
    const r = await run(cacheDir, LIST, more);
    expect(withoutNotice(r.err).replace(/^PEP \d+: code cache .*\n/gm, "")).toBe("");
    expect(r.code).toBe(0);
    expect((JSON.parse(r.out) as unknown[]).length).toBe(3);
    return r;
  };

  it("the build names itself: dist/build-id is a hash of the bundle", () => {
    expect(buildId()).toMatch(/^[0-9a-f]{16}$/);
  });

  it("the bundle calls no import() and none of require's extras, which files compiled through node:vm lack", () => {
    // bin/code-cache.js gives each file its module's own require (no resolve, main, cache
    // or extensions), and node:vm runs import() only behind an experimental flag
    // (scripts/build.mjs turns it into require()). Comments are left out of the search.
    const files: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        if (e.isDirectory()) walk(path.join(d, e.name));
        else if (e.name.endsWith(".js")) files.push(path.join(d, e.name));
      }
    };
    walk(path.join(ROOT, "dist"));
    const found: string[] = [];
    for (const f of files) {
      const code = readFileSync(f, "utf8")
        .replace(/\/\*[\s\S]*?\*\//g, "")
        .replace(/^\s*\/\/.*$/gm, "");
      for (const m of code.matchAll(/\bimport\s*\(|\b(?:__)?require\s*\.\s*(?:resolve|main|cache|extensions)\b/g))
        found.push(`${path.relative(ROOT, f)}: ${m[0]}`);
    }
    expect(files.length).toBeGreaterThan(10);
    expect(found).toEqual([]);
  });

  it("a first run saves every file it loaded in <cache>/code-cache/<node>-<arch>-<build id>; the next run only reads", async () => {
    const s = useScratch();
    const dir = path.join(s.dir, "cache");
    const first = traced((await listOk(dir)).err);
    expect(first["main.js"]).toEqual(["none", "saved"]);
    const files = Object.keys(first);
    expect(files.length).toBeGreaterThan(5);
    for (const f of files) expect(first[f]).toEqual(["none", "saved"]);
    expect(readdirSync(path.join(dir, "code-cache"))).toEqual([path.basename(folder(dir))]);
    expect(
      readdirSync(folder(dir))
        .filter((n) => n.endsWith(".cache"))
        .sort(),
    ).toEqual(files.map((f) => `${f}.cache`).sort());
    const again = await listOk(dir);
    const second = traced(again.err);
    expect(Object.keys(second).sort()).toEqual(files.sort());
    for (const f of files) expect(second[f]).toEqual(["accepted"]);
    expect(again.out).toBe((await listOk(path.join(s.dir, "uncached"), { NODE_DISABLE_COMPILE_CACHE: "1" })).out);
  });

  it("a command not seen before saves once what it compiled; files only it loads are saved as new", async () => {
    const s = useScratch();
    const dir = path.join(s.dir, "cache");
    await listOk(dir);
    const studies = ["studies", "list", "-o", "csv", "--limit", "2"];
    const first = traced((await run(dir, studies)).err);
    expect(first["main.js"]).toEqual(["accepted", "saved"]);
    // The CSV writer is a file of its own that the list run never loaded.
    expect(Object.entries(first).some(([, t]) => t[0] === "none")).toBe(true);
    const again = traced((await run(dir, studies)).err);
    for (const t of Object.values(again)) expect(t).toEqual(["accepted"]);
    // And the first command still finds everything it needs.
    for (const t of Object.values(traced((await listOk(dir)).err))) expect(t).toEqual(["accepted"]);
  });

  it("a cache that is not V8's (cut short, or from elsewhere) is rejected, the output is the same, and it is saved again", async () => {
    const s = useScratch();
    const dir = path.join(s.dir, "cache");
    const good = await listOk(dir);
    writeFileSync(path.join(folder(dir), "main.js.cache"), "garbage");
    const broken = await listOk(dir);
    expect(broken.out).toBe(good.out);
    expect(traced(broken.err)["main.js"]).toEqual(["rejected", "saved"]);
    expect(traced((await listOk(dir)).err)["main.js"]).toEqual(["accepted"]);
  });

  it("a new build removes the folders of earlier builds for the same Node, and leaves other Nodes' alone", async () => {
    const s = useScratch();
    const dir = path.join(s.dir, "cache");
    const root = path.join(dir, "code-cache");
    const older = path.join(root, `${process.version}-${process.arch}-0123456789abcdef`);
    const otherNode = path.join(root, `v0.0.0-${process.arch}-0123456789abcdef`);
    for (const d of [older, otherNode]) {
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, "main.js.cache"), "old");
    }
    await listOk(dir);
    expect(readdirSync(root).sort()).toEqual([path.basename(folder(dir)), path.basename(otherNode)].sort());
  });

  it("NODE_DISABLE_COMPILE_CACHE turns it off, and with NODE_COMPILE_CACHE Node caches everything itself", async () => {
    const s = useScratch();
    const dir = path.join(s.dir, "cache");
    const off = await listOk(dir, { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(traced(off.err)).toEqual({});
    expect(existsSync(path.join(dir, "code-cache"))).toBe(false);
    const nodes = await listOk(dir, { NODE_COMPILE_CACHE: path.join(s.dir, "node-own") });
    expect(traced(nodes.err)).toEqual({});
    expect(existsSync(path.join(dir, "code-cache"))).toBe(false);
  });

  it("a folder that cannot be made or written costs only the speed-up: same output, nothing else on stderr", async () => {
    const s = useScratch();
    const good = await listOk(path.join(s.dir, "good"));
    // A file where the code-cache folder should be.
    const fileThere = path.join(s.dir, "file-there");
    mkdirSync(fileThere);
    writeFileSync(path.join(fileThere, "code-cache"), "not a folder");
    const r = await listOk(fileThere);
    expect(r.out).toBe(good.out);
    expect(Object.values(traced(r.err)).flat()).not.toContain("saved");
    // A cache folder whose parent is a file.
    const parentFile = path.join(s.dir, "parent-file");
    writeFileSync(parentFile, "");
    expect((await listOk(parentFile)).out).toBe(good.out);
  });

  it.skipIf(isRoot)("a read-only folder: same output, nothing written", async () => {
    const s = useScratch();
    const dir = path.join(s.dir, "ro");
    mkdirSync(folder(dir), { recursive: true });
    chmodSync(folder(dir), 0o555);
    const r = await listOk(dir);
    expect(Object.values(traced(r.err)).flat()).not.toContain("saved");
    expect(readdirSync(folder(dir))).toEqual([]);
    chmodSync(folder(dir), 0o755);
  });

  it("what the bundle imports at run time still loads from a cached file: jq-wasm under --jq", async () => {
    // import() in a file compiled here goes to Node's loader (test/e2e/pager.test.ts runs
    // the other one, node:child_process for the pager, on a terminal).
    const s = useScratch();
    const dir = path.join(s.dir, "cache");
    const outs: string[] = [];
    for (let i = 0; i < 2; i++) {
      const jq = await run(dir, [...LIST, "--jq", ".[1].id"]);
      expect(jq.code).toBe(0);
      outs.push(jq.out);
    }
    expect(outs[0]).toMatch(/^"[a-z0-9-]+"\n$/);
    expect(outs[1]).toBe(outs[0]);
  });
});

describe.skipIf(!isBuilt() || process.getuid === undefined)(
  `whose compiled code it loads: only folders and files of this user's that no one else can write (${process.version})`,
  () => {
    const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-code-cache-owner-");
    const buildId = () => readFileSync(path.join(ROOT, "dist", "build-id"), "utf8").trim();
    const folder = (cacheDir: string) =>
      path.join(cacheDir, "code-cache", `${process.version}-${process.arch}-${buildId()}`);
    const run = (cacheDir: string, argv: readonly string[] = LIST) =>
      spawnPep(argv, {
        env: {
          PEP_BASE_URL: suite.api.baseUrl,
          PEP_API_KEY: SANDBOX_KEYS.full,
          PEP_CONFIG_DIR: suite.tmp.env.PEP_CONFIG_DIR,
          PEP_CACHE_DIR: cacheDir,
          NODE_DEBUG: "pep",
        },
      });
    /**
     * A warm cache in `<scratch>/cache` whose main.js.cache is the forged one: made once by a
     * run and the forger, then copied (modes kept) for each test that changes it.
     */
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

    it("a forged cache file of the bundle's length runs in place of the bundle: why the owner checks exist", async () => {
      const { dir } = await forgedCache();
      const r = await run(dir);
      expect(r.out).toBe("FORGED\n");
      expect(r.code).toBe(42);
    });

    for (const level of ["the cache folder", "code-cache/", "the build's folder"] as const) {
      for (const [who, bits] of [
        ["its group", 0o020],
        ["others", 0o002],
      ] as const) {
        it(`${level} writable by ${who}: nothing is read or written there, NODE_DEBUG says why`, async () => {
          const { dir } = await forgedCache();
          const target = {
            "the cache folder": dir,
            "code-cache/": path.join(dir, "code-cache"),
            "the build's folder": folder(dir),
          }[level];
          chmodSync(target, 0o700 | bits);
          const before = cacheFiles(dir);
          const r = await run(dir);
          ranTheBundle(r);
          expect(r.err).toMatch(
            new RegExp(`^PEP \\d+: code cache off: ${target} is writable by ${who} \\(mode 7[02]{2}\\)$`, "m"),
          );
          expect(traced(r.err)).toEqual({});
          expect(cacheFiles(dir)).toEqual(before);
        });
      }
    }

    it("a 0777 cache folder: the cache is off and no code-cache folder is made in it", async () => {
      const s = useScratch();
      const dir = path.join(s.dir, "open");
      mkdirSync(dir);
      chmodSync(dir, 0o777);
      const r = await run(dir);
      ranTheBundle(r);
      expect(r.err).toMatch(/^PEP \d+: code cache off: .* is writable by its group \(mode 777\)$/m);
      expect(existsSync(path.join(dir, "code-cache"))).toBe(false);
    });

    it.skipIf(!isRoot)(
      "a cache file owned by another user is refused (the bundle compiles, and the file is replaced)",
      async () => {
        const { dir } = await forgedCache();
        const file = path.join(folder(dir), "main.js.cache");
        chownSync(file, 1234, 1234);
        const r = await run(dir);
        ranTheBundle(r);
        expect(r.err).toMatch(
          new RegExp(`^PEP \\d+: code cache main\\.js: refused: ${file} is owned by uid 1234, not 0$`, "m"),
        );
        expect(traced(r.err)["main.js"]).toEqual(["none", "saved"]);
        expect(statSync(file).uid).toBe(0);
      },
    );

    it.skipIf(!isRoot)("a folder on the chain owned by another user turns the cache off", async () => {
      for (const pick of [(d: string) => d, (d: string) => path.join(d, "code-cache"), folder]) {
        const { dir } = await forgedCache();
        chownSync(pick(dir), 1234, 1234);
        const r = await run(dir);
        ranTheBundle(r);
        expect(r.err).toMatch(new RegExp(`^PEP \\d+: code cache off: ${pick(dir)} is owned by uid 1234, not 0$`, "m"));
      }
    });

    it("a cache file or folder that is a link is not followed", async () => {
      const { s, dir } = await forgedCache();
      // The forged file moved elsewhere (a safe place of this user's) and linked to.
      const elsewhere = path.join(s.dir, "elsewhere.cache");
      writeFileSync(elsewhere, readFileSync(path.join(folder(dir), "main.js.cache")), { mode: 0o600 });
      const file = path.join(folder(dir), "main.js.cache");
      execFileSync("rm", [file]);
      symlinkSync(elsewhere, file);
      const r = await run(dir);
      ranTheBundle(r);
      expect(r.err).toMatch(/^PEP \d+: code cache main\.js: refused: ELOOP$/m);
      // And code-cache/ itself a link to a folder holding the forged cache.
      const other = await forgedCache();
      const real = path.join(other.s.dir, "real-code-cache");
      execFileSync("mv", [path.join(other.dir, "code-cache"), real]);
      symlinkSync(real, path.join(other.dir, "code-cache"));
      const viaLink = await run(other.dir);
      ranTheBundle(viaLink);
      expect(viaLink.err).toMatch(/^PEP \d+: code cache off: .*code-cache is not a folder$/m);
    });

    it("the folders it makes are 0700 and its files 0600; a sticky world-writable folder above the cache folder is fine", async () => {
      const s = useScratch();
      const sticky = path.join(s.dir, "tmp");
      mkdirSync(sticky);
      chmodSync(sticky, 0o1777);
      const dir = path.join(sticky, "me", "cache");
      expect((await run(dir)).code).toBe(0);
      for (const d of [dir, path.join(dir, "code-cache"), folder(dir)]) expect(statSync(d).mode & 0o777).toBe(0o700);
      for (const n of readdirSync(folder(dir)).filter((f) => f.endsWith(".cache")))
        expect(lstatSync(path.join(folder(dir), n)).mode & 0o777).toBe(0o600);
      const again = traced((await run(dir)).err);
      expect(again["main.js"]).toEqual(["accepted"]);
    });

    it.skipIf(
      typeof (createRequire(import.meta.url)("node:module") as { enableCompileCache?: unknown }).enableCompileCache !==
        "function",
    )("Node's compile cache (for jq-wasm) starts only in a folder no one else can write", async () => {
      const s = useScratch();
      const dir = path.join(s.dir, "cache");
      const jq = [...LIST, "--jq", ".[0].id"];
      expect((await run(dir, jq)).code).toBe(0);
      const nodes = path.join(dir, "node-compile-cache");
      expect(readdirSync(nodes).length).toBeGreaterThan(0);
      // What Node wrote there itself passes the check.
      expect((await run(dir, jq)).err).not.toMatch(/code cache off/);
      const below = path.join(nodes, readdirSync(nodes)[0]!);
      chmodSync(below, 0o777);
      const r = await run(dir, jq);
      expect(r.code, r.err).toBe(0);
      expect(r.err).toMatch(
        new RegExp(
          `^PEP \\d+: code cache off for Node's compile cache: ${below} is writable by its group \\(mode 777\\)$`,
          "m",
        ),
      );
    });

    it("pep cache clear removes the compiled code, and its own run writes none back", async () => {
      const s = useScratch();
      const dir = path.join(s.dir, "cache");
      expect((await run(dir)).code).toBe(0);
      // --jq loads jq-wasm from the package: Node's own compile cache holds it (Node 22.1+).
      expect((await run(dir, [...LIST, "--jq", ".[0].id"])).code).toBe(0);
      expect(readdirSync(folder(dir)).length).toBeGreaterThan(5);
      const clear = await run(dir, ["cache", "clear"]);
      expect(clear.code, clear.err).toBe(0);
      expect(clear.err).toMatch(/^removed compiled code: \d+ files \(\d+(\.\d)? MB\)$/m);
      expect(Object.values(traced(clear.err)).flat()).not.toContain("saved");
      expect(readdirSync(dir).filter((n) => n.includes("cache"))).toEqual([]);
    });
  },
);
