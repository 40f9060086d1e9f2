// `npm run error-codes`: writes the table of every JSON `error.code` and its exit code
// (src/core/error-codes.ts) into README.md, between `<!-- error-codes:start -->` and
// `<!-- error-codes:end -->`. `--check` changes nothing and exits 1 when the README's table
// is stale (test/docs/error-codes.test.ts fails then too).
import { build } from "esbuild";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const check = process.argv.includes("--check");
const readme = path.join(root, "README.md");
const START = "<!-- error-codes:start -->";
const END = "<!-- error-codes:end -->";

const bundle = path.join(root, "node_modules", ".cache", `pep-error-codes-${process.pid}.mjs`);
await build({
  absWorkingDir: root,
  entryPoints: [path.join(root, "src/core/error-codes.ts")],
  outfile: bundle,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  logLevel: "silent",
});
let table;
try {
  ({ errorCodeTable: table } = await import(pathToFileURL(bundle).href));
} finally {
  await rm(bundle, { force: true });
}

const text = await readFile(readme, "utf8");
const from = text.indexOf(START);
const to = text.indexOf(END);
if (from === -1 || to < from) {
  console.error(`error-codes: README.md has no ${START} … ${END} section`);
  process.exit(1);
}
const next = `${text.slice(0, from + START.length)}\n${table()}\n${text.slice(to)}`;
if (next === text) process.exit(0);
if (check) {
  console.error("error-codes: the README's table of error codes is stale; run `npm run error-codes`");
  process.exit(1);
}
await writeFile(readme, next);
console.error("error-codes: README.md updated");
