// `npm test`'s checks before the suite, side by side: the lint (biome), the type-check (tsc)
// and the build. None reads what another writes, so together they take about as long as the
// longest of them instead of the sum. (Import cycles are checked by the suite itself,
// test/structure/cycles.test.ts, from the same parse as the layers.) Each one's
// output is printed whole once it ends, under its name, so nothing interleaves; the exit
// status is non-zero if any failed, and each failure is named on the last lines.
//
//   node scripts/checks.mjs          all three (what `npm test` runs before vitest)
//   node scripts/checks.mjs lint     only those named: lint, typecheck, build
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

const wanted = process.argv.slice(2);
for (const name of wanted)
  if (!(name in CHECKS)) {
    console.error(`checks: unknown check '${name}': one of ${Object.keys(CHECKS).join(", ")}`);
    process.exit(2);
  }
const names = wanted.length > 0 ? wanted : Object.keys(CHECKS);
const npm = process.platform === "win32" ? "npm.cmd" : "npm";

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
      process.stdout.write(
        `== ${name} (npm run ${CHECKS[name]}): ${ok ? "ok" : `failed (${signal ?? `exit ${code}`})`}, ${seconds}s\n`,
      );
      if (output.trim() !== "") process.stdout.write(output.endsWith("\n") ? output : `${output}\n`);
      resolve(ok);
    });
  });
}

const results = await Promise.all(names.map(run));
const failed = names.filter((_, i) => !results[i]);
if (failed.length > 0) {
  console.error(`checks failed: ${failed.join(", ")}`);
  process.exit(1);
}
