// The build's inputs and their content hash. scripts/build.mjs writes the hash to
// dist/source-hash when it has built dist/ from them, and reuses an up-to-date dist/
// instead of building again; the tests' global setup (test/global-setup.ts) builds
// through it before any test file runs, so a test that spawns bin/pep.js runs what the
// sources say now. The Node release is not an input: the bundle targets node20 whichever
// Node builds it, so a dist/ built on one release is reused on another.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

/** Files and folders (every file under them) whose content makes dist/. */
export const BUILD_INPUTS = [
  "src",
  "scripts/build.mjs",
  "scripts/source-hash.mjs",
  "scripts/undici-lean.mjs",
  "scripts/undici-proxy.mjs",
  "package.json",
  "package-lock.json",
  "tsconfig.json",
  "tsconfig.build.json",
];

/** The file dist/ keeps the hash of the inputs it was built from in, written last. */
export const STAMP = path.join("dist", "source-hash");

/** The input files, relative to `root`, with `/` separators, sorted. */
export function inputFiles(root) {
  const files = [];
  for (const rel of BUILD_INPUTS) {
    const full = path.join(root, rel);
    if (!existsSync(full)) continue;
    if (!statSync(full).isDirectory()) {
      files.push(rel);
      continue;
    }
    for (const e of readdirSync(full, { withFileTypes: true, recursive: true }))
      if (e.isFile()) files.push(path.relative(root, path.join(e.parentPath ?? e.path, e.name)));
  }
  return files.map((f) => f.split(path.sep).join("/")).sort();
}

/** The sha256 of every input file's path and content. */
export function sourceHash(root) {
  const hash = createHash("sha256");
  for (const f of inputFiles(root))
    hash
      .update(`${f}\0`)
      .update(readFileSync(path.join(root, f)))
      .update("\0");
  return hash.digest("hex");
}

/** Whether dist/ was built, whole, from the inputs as they are now. */
export function isCurrent(root) {
  const stamp = path.join(root, STAMP);
  if (!existsSync(stamp) || !existsSync(path.join(root, "dist", "main.js"))) return false;
  return readFileSync(stamp, "utf8").trim() === sourceHash(root);
}
