/**
 * The package as users get it: `npm pack`, then `npm install -g --omit=dev` of the tarball
 * into an empty prefix (one install, shared by every test below), then the installed `pep`
 * run as a user runs it: a table on a terminal, CSV, --jq, `pep mcp`, completion, man
 * pages and, where Node has node:sqlite, the library. What it installs is bounded: at most
 * MAX_PACKAGES packages and MAX_BYTES bytes (README.md's "Dependencies" says the figures),
 * as only what dist/ loads at run time is a dependency; everything bundled is a
 * development dependency. Dependencies come from the local npm cache (`--offline`); only
 * if that cache lacks them does npm ask the registry.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { isBuiltin } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBuilt, ROOT } from "../helpers/cli.js";
import { rawSession } from "../helpers/mcp-client.js";
import { hasScript, onTerminal, screenLines, visible } from "../helpers/terminal.js";
import { hasSqlite } from "../library/helpers.js";

/** What an install of pepcli may bring, itself included: today 4 packages, about 15 MB. */
const MAX_PACKAGES = 25;
const MAX_BYTES = 20 * 1024 * 1024;

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
/** What `npm install -g` printed on stderr. */
let installWarnings: string;
/** The installed package's folder and its executable script. */
let installed: string;
let bin: string;

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
    spawnSync(npm, ["install", "-g", "--omit=dev", "--prefix", prefix, tarball, "--no-audit", "--no-fund", ...extra], {
      cwd: tmp,
      env: npmEnv(),
      encoding: "utf8",
      timeout: 120_000,
    });
  let r = install(["--offline"]);
  if (r.status !== 0) r = install(["--prefer-offline"]);
  if (r.status !== 0) throw new Error(`npm install -g of the tarball failed:\n${r.stdout}${r.stderr}`);
  installWarnings = r.stderr;
  installed = path.join(prefix, "lib", "node_modules", pkg.name);
  bin = path.join(installed, "bin", "pep.js");
}, 180_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

const userEnv = () => ({
  PATH: process.env.PATH ?? "",
  HOME: tmp,
  PEP_CONFIG_DIR: path.join(tmp, "config"),
  PEP_CACHE_DIR: path.join(tmp, "cache"),
});

/** The installed `pep`, run by the Node that runs the tests (the link's `node` may be another). */
function pep(args: string[], { env = {}, input }: { env?: Record<string, string>; input?: string } = {}) {
  return spawnSync(process.execPath, [bin, ...args], {
    cwd: tmp,
    encoding: "utf8",
    timeout: 30_000,
    input,
    env: { ...userEnv(), ...env },
  });
}

/** Every package under a node_modules folder, nested ones too, scoped ones by name. */
function packagesUnder(dir: string): string[] {
  const modules = path.join(dir, "node_modules");
  if (!existsSync(modules)) return [];
  const found: string[] = [];
  for (const entry of readdirSync(modules)) {
    if (entry.startsWith(".")) continue;
    const dirs = entry.startsWith("@")
      ? readdirSync(path.join(modules, entry)).map((n) => path.join(modules, entry, n))
      : [path.join(modules, entry)];
    for (const d of dirs) if (existsSync(path.join(d, "package.json"))) found.push(d, ...packagesUnder(d));
  }
  return found;
}

/** The bytes of every file under a folder (their sizes, not the blocks a disk gives them). */
function bytesUnder(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) n += bytesUnder(p);
    else n += lstatSync(p).size;
  }
  return n;
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

  it("installs without a warning, within 25 packages and 20 MB: only what dist/ loads at run time", () => {
    expect(installWarnings).not.toMatch(/npm warn/i);
    const packages = [installed, ...packagesUnder(installed)];
    const names = packages.map((p) => path.relative(path.join(installed, "node_modules"), p));
    expect(packages.length, `installed packages: ${names.join(", ")}`).toBeLessThanOrEqual(MAX_PACKAGES);
    expect(bytesUnder(installed)).toBeLessThanOrEqual(MAX_BYTES);
    // What dist/ requires from outside itself is exactly the package's dependencies.
    const manifest = JSON.parse(readFileSync(path.join(installed, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(requiredByDist(path.join(installed, "dist")));
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

  it.skipIf(!hasScript)("prints a sandbox list as a table on a terminal", async () => {
    const { code, screen } = await onTerminal(["--sandbox", "peptides", "list"], userEnv(), { bin });
    const lines = screenLines(visible(screen));
    expect(code, screen).toBe(0);
    // A header, then a row a peptide, its columns lined up under the header's.
    const at = lines.findIndex((l) => /^ID +NAME +/.test(l));
    expect(at, screen).toBeGreaterThanOrEqual(0);
    const nameColumn = lines[at]!.indexOf("NAME");
    const rows = lines.slice(at + 1).filter((l) => /^[a-z0-9][a-z0-9-]* {2,}\S/.test(l));
    expect(rows.length, screen).toBe(20);
    for (const row of rows) expect(row[nameColumn - 1], row).toBe(" ");
    for (const row of rows) expect(row[nameColumn], row).not.toBe(" ");
  });

  it("writes CSV and filters with --jq", () => {
    const csv = pep(["--sandbox", "peptides", "list", "--limit", "3", "-o", "csv", "--fields", "id,name"]);
    expect(csv.status, csv.stderr).toBe(0);
    const rows = csv.stdout.trim().split("\r\n");
    expect(rows[0]).toBe("id,name");
    expect(rows).toHaveLength(4);
    const jq = pep(["--sandbox", "peptides", "list", "--limit", "3", "--jq", ".[].id"]);
    expect(jq.status, jq.stderr).toBe(0);
    expect(jq.stdout.trim().split("\n")).toEqual(rows.slice(1).map((r) => JSON.stringify(r.split(",")[0])));
  });

  it("answers as an MCP server: initialize, then a tool call", () => {
    const input = rawSession({
      id: 2,
      method: "tools/call",
      params: { name: "list_peptides", arguments: { limit: 2 } },
    });
    const r = pep(["mcp", "--sandbox"], { input });
    expect(r.status, r.stderr).toBe(0);
    const replies = r.stdout
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> });
    const init = replies.find((m) => m.id === 1)?.result as { serverInfo?: { name: string } } | undefined;
    expect(init?.serverInfo?.name, r.stdout).toBeTruthy();
    const call = replies.find((m) => m.id === 2)?.result as
      | { isError?: boolean; structuredContent?: { items?: unknown[] } }
      | undefined;
    expect(call?.isError, r.stdout).not.toBe(true);
    expect(call?.structuredContent?.items, r.stdout).toHaveLength(2);
  });

  it.skipIf(!hasSqlite())("syncs the sandbox into a SQLite library and queries it (node:sqlite)", () => {
    const db = path.join(tmp, "library.sqlite");
    const sync = pep(["--sandbox", "sync", "peptides", "--db", db, "-q"]);
    expect(sync.status, sync.stderr).toBe(0);
    const sql = pep(["sql", "SELECT COUNT(*) AS n FROM peptides", "--db", db, "-o", "json"]);
    expect(sql.status, sql.stderr).toBe(0);
    const [row] = JSON.parse(sql.stdout) as { n: number }[];
    expect(row!.n).toBeGreaterThan(0);
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

/** The packages (not Node built-ins, not its own files) that dist/ requires, by name. */
function requiredByDist(dist: string): string[] {
  const names = new Set<string>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".js")) {
        const text = readFileSync(p, "utf8");
        for (const m of text.matchAll(/(?:\b|__)require\((["'])([^"'.][^"']*)\1\)/g)) {
          const spec = m[2]!;
          if (isBuiltin(spec)) continue;
          // Code that a bundled module writes as text (ajv's generated validators) is no require.
          if (["'", "`"].includes(text[m.index - 1] ?? "")) continue;
          names.add(spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!);
        }
      }
    }
  };
  walk(dist);
  return [...names].sort();
}
