// Bundles src/ into dist/ (CommonJS) with code splitting: the entry (dist/main.js) holds only the
// program shell, and each command, the HTTP core, the output writers and the sandbox
// land in chunks that load on first use. Declarations for the library entry come from tsc.
// Also writes dist/help.txt, the top-level help that bin/pep.js prints on a pipe.
import { build } from "esbuild";
import { mkdtemp, rm, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const pkg = JSON.parse(await readFile(path.join(root, "package.json"), "utf8"));

/**
 * `undici` imported from src/ becomes scripts/undici-lean.mjs: Agent and request only.
 * Its HTTP/2 client loads only when a connection negotiates HTTP/2, which pep never asks
 * for: undici's client requires it (and with it node:http2 and node:tls) at load, which
 * costs a list run about 20 ms of CPU (docs/startup.md has the figures). Everything else
 * of undici is bundled as it is.
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
    b.onLoad({ filter: /.*/, namespace: "lazy-h2" }, () => ({
      resolveDir: dispatcher,
      loader: "js",
      contents:
        "let connectH2;\nmodule.exports = function lazyConnectH2(...args) {\n  connectH2 ??= require('./client-h2.js');\n  return connectH2(...args);\n};\n",
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
  // with --jq), not from the bundle.
  external: ["jq-wasm"],
  logLevel: "warning",
  plugins: [leanUndici],
});

/**
 * esbuild gives every module reachable from two entries (the program and any command it
 * loads later) a chunk of its own, even when the program has always loaded it already:
 * a list run loaded 55 files, and each ES module costs Node a resolution, a file read, a
 * compile-cache lookup and a link, about 0.35 ms apiece on Node 24. Rollup's layout knows
 * what a dynamic import finds loaded already, so it keeps everything the program imports
 * in one file and a list run loads about half as many. It only lays out esbuild's
 * output (no transforms), from the WebAssembly build of rollup: no native binary to
 * install per platform.
 *
 * Rollup writes the chunks as CommonJS (dist/package.json says so), loaded with
 * `require`: Node's ES module loader resolves, links and instantiates every module of a
 * graph through URLs, package scope lookups and module wrappers, where `require` reads
 * and compiles a file. A list run on Node 24 went from 96 to 85 ms (medians of 25
 * interleaved runs; bench/RESULTS.md). The library entry (dist/index.js) is CommonJS
 * too; `import { … } from "pepcli"` still works, as Node reads a CommonJS module's
 * named exports when an ES module imports it.
 */
const { rollup } = await import("@rollup/wasm-node");

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
if (!process.argv.includes("--no-types")) {
  const tsc = path.join(root, "node_modules", "typescript", "bin", "tsc");
  execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });
}
