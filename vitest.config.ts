import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as { version: string };

export default defineConfig({
  define: { __PEP_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ["test/**/*.test.ts"],
    // dist/ built from the current sources before any file runs (reused when up to date),
    // for the tests that spawn bin/pep.js.
    globalSetup: ["test/global-setup.ts"],
    // Bounds that catch a hang, not a speed to hold: a test that spawns pep several times
    // took over 20 s at a load average of 25 on the 2-core machine (code-cache, packaging,
    // secrets-files on Node 22), and a test must not fail because the machine is busy.
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: "forks",
    // One worker more than the cores: the files wait on the processes, servers and
    // terminals they start, and the extra worker keeps the cores busy meanwhile (on the
    // 2-core machine the suite took 102 s with 3 workers, 119 s with 2, the same CPU).
    // PEP_TEST_WORKERS sets it.
    maxWorkers: Number(process.env.PEP_TEST_WORKERS) || availableParallelism() + 1,
    // Test files share a worker's modules instead of each loading the program anew: most
    // files run pep in-process, and importing it per file was a third of the suite's time
    // (measured on this shared 2-core machine: isolated 4m19s wall, 1m54s CPU, 81 s of
    // imports; shared 2m28s wall, 53 s CPU, 24 s of imports).
    // What a run keeps is per run (src/cli/main.ts); no test mocks a module, and a stubbed
    // environment variable is restored before its test ends.
    isolate: false,
  },
});
