#!/usr/bin/env node
// `npm run fuzz`: the argv, config and environment fuzzers (test/fuzz) with many more
// runs than `npm test` gives them, seeded from the clock unless PEP_FUZZ_SEED is set.
// The seed is printed first and last, so a failure is repeated with the same line:
//
//   npm run fuzz                                  # a new seed, 20 times the runs
//   PEP_FUZZ_SEED=424242 PEP_FUZZ_RUNS=50 npm run fuzz
//   npm run fuzz -- test/fuzz/argv-local.test.ts  # one file (vitest's own arguments)
import { spawnSync } from "node:child_process";

const seed = process.env.PEP_FUZZ_SEED || String(Date.now() % 2_147_483_647);
const runs = process.env.PEP_FUZZ_RUNS || "20";
for (const [name, value] of [
  ["PEP_FUZZ_SEED", seed],
  ["PEP_FUZZ_RUNS", runs],
]) {
  if (!/^\d+$/.test(value)) {
    console.error(`fuzz: ${name} must be a whole number, not ${JSON.stringify(value)}`);
    process.exit(2);
  }
}
const again = `PEP_FUZZ_SEED=${seed} PEP_FUZZ_RUNS=${runs} npm run fuzz`;
console.error(`fuzz: seed ${seed}, ${runs} times the runs of npm test (repeat: ${again})`);
const files = process.argv.slice(2);
const r = spawnSync("npx", ["vitest", "run", ...(files.length ? files : ["test/fuzz"])], {
  stdio: "inherit",
  env: { ...process.env, PEP_FUZZ_SEED: seed, PEP_FUZZ_RUNS: runs },
});
console.error(`fuzz: seed ${seed}, ${r.status === 0 ? "no failure" : "FAILED"} (repeat: ${again})`);
process.exit(r.status ?? 1);
