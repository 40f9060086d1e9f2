/**
 * Before any test file runs: dist/ built from the sources as they are now, so the tests
 * that spawn bin/pep.js (which runs dist/) test the same code as those that import
 * src/. scripts/build.mjs reuses a dist/ whose stamp (dist/source-hash) matches the hash
 * of the build's inputs (scripts/source-hash.mjs) and builds otherwise, once per run:
 * after an edit, `npx vitest run test/<dir>/<file>.test.ts` rebuilds first; `npm test`'s own build
 * step has made it current already, and a vitest run on another Node release (CI's other
 * legs) finds the same hash and reuses it.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isCurrent } from "../scripts/source-hash.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Builds `root`'s dist/ unless it is current; says which it did. */
export function ensureBuilt(root: string = ROOT): "reused" | "built" {
  if (isCurrent(root)) return "reused";
  // The build takes its lock and checks the hash again: another run may have built meanwhile.
  try {
    execFileSync(process.execPath, [path.join(root, "scripts", "build.mjs")], {
      cwd: root,
      stdio: ["ignore", "ignore", "inherit"],
    });
  } catch (err) {
    // Its errors are on stderr above. No test runs against a dist/ the sources no longer make.
    throw new Error(`the build of the current sources failed (scripts/build.mjs in ${root}): no test ran`, {
      cause: err,
    });
  }
  return "built";
}

export default function setup(): void {
  if (ensureBuilt() === "built") process.stderr.write("dist/ was rebuilt from the current sources\n");
}
