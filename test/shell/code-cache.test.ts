/**
 * V8's code cache of the bundle (bin/code-cache.js), through the real executable on
 * whichever Node runs the suite (CI runs it on 20, 22, 24 and 26): where it is kept, when
 * a run saves it, and that nothing about it can change a run's output or fail a run.
 * NODE_DEBUG=pep traces, per file of the bundle, whether its cache was accepted,
 * rejected or missing, and which files the run saved.
 */
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
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
    .replace(/^sandbox data, synthetic: not real research \(sandbox at \S+\)\n/m, "")
    // A --limit run says how to fetch the next page.
    .replace(/^to continue: pep .*--cursor=\S+\n/m, "");

/** A scratch folder for the running test, removed when it finishes. */
function useScratch(): ReturnType<typeof scratch> {
  const s = scratch();
  onTestFinished(() => s.cleanup());
  return s;
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
