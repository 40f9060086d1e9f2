// Bundles src/ into dist/ (CommonJS) with code splitting: the entry (dist/main.js) holds only the
// program shell, and each command, the HTTP core, the output writers and the sandbox
// land in chunks that load on first use. Declarations for the library entry come from tsc.
// Also writes dist/help.txt, the top-level help that bin/pep.js prints on a pipe, and, last,
// dist/source-hash, the hash of the inputs it was built from (scripts/source-hash.mjs): a
// dist/ already built from the sources as they are is reused (`--force` builds anyway), so
// `npm test`'s build and the tests' global setup build once between them.
import { build } from "esbuild";
import { mkdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from "node:fs";
import { mkdtemp, rm, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));
const withTypes = !process.argv.includes("--no-types");

/**
 * One build at a time in this folder (two test runs started together): a lock folder,
 * taken by mkdir, holding the builder's pid. A lock whose builder is gone (killed), or
 * older than ten minutes, is broken.
 */
async function buildLock() {
  const lock = path.join(root, "node_modules", ".cache", "pepcli-build.lock");
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      writeFileSync(path.join(lock, "pid"), `${process.pid}\n`);
      const release = () => rmSync(lock, { recursive: true, force: true });
      process.on("exit", release);
      for (const signal of ["SIGINT", "SIGTERM"])
        process.once(signal, () => {
          release();
          process.kill(process.pid, signal);
        });
      return;
    } catch (err) {
      if (err.code !== "EEXIST") throw err;
      if (lockIsStale(lock)) rmSync(lock, { recursive: true, force: true });
      else await new Promise((r) => setTimeout(r, 200));
    }
  }
}

function lockIsStale(lock) {
  try {
    if (Date.now() - statSync(lock).mtimeMs > 600_000) return true;
    const pid = Number(readFileSync(path.join(lock, "pid"), "utf8"));
    if (!Number.isInteger(pid) || pid <= 0) return Date.now() - statSync(lock).mtimeMs > 5_000;
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // ESRCH: its builder is gone. ENOENT: released meanwhile, or the pid not written yet.
    return err.code === "ESRCH";
  }
}

await buildLock();
// Hashed before building: a source edited during the build leaves the stamp stale.
const { isCurrent, sourceHash, STAMP } = await import("./source-hash.mjs");
const inputsHash = sourceHash(root);
if (withTypes && !process.argv.includes("--force") && isCurrent(root)) {
  console.log(`dist/ is up to date with the sources (${inputsHash.slice(0, 12)}): reused`);
  process.exit(0);
}

/**
 * `undici` imported from src/ becomes scripts/undici-lean.mjs: Agent and request only.
 * Its HTTP/2 client loads only when a connection negotiates HTTP/2, which pep never asks
 * for: undici's client requires it (and with it node:http2 and node:tls) at load, a few
 * milliseconds of every networked run. Two modules that undici requires only on a path
 * pep never takes stay out of the bundle and are required from the package if ever
 * needed: the fetch body helpers (for a request body; pep sends none) and the llhttp
 * build for machines without WebAssembly SIMD. Left in, they were 160 KB of code to
 * compile on every networked run.
 */
const leanUndici = {
  name: "lean-undici",
  setup(b) {
    const dispatcher = path.join(root, "node_modules", "undici", "lib", "dispatcher");
    // A dynamic import("undici") (the proxy path) gets ProxyAgent in a chunk of its own,
    // loaded only when a proxy is configured.
    b.onResolve({ filter: /^undici$/ }, (args) =>
      args.importer.startsWith(path.join(root, "src") + path.sep)
        ? { path: path.join(root, "scripts", args.kind === "dynamic-import" ? "undici-proxy.mjs" : "undici-lean.mjs") }
        : undefined,
    );
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, (args) =>
      args.importer === path.join(dispatcher, "client.js") ? { path: "client-h2", namespace: "lazy-h2" } : undefined,
    );
    const unused = new Map([
      [path.join(root, "node_modules", "undici", "lib", "web", "fetch", "body.js"), "undici/lib/web/fetch/body.js"],
      [
        path.join(root, "node_modules", "undici", "lib", "llhttp", "llhttp-wasm.js"),
        "undici/lib/llhttp/llhttp-wasm.js",
      ],
    ]);
    b.onResolve({ filter: /\/(body|llhttp-wasm)\.js$/ }, (args) => {
      const target = unused.get(path.resolve(args.resolveDir, args.path));
      return target && args.importer.startsWith(dispatcher + path.sep) ? { path: target, external: true } : undefined;
    });
    b.onLoad({ filter: /.*/, namespace: "lazy-h2" }, () => ({
      resolveDir: dispatcher,
      loader: "js",
      contents:
        "let connectH2;\nmodule.exports = function lazyConnectH2(client, socket) {\n  connectH2 ??= require('./client-h2.js');\n  return connectH2(client, socket);\n};\n",
    }));
  },
};

/**
 * commander requires node:child_process at load, for executable subcommands (spawned
 * programs), which pep does not have: it gets node:child_process when it first spawns,
 * and every run is spared loading it (about a millisecond).
 */
const lazyChildProcess = {
  name: "lazy-child-process",
  setup(b) {
    const commander = path.join(root, "node_modules", "commander", "lib") + path.sep;
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      args.importer.startsWith(commander) ? { path: "child_process", namespace: "lazy-child-process" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-child-process" }, () => ({
      loader: "js",
      contents:
        "module.exports = {\n  spawn(...args) {\n    return require('node:child_process').spawn(...args);\n  },\n};\n",
    }));
  },
};

/**
 * undici checks its own invariants with `assert(condition)` from node:assert, which loads
 * nine more built-in modules (the assertion error's diff printer among them): about 3.5 ms
 * of every networked run on Node 24, for checks that pass. In the bundle its `assert`
 * is a function that loads node:assert only when a check fails, and then throws the same
 * AssertionError. undici calls nothing else of node:assert (test/build/undici-layout.test.ts
 * fails when a new version does).
 */
const lazyAssert = {
  name: "lazy-assert",
  setup(b) {
    const undici = path.join(root, "node_modules", "undici") + path.sep;
    b.onResolve({ filter: /^(node:)?assert$/ }, (args) =>
      args.importer.startsWith(undici) ? { path: "assert", namespace: "lazy-assert" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-assert" }, () => ({
      loader: "js",
      contents:
        "module.exports = function assert(value, message) {\n  if (!value) require('node:assert')(value, message);\n};\n",
    }));
  },
};

/**
 * undici requires node:http at load for two things: the IncomingMessage class, compared
 * with a stream's constructor when undici destroys a stream, and http.maxHeaderSize, its
 * default limit on response headers. Loading node:http costs a networked run about 4 ms
 * on Node 24 (seven built-in modules). In the bundle both are read when first needed: the
 * class only for a stream whose constructor is named IncomingMessage (no other can be
 * it), the limit only when a client is made without one (pep gives one). Each text
 * replaced must be found, or the build fails.
 */
const lazyHttp = {
  name: "lazy-http",
  setup(b) {
    const lib = path.join(root, "node_modules", "undici", "lib");
    const edits = new Map([
      [
        path.join(lib, "core", "util.js"),
        [
          ["const { IncomingMessage } = require('node:http')", ""],
          [
            "Object.getPrototypeOf(stream).constructor === IncomingMessage",
            "Object.getPrototypeOf(stream).constructor?.name === 'IncomingMessage' && Object.getPrototypeOf(stream).constructor === require('node:http').IncomingMessage",
          ],
        ],
      ],
      [
        path.join(lib, "dispatcher", "client.js"),
        [
          ["const http = require('node:http')", ""],
          [
            "const getDefaultNodeMaxHeaderSize = http &&",
            "const getDefaultNodeMaxHeaderSize = () => { const http = require('node:http'); return (http &&",
          ],
          [
            "  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') }",
            "  : () => { throw new InvalidArgumentError('http module not available or http.maxHeaderSize invalid') })() }",
          ],
        ],
      ],
    ]);
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/](core[\\/]util|dispatcher[\\/]client)\.js$/ }, async (args) => {
      const list = edits.get(args.path);
      if (!list) return undefined;
      let text = await readFile(args.path, "utf8");
      for (const [from, to] of list) {
        if (!text.includes(from))
          throw new Error(`lazy-http: undici's ${path.relative(lib, args.path)} no longer has: ${from}`);
        text = text.replace(from, to);
      }
      return { contents: text, loader: "js" };
    });
  },
};

/**
 * pep's own modules import Node built-ins as ES modules (`import { readFileSync } from
 * "node:fs"`). Node builds such an import's namespace from every export of the built-in,
 * and reading them runs its lazy getters: `node:fs` then loads fs/promises, the file
 * streams and readline, `node:crypto` the whole of WebCrypto. In the bundle they are
 * required instead (through the banner's `require`), which leaves those getters alone:
 * about 40 built-in modules fewer on a list run, the largest part of what it loaded beyond
 * a plain node:http script. esbuild reads each name off the required object where it is
 * used, so nothing else changes.
 */
const builtinsByRequire = {
  name: "builtins-by-require",
  setup(b) {
    const src = path.join(root, "src") + path.sep;
    b.onResolve({ filter: /^node:/ }, (args) =>
      args.kind === "import-statement" && args.importer.startsWith(src)
        ? { path: args.path, namespace: "builtin-by-require" }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "builtin-by-require" }, (args) => ({
      loader: "js",
      contents: `module.exports = require(${JSON.stringify(args.path)});\n`,
    }));
  },
};

/**
 * The MCP SDK (loaded by `pep mcp` only) gets zod from the package at run time instead of
 * from the bundle. It uses much more of zod than pep's own schemas do; bundled, that part
 * would land in the zod chunk every networked command loads (about 30 KB more to compile
 * on every run). Schemas cross between the two copies safely: zod 4 keeps descriptions in
 * one registry on globalThis, and its parsers read a schema's own internals.
 */
const sdkZodFromPackage = {
  name: "sdk-zod-from-package",
  setup(b) {
    const users = ["@modelcontextprotocol", "zod-to-json-schema"].map(
      (d) => path.join(root, "node_modules", d) + path.sep,
    );
    b.onResolve({ filter: /^zod(\/.*)?$/ }, (args) =>
      users.some((u) => args.importer.startsWith(u)) ? { path: args.path, external: true } : undefined,
    );
  },
};

/**
 * pg (the PostgreSQL client, loaded only for a library in PostgreSQL) is bundled, so its
 * code comes from pep's code cache like the rest, and its password hashing loads only for
 * a server that asks for a password: pg requires its crypto helpers at load, and they
 * take WebCrypto (node:crypto's webcrypto, about 10 ms on Node 24) whatever the server's
 * authentication. In the bundle pg's client and its SCRAM code get a stand-in that requires
 * them on first use. pg's native binding (pg-native, optional, never installed by pep)
 * is not in the bundle: pg's `./native` becomes a module that fails as a missing pg-native
 * does (MODULE_NOT_FOUND), which is what pg met without it, so dist/ requires no package
 * for PostgreSQL.
 */
const pgBundled = {
  name: "pg-bundled",
  setup(b) {
    // Where esbuild finds pg: its real path (node_modules may be a link, as in a copy of the tree).
    const lib = realpathSync(path.join(root, "node_modules", "pg", "lib"));
    const users = new Map([
      [path.join(lib, "client.js"), "./crypto/utils"],
      [path.join(lib, "crypto", "sasl.js"), "./utils"],
    ]);
    // Each of the three requires is found in pg as pinned, or the build fails: a pg that
    // moved them would bring WebCrypto back at load, or fail on pg-native.
    const met = new Set();
    b.onResolve({ filter: /^\.\/(crypto\/)?utils$/ }, (args) => {
      if (users.get(args.importer) !== args.path) return undefined;
      met.add(args.importer);
      return { path: "pg-crypto", namespace: "lazy-pg-crypto" };
    });
    b.onResolve({ filter: /^\.\/native$/ }, (args) => {
      if (args.importer !== path.join(lib, "index.js")) return undefined;
      met.add(args.importer);
      return { path: "pg-native", namespace: "no-pg-native" };
    });
    b.onEnd(() =>
      met.size === 3 ? undefined : { errors: [{ text: `pg-bundled: pg's requires moved (met ${met.size} of 3)` }] },
    );
    b.onLoad({ filter: /.*/, namespace: "no-pg-native" }, () => ({
      loader: "js",
      contents:
        "const err = new Error(\"Cannot find module 'pg-native': pep runs pg's JavaScript client only\");\nerr.code = 'MODULE_NOT_FOUND';\nthrow err;\n",
    }));
    b.onLoad({ filter: /.*/, namespace: "lazy-pg-crypto" }, () => ({
      resolveDir: path.join(lib, "crypto"),
      loader: "js",
      contents:
        "let real;\nmodule.exports = new Proxy({}, { get: (_, name) => (real ??= require('./utils.js'))[name] });\n",
    }));
  },
};

await rm(path.join(root, "dist"), { recursive: true, force: true });
// esbuild bundles into a staging folder; rollup then lays the chunks out in dist/ (below).
const stage = await mkdtemp(path.join(tmpdir(), "pep-build-"));
const ENTRIES = { main: "src/cli/main.ts", index: "src/index.ts", sandbox: "src/sandbox/index.ts" };
await build({
  absWorkingDir: root,
  entryPoints: ENTRIES,
  outdir: stage,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  chunkNames: "chunks/[name]-[hash]",
  sourcemap: false,
  minifySyntax: true,
  legalComments: "none",
  define: { __PEP_VERSION__: JSON.stringify(pkg.version) },
  // Bundled CommonJS dependencies call require() for Node built-ins.
  // jq-wasm reads its jq.wasm from beside its own module: it loads from the package (only
  // with --jq), not from the bundle. pg is bundled (pgBundled says how).
  external: ["jq-wasm"],
  logLevel: "warning",
  plugins: [leanUndici, lazyChildProcess, lazyAssert, lazyHttp, pgBundled, builtinsByRequire, sdkZodFromPackage],
});

/**
 * esbuild gives every module reachable from two entries (the program and any command it
 * loads later) a chunk of its own, even when the program has always loaded it already:
 * a list run loaded 55 files, and each ES module costs Node a resolution, a file read, a
 * compile-cache lookup and a link, about 0.35 ms apiece on Node 24. Rollup's layout knows
 * what a dynamic import finds loaded already, so it keeps everything the program imports
 * in one file and a list run loads about half as many. It only lays out esbuild's
 * output (no transforms). Rollup's native build (one binary per platform, as esbuild's):
 * its WebAssembly build made the same files in about 3 s more of CPU per build.
 *
 * Rollup writes the chunks as CommonJS (dist/package.json says so), loaded with
 * `require`: Node's ES module loader resolves, links and instantiates every module of a
 * graph through URLs, package scope lookups and module wrappers, where `require` reads
 * and compiles a file. A list run on Node 24 went from 96 to 85 ms (medians of 25
 * interleaved runs; bench/RESULTS.md). The library entry (dist/index.js) is CommonJS
 * too; `import { … } from "pepcli"` still works, as Node reads a CommonJS module's
 * named exports when an ES module imports it.
 */
const { rollup } = await import("rollup");

const layout = await rollup({
  input: Object.fromEntries(Object.keys(ENTRIES).map((name) => [name, path.join(stage, `${name}.js`)])),
  // Built-ins and the packages esbuild left outside the bundle stay imports.
  external: (id) => !id.startsWith(".") && !path.isAbsolute(id),
  // esbuild's output is already shaken; rollup keeps every statement it was given.
  treeshake: false,
  preserveEntrySignatures: "allow-extension",
  onwarn(warning) {
    throw new Error(`rollup: ${warning.message}`);
  },
});
await layout.write({
  dir: path.join(root, "dist"),
  format: "cjs",
  // import() of what stays outside the bundle (node:child_process for the pager, node:dns
  // in undici, jq-wasm) becomes require() when first needed: bin/code-cache.js compiles
  // the bundle with node:vm, where import() needs an experimental flag (and warns).
  dynamicImportInCjs: false,
  entryFileNames: "[name].js",
  chunkFileNames: "chunks/[name]-[hash].js",
});
await layout.close();
await writeFile(path.join(root, "dist", "package.json"), '{\n  "type": "commonjs"\n}\n');

/**
 * dist/mcp-early.js: `pep mcp`'s quick start (src/cli/mcp-early.ts), which bin/pep.js runs
 * before the program to answer initialize. One file with everything it uses, apart from
 * the program's layout above: shared with the program, its modules would be split out of
 * dist/main.js into chunks every run then loads. What it leaves for the program, it leaves
 * on the global object, as the two hold separate copies of those modules.
 */
/**
 * The quick start lists tools from the endpoint descriptors, whose query schemas are
 * built only when a query is checked, which it never does: src/api/query-schemas.ts
 * (and zod with it, about half the file and 4 to 7 ms to load uncached) loads in its
 * bundle only if one of the two functions the descriptors take from it is called. A
 * new name taken from it is not found here and fails the build.
 */
const lazyQuerySchemas = {
  name: "lazy-query-schemas",
  setup(b) {
    const api = path.join(root, "src", "api");
    b.onResolve({ filter: /^\.\/query-schemas\.js$/ }, (args) =>
      args.importer === path.join(api, "endpoints.ts") ? { path: "query-schemas", namespace: "lazy-query" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "lazy-query" }, () => ({
      resolveDir: api,
      loader: "js",
      contents:
        "const real = () => require('./query-schemas.ts');\nexport const buildQuerySchema = (...a) => real().buildQuerySchema(...a);\nexport const listParamOf = (...a) => real().listParamOf(...a);\n",
    }));
  },
};
/**
 * The tool list the quick start answers `tools/list` with (src/mcp/early-tools.ts): each
 * tool of the catalog as the MCP SDK's server lists it, rendered by that server here
 * (src/mcp/tool-list.ts), bundled as the program bundles it (the same plugins, the SDK's
 * zod from the package), so it cannot differ from the program's list. Written beside the
 * build lock, where the SDK's zod resolves.
 *
 * The same run renders the catalog (src/mcp/catalog.ts) and the endpoint descriptors
 * (src/api/endpoints.ts) as data: the quick start chooses the tools of a configuration
 * from them (mcp/listing.ts), and building them, with the checks of each descriptor, was
 * about a third of loading its bundle. A descriptor's functions and query schema are not
 * data and are left out (the quick start reads neither); a name the quick start imports
 * that the data lacks fails this build.
 */
const toolListJs = path.join(root, "node_modules", ".cache", "pepcli-tool-list.cjs");
await build({
  absWorkingDir: root,
  stdin: {
    contents: [
      'import { toolListTable } from "./src/mcp/tool-list.ts";',
      'import { LIBRARY_TOOLS, TOOL_GROUPS, TOOLS } from "./src/mcp/catalog.ts";',
      'import { ENDPOINTS } from "./src/api/endpoints.ts";',
      "const catalog = { TOOL_GROUPS, TOOLS: TOOLS.map((t) => ({ ...t, params: [...t.params] })), LIBRARY_TOOLS: LIBRARY_TOOLS.map((t) => ({ ...t, args: [...t.args] })) };",
      'const endpoints = JSON.parse(JSON.stringify(ENDPOINTS, (k, v) => (k === "query" ? undefined : v)));',
      "toolListTable().then((tools) => process.stdout.write(JSON.stringify({ tools, catalog, endpoints })));",
    ].join("\n"),
    resolveDir: root,
    sourcefile: "tool-list-entry.ts",
    loader: "ts",
  },
  outfile: toolListJs,
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  define: { __PEP_VERSION__: JSON.stringify(pkg.version) },
  logLevel: "warning",
  plugins: [builtinsByRequire, sdkZodFromPackage],
});
const rendered = JSON.parse(
  execFileSync(process.execPath, [toolListJs], {
    cwd: root,
    env: { PATH: process.env.PATH ?? "" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  }),
);
await rm(toolListJs, { force: true });
if (Object.keys(rendered.tools).length === 0) throw new Error("the rendered tool list is empty");
const earlyData = {
  name: "early-data",
  setup(b) {
    const data = new Map([
      [path.join(root, "src", "mcp", "early-tools.ts"), { EARLY_TOOLS: rendered.tools }],
      [path.join(root, "src", "mcp", "catalog.ts"), rendered.catalog],
      [path.join(root, "src", "api", "endpoints.ts"), { ENDPOINTS: rendered.endpoints }],
    ]);
    b.onLoad({ filter: /[\\/](early-tools|catalog|endpoints)\.ts$/ }, (args) => {
      const exports = data.get(args.path);
      if (!exports) return undefined;
      const lines = Object.entries(exports).map(([k, v]) => `export const ${k} = ${JSON.stringify(v)};`);
      return { loader: "js", contents: `${lines.join("\n")}\n` };
    });
  },
};
/** What bin/pep.js runs before the program: one CommonJS file each, for Node 20 on. */
const EARLY_BUNDLE = {
  absWorkingDir: root,
  outdir: path.join(root, "dist"),
  bundle: true,
  format: "cjs",
  platform: "node",
  target: "node20",
  sourcemap: false,
  minifySyntax: true,
  legalComments: "none",
  logLevel: "warning",
};
await build({
  ...EARLY_BUNDLE,
  entryPoints: { "mcp-early": "src/cli/mcp-early.ts" },
  // CommonJS has no import.meta: core/builtin.ts's fallback (Node before 20.16) reads the
  // file's own URL from __filename instead, when it needs it (the start of every quick
  // answer need not turn a path into a URL).
  banner: {
    js: 'var __pep_import_meta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };',
  },
  define: { __PEP_VERSION__: JSON.stringify(pkg.version), "import.meta.url": "__pep_import_meta.url" },
  // No builtinsByRequire: CommonJS output requires a built-in itself, and through that
  // plugin's module each import of one would copy its every export (esbuild's __toESM),
  // node:fs's hundred of them six times over, before the first answer.
  plugins: [lazyQuerySchemas, earlyData],
});

/**
 * dist/sql-early.js: `pep sql`'s early start (src/cli/sql-early.ts), which bin/pep.js runs
 * before the program to start the SQLite query's process. One file, as mcp-early.js is;
 * it leaves the process on the global object for the program's copy of the same code.
 */
await build({ ...EARLY_BUNDLE, entryPoints: { "sql-early": "src/cli/sql-early.ts" } });

/**
 * dist/build-id: a hash of every file of the bundle. bin/code-cache.js keeps V8's code
 * cache of this build in a folder named by it, as V8 checks no more of a cached file
 * than its source's length: a rebuild or a new version never meets an old cache.
 */
{
  const { createHash } = await import("node:crypto");
  const { readdir } = await import("node:fs/promises");
  const hash = createHash("sha256");
  const files = (await readdir(path.join(root, "dist"), { recursive: true })).filter((f) => f.endsWith(".js")).sort();
  for (const f of files)
    hash
      .update(`${f}\0`)
      .update(await readFile(path.join(root, "dist", f)))
      .update("\0");
  await writeFile(path.join(root, "dist", "build-id"), `${hash.digest("hex").slice(0, 16)}\n`);
}
await rm(stage, { recursive: true, force: true });

// The top-level help as printed on a pipe (80 columns, no colour), for bin/pep.js to print
// without loading the program. Rendered by the program itself, so it cannot drift.
const help = execFileSync(
  process.execPath,
  [
    "--input-type=module",
    "-e",
    `const { run } = await import(${JSON.stringify(new URL("../dist/main.js", import.meta.url).href)}); process.exitCode = await run(["--help"]);`,
  ],
  {
    cwd: root,
    env: { PATH: process.env.PATH ?? "", COLUMNS: "80" },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  },
);
await writeFile(path.join(root, "dist", "help.txt"), help);

// Type declarations for `import { createClient } from "pepcli"`.
if (withTypes) {
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
  // Last: only a whole build is marked as built from these inputs.
  await writeFile(path.join(root, STAMP), `${inputsHash}\n`);
}
