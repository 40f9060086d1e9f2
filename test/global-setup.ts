/**
 * Before any test file runs: dist/ built from the sources as they are now, so the tests
 * that spawn bin/pep.js (which runs dist/) test the same code as those that import
 * src/. scripts/build.mjs reuses a dist/ whose stamp (dist/source-hash) matches the hash
 * of the build's inputs (scripts/source-hash.mjs) and builds otherwise, once per run:
 * after an edit, `npx vitest run test/<dir>/<file>.test.ts` rebuilds first; `npm test`'s own build
 * step has made it current already, and a vitest run on another Node release (CI's other
 * legs) finds the same hash and reuses it.
 */
import { execFileSync, spawnSync } from "node:child_process";
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

const has = (tool: string, args = ["--version"]) => spawnSync(tool, args, { stdio: "ignore" }).status === 0;

/**
 * Why tests will skip on this machine, one line each, said before any runs: a skipped
 * test is never silent about its reason. Each names the tests and how to run them.
 */
export function skipReasons(env: NodeJS.ProcessEnv = process.env): string[] {
  const reasons: string[] = [];
  const major = Number(process.versions.node.split(".")[0]);
  if (!(major >= 22 && process.getBuiltinModule?.("node:sqlite")))
    reasons.push(
      `the local library's SQLite tests (test/library/, the packaging test's sync) skip: Node ${process.version} has no node:sqlite (Node 22.5 or later has); \`npm run test:node -- 24\` runs them`,
    );
  if (!env.PEP_TEST_PG_URL && env.PEP_TEST_PG_ELSEWHERE)
    reasons.push(
      `the PostgreSQL tests skip on this leg: they run on the ${env.PEP_TEST_PG_ELSEWHERE} leg (PEP_TEST_PG_ELSEWHERE)`,
    );
  else if (!env.PEP_TEST_PG_URL)
    reasons.push(
      'the PostgreSQL tests (test/library/postgres.test.ts, offline-pg.test.ts) skip: PEP_TEST_PG_URL is not set; `eval "$(bash scripts/pg-server.sh start)"` starts a server and sets it',
    );
  if (!has("script"))
    reasons.push(
      "the tests on a terminal (tables, colour, links, the pager) skip: util-linux `script` is not installed",
    );
  if (!has("man")) reasons.push("the man page lookup of the packaging test skips: `man` is not installed");
  if (!has("groff")) reasons.push("the man pages' rendering check skips: groff is not installed");
  if (!has("zsh") || !has("fish"))
    reasons.push("a completion script's syntax check skips for each of zsh, fish not installed");
  reasons.push(
    process.getuid?.() === 0
      ? "the permission tests that root passes anyway (a file it may not read) skip: running as root"
      : "the tests that need root (a file owned by another user) skip: not running as root",
  );
  return reasons;
}

export default function setup(): void {
  if (ensureBuilt() === "built") process.stderr.write("dist/ was rebuilt from the current sources\n");
  for (const reason of skipReasons()) process.stderr.write(`skipped here: ${reason}\n`);
}
