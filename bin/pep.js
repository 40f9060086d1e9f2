#!/usr/bin/env node
// The `pep` executable: runs the bundled program and exits with its code.
import { run } from "../dist/main.js";

run(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`error: unexpected failure: ${err && err.message ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
