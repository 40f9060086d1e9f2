// `npm test`'s checks, side by side: the lint (biome), the type-check (tsc) and the build.
// None reads what another writes, so together they take about as long as the longest of
// them instead of the sum. (Import cycles are checked by the suite itself,
// test/structure/cycles.test.ts, from the same parse as the layers.) Each one's output is
// printed whole once it ends, under its name, so nothing interleaves; the exit status is
// non-zero if any failed, and each failure is named on the last lines.
//
// With --tests (what `npm test` runs), the suite (`vitest run`, given whatever follows
// --tests) runs beside them on the terminal, from the start: the checks take a few seconds
// of CPU, and the suite's first files wait on servers and processes anyway. The suite's
// global setup waits for the build's lock and reuses what it built. A check that fails is
// printed at once; those that pass are summed up in one line after the suite.
//
//   node scripts/checks.mjs                   all three
//   node scripts/checks.mjs lint              only those named: lint, typecheck, build
//   node scripts/checks.mjs --tests [args]    all three, and vitest run [args] beside them
import { spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));

/** Each check is its package.json script, so `npm run <name>` alone does the same. */
const CHECKS = {
  lint: "lint",
  typecheck: "typecheck",
  build: "build",
};

const args = process.argv.slice(2);
const tests = args[0] === "--tests";
const wanted = tests ? [] : args;
for (const name of wanted)
  if (!(name in CHECKS)) {
    console.error(`checks: unknown check '${name}': one of ${Object.keys(CHECKS).join(", ")}`);
    process.exit(2);
  }
const names = wanted.length > 0 ? wanted : Object.keys(CHECKS);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const passed = [];

function run(name) {
  const started = Date.now();
  return new Promise((resolve) => {
    const child = spawn(npm, ["run", "--silent", CHECKS[name]], { cwd: root, stdio: ["ignore", "pipe", "pipe"] });
    const chunks = [];
    child.stdout.on("data", (c) => chunks.push(c));
    child.stderr.on("data", (c) => chunks.push(c));
    child.on("error", (err) => chunks.push(Buffer.from(`${err.message}\n`)));
    child.on("close", (code, signal) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      const ok = code === 0;
      const output = Buffer.concat(chunks).toString("utf8");
      const head = `== ${name} (npm run ${CHECKS[name]}): ${ok ? "ok" : `failed (${signal ?? `exit ${code}`})`}, ${seconds}s\n`;
      if (ok && tests) passed.push(`${name} ${seconds}s`);
      else {
        process.stdout.write(head);
        if (output.trim() !== "") process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
      }
      resolve(ok);
    });
  });
}

/** vitest run with the rest of the arguments, on this terminal; resolves to whether it passed. */
function suite() {
  const vitest = path.join(root, "node_modules", "vitest", "vitest.mjs");
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [vitest, "run", ...args.slice(1)], { cwd: root, stdio: "inherit" });
    child.on("error", (err) => {
      console.error(`checks: vitest could not start: ${err.message}`);
      resolve(false);
    });
    child.on("close", (code) => resolve(code === 0));
  });
}

const [results, suitePassed] = await Promise.all([Promise.all(names.map(run)), tests ? suite() : true]);
const failed = names.filter((_, i) => !results[i]);
if (passed.length > 0) console.log(`checks passed: ${passed.join(", ")}`);
if (failed.length > 0) {
  console.error(`checks failed: ${failed.join(", ")}`);
  process.exit(1);
}
if (!suitePassed) process.exit(1);
