/**
 * The package as users get it: `npm pack`, then `npm install -g` of the tarball into a
 * scratch prefix, then the installed `pep` and its man pages. Dependencies come from the
 * local npm cache (`--offline`); only if that cache lacks them does npm ask the registry.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBuilt, ROOT } from "../helpers/cli.js";

const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  name: string;
  version: string;
  man: string[];
};
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

interface PackedFile {
  path: string;
  size: number;
}

/** npm's own settings, without those an `npm test` run passes down (a global prefix would leak). */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (/^npm_(config_(prefix|global|local_prefix)|lifecycle_|package_)/i.test(k)) continue;
    env[k] = v;
  }
  return env;
}

let tmp: string;
let prefix: string;
let tarball: string;
let packed: PackedFile[];

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), "pep-pack-"));
  prefix = path.join(tmp, "prefix");
  if (!isBuilt())
    execFileSync(process.execPath, [path.join(ROOT, "scripts", "build.mjs")], { cwd: ROOT, stdio: "inherit" });
  const out = execFileSync(npm, ["pack", "--ignore-scripts", "--json", "--pack-destination", tmp], {
    cwd: ROOT,
    env: npmEnv(),
    encoding: "utf8",
  });
  const info = (JSON.parse(out) as { filename: string; files: PackedFile[] }[])[0]!;
  tarball = path.join(tmp, info.filename);
  packed = info.files;

  const install = (extra: string[]) =>
    spawnSync(
      npm,
      ["install", "-g", "--prefix", prefix, tarball, "--no-audit", "--no-fund", "--loglevel=error", ...extra],
      {
        cwd: tmp,
        env: npmEnv(),
        encoding: "utf8",
        timeout: 120_000,
      },
    );
  let r = install(["--offline"]);
  if (r.status !== 0) r = install(["--prefer-offline"]);
  if (r.status !== 0) throw new Error(`npm install -g of the tarball failed:\n${r.stdout}${r.stderr}`);
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

function pep(args: string[], env: Record<string, string> = {}) {
  return spawnSync(path.join(prefix, "bin", "pep"), args, {
    cwd: tmp,
    encoding: "utf8",
    timeout: 30_000,
    env: {
      PATH: process.env.PATH,
      HOME: tmp,
      PEP_CONFIG_DIR: path.join(tmp, "config"),
      PEP_CACHE_DIR: path.join(tmp, "cache"),
      ...env,
    },
  });
}

describe("the packed and installed package", () => {
  it("is named pepcli-<version>.tgz and holds bin, dist, man, README and package.json only", () => {
    expect(path.basename(tarball)).toBe(`${pkg.name}-${pkg.version}.tgz`);
    const paths = packed.map((f) => f.path);
    for (const needed of [
      "bin/pep.js",
      "dist/main.js",
      "dist/index.js",
      "dist/index.d.ts",
      "man/pep.1",
      "README.md",
      "package.json",
    ])
      expect(paths).toContain(needed);
    for (const man of pkg.man) expect(paths).toContain(man);
    const stray = paths.filter(
      (p) => !/^(bin|dist|man)\//.test(p) && !["README.md", "package.json", "LICENSE"].includes(p),
    );
    expect(stray).toEqual([]);
    const bytes = packed.reduce((n, f) => n + f.size, 0);
    expect(bytes).toBeLessThan(8 * 1024 * 1024);
  });

  it("installs a pep that prints its version", () => {
    const r = pep(["--version"]);
    expect(r.stderr).toBe("");
    expect(r.status).toBe(0);
    expect(r.stdout.trim()).toBe(pkg.version);
  });

  it("runs against its sandbox: peptides list -o json is a non-empty array", () => {
    const r = pep(["--sandbox", "peptides", "list", "-o", "json"]);
    expect(r.status, r.stderr).toBe(0);
    const items = JSON.parse(r.stdout) as unknown[];
    expect(Array.isArray(items)).toBe(true);
    expect(items.length).toBeGreaterThan(0);
    expect(r.stderr).toMatch(/sandbox data, synthetic/);
  });

  it("is a library for import and require alike (dist is CommonJS)", () => {
    const lib = path.join(prefix, "lib");
    const names = (args: string[]) => {
      const r = spawnSync(process.execPath, args, { cwd: lib, encoding: "utf8", timeout: 30_000 });
      expect(r.status, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as string[];
    };
    // Node 23 and later also name the whole CommonJS object "module.exports".
    const imported = names([
      "--input-type=module",
      "-e",
      'const m = await import("pepcli"); console.log(JSON.stringify(Object.keys(m).filter((k) => k !== "default" && k !== "module.exports").sort()))',
    ]);
    const required = names(["-e", 'console.log(JSON.stringify(Object.keys(require("pepcli")).sort()))']);
    expect(imported).toContain("createClient");
    expect(imported).toContain("ENDPOINTS");
    expect(required).toEqual(imported);
    expect(names(["-e", 'console.log(JSON.stringify(Object.keys(require("pepcli/sandbox"))))']).length).toBeGreaterThan(
      0,
    );
  });

  it("prints a bash completion script that bash accepts", () => {
    const r = pep(["completion", "bash"]);
    expect(r.status, r.stderr).toBe(0);
    const check = spawnSync("bash", ["--norc", "-n"], { input: r.stdout, encoding: "utf8" });
    expect(check.status, check.stderr).toBe(0);
  });

  it.skipIf(spawnSync("man", ["--version"]).status !== 0)(
    "puts its man pages on MANPATH: man -w finds pep and pep-peptides",
    () => {
      for (const page of ["pep", "pep-peptides"]) {
        const r = spawnSync("man", ["-w", page], {
          encoding: "utf8",
          env: { PATH: process.env.PATH, MANPATH: path.join(prefix, "share", "man") },
        });
        expect(r.status, r.stderr).toBe(0);
        // npm links share/man/man1/<page>.1 to the package's man/; man -w prints the link's target.
        const found = r.stdout.trim();
        expect(found.startsWith(prefix + path.sep)).toBe(true);
        expect(path.basename(found)).toBe(`${page}.1`);
        expect(existsSync(path.join(prefix, "share", "man", "man1", `${page}.1`))).toBe(true);
        expect(readFileSync(found, "utf8")).toBe(readFileSync(path.join(ROOT, "man", `${page}.1`), "utf8"));
      }
    },
  );
});
