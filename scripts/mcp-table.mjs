// `npm run mcp-table`: writes the tools table of docs/mcp.md (between `<!-- mcp-tools:start -->`
// and `<!-- mcp-tools:end -->`) from the tool catalog and the endpoint descriptors
// (src/mcp/tools-table.ts). `--check` changes nothing and exits 1 when the table is stale
// (test/docs/mcp-table.test.ts fails then too).
import { build } from "esbuild";
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const check = process.argv.includes("--check");
const doc = path.join(root, "docs", "mcp.md");

const bundle = path.join(root, "node_modules", ".cache", `pep-mcp-table-${process.pid}.mjs`);
await build({
  absWorkingDir: root,
  entryPoints: [path.join(root, "src/mcp/tools-table.ts")],
  outfile: bundle,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  logLevel: "silent",
});
let withToolsTable;
try {
  ({ withToolsTable } = await import(pathToFileURL(bundle).href));
} finally {
  await rm(bundle, { force: true });
}

const text = await readFile(doc, "utf8");
const next = withToolsTable(text);
if (next === undefined) {
  console.error("mcp-table: docs/mcp.md has no <!-- mcp-tools:start --> … <!-- mcp-tools:end --> section");
  process.exit(1);
}
if (next === text) process.exit(0);
if (check) {
  console.error("mcp-table: the tools table of docs/mcp.md is stale; run `npm run mcp-table`");
  process.exit(1);
}
await writeFile(doc, next);
console.error("mcp-table: docs/mcp.md updated");
