import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { isBuilt, ROOT } from "../helpers/cli.js";
import { cacheRuns, isRoot, LIST, traced, useScratch, withoutNotice } from "../helpers/code-cache.js";
import { useLoopback } from "../helpers/suite.js";

describe.skipIf(!isBuilt())(`V8's code cache of the bundle (${process.version})`, () => {
  const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-code-cache-");
  const { buildId, folder, run } = cacheRuns(suite);
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
  `what the trust checks stand on, and Node's own compile cache, on this release (${process.version})`,
  () => {
    const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-code-cache-why-");
    const { folder, run, forgedCache } = cacheRuns(suite);

    it("a forged cache file of the bundle's length runs in place of the bundle: why the owner checks exist", async () => {
      const { dir } = await forgedCache();
      const r = await run(dir);
      expect(r.out).toBe("FORGED\n");
      expect(r.code).toBe(42);
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
