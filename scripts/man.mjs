// `npm run man`: renders the man pages from the command definitions into man/ and keeps
// package.json's "man" list in step with them. `--check` changes nothing and exits 1
// when a page is stale (for CI). The TypeScript sources are bundled on the fly with
// esbuild, so the pages never depend on a stale dist/.
import { build } from "esbuild";
import { mkdir, readFile, readdir, rm, writeFile } from "node:fs/promises";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const check = process.argv.includes("--check");
const pkgFile = path.join(root, "package.json");
const pkg = JSON.parse(await readFile(pkgFile, "utf8"));

const tmpDir = path.join(root, "node_modules", ".cache", "pep-man");
await mkdir(tmpDir, { recursive: true });
const bundle = path.join(tmpDir, `render-${process.pid}.mjs`);
await build({
  absWorkingDir: root,
  stdin: {
    contents:
      'export { renderManPages } from "./src/docs/man-pages.ts"; export { docSources } from "./src/commands/registry.ts";',
    resolveDir: root,
    loader: "ts",
  },
  outfile: bundle,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  define: { __PEP_VERSION__: JSON.stringify(pkg.version) },
  // Command code is loaded (src/commands/loaders.ts) only when a command runs: the pages need none of it.
  plugins: [
    {
      name: "lazy-commands-external",
      setup(b) {
        b.onResolve({ filter: /.*/ }, (args) =>
          args.kind === "dynamic-import" ? { path: args.path, external: true } : undefined,
        );
      },
    },
  ],
  logLevel: "warning",
});
let pages;
try {
  const { renderManPages, docSources } = await import(pathToFileURL(bundle).href);
  pages = renderManPages(docSources(pkg.version));
} finally {
  await rm(bundle, { force: true });
}

const manDir = path.join(root, "man");
const wanted = new Map(pages.map((p) => [p.file, p.text]));
const present = (await readdir(manDir).catch(() => [])).filter((f) => /\.\d$/.test(f));
const stale = [];
for (const [file, text] of wanted) {
  const current = await readFile(path.join(manDir, file), "utf8").catch(() => undefined);
  if (current !== text) stale.push(file);
}
const extra = present.filter((f) => !wanted.has(f));
const manList = pages.map((p) => `man/${p.file}`);
const listStale = JSON.stringify(pkg.man ?? []) !== JSON.stringify(manList);

if (check) {
  for (const f of stale) process.stderr.write(`stale: man/${f}\n`);
  for (const f of extra) process.stderr.write(`not generated: man/${f}\n`);
  if (listStale) process.stderr.write(`package.json "man" should be ${JSON.stringify(manList)}\n`);
  process.exitCode = stale.length || extra.length || listStale ? 1 : 0;
} else {
  await mkdir(manDir, { recursive: true });
  for (const f of stale) await writeFile(path.join(manDir, f), wanted.get(f));
  for (const f of extra) await rm(path.join(manDir, f));
  if (listStale) {
    // Re-read right before writing: another change to package.json may have landed.
    const fresh = JSON.parse(await readFile(pkgFile, "utf8"));
    fresh.man = manList;
    await writeFile(pkgFile, `${JSON.stringify(fresh, null, 2)}\n`);
  }
  process.stdout.write(
    `man/: ${pages.length} pages (${stale.length} written, ${extra.length} removed)${listStale ? "; package.json man list updated" : ""}\n`,
  );
}
