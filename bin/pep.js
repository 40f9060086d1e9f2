#!/usr/bin/env node
// The `pep` executable: runs the bundled program and exits with its code.
//
// Two answers skip loading the program, as they are asked for by scripts and cost more
// to load than to give: a bare `--version` (`-V`) prints the package version, and a bare
// `--help` (`-h`) on a pipe prints dist/help.txt, the top-level help that the build
// renders at commander's pipe width. On a terminal, help wraps to its width, so it runs
// the program (as it does for any character device: node:tty would cost more to load).
//
// This file is CommonJS (bin/package.json says so): Node loads a CommonJS entry about
// 5 ms faster than an ES module one, which is most of what a quick answer costs.
"use strict";
const { fstatSync, readFileSync, writeSync } = require("node:fs");
const path = require("node:path");

const argv = process.argv.slice(2);
const fast = quickAnswer(argv);
if (fast !== undefined) {
  print(fast);
} else {
  // undici parses HTTP with a WebAssembly build of llhttp. V8's optimizing tier compiles
  // it on background threads that the process waits for at exit: 70 ms or more added to
  // a one-request run. The baseline tier alone is fast enough for what pep parses. Set
  // before anything compiles WebAssembly; pep runs no other.
  require("node:v8").setFlagsFromString("--liftoff-only");
  import("../dist/main.js")
    .then(({ run }) => run(argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err) => {
        process.stderr.write(`error: unexpected failure: ${err && err.message ? err.message : String(err)}\n`);
        process.exitCode = 1;
      },
    );
}

function quickAnswer(words) {
  if (words.length !== 1) return undefined;
  try {
    if (words[0] === "--version" || words[0] === "-V") {
      return `${JSON.parse(readFileSync(path.join(__dirname, "..", "package.json"), "utf8")).version}\n`;
    }
    if ((words[0] === "--help" || words[0] === "-h") && !fstatSync(1).isCharacterDevice()) {
      return readFileSync(path.join(__dirname, "..", "dist", "help.txt"), "utf8");
    }
  } catch {
    // No help.txt (a build without it): the program answers.
  }
  return undefined;
}

/** Writes to fd 1 directly: setting up process.stdout costs more than the answer. */
function print(text) {
  const buf = Buffer.from(text);
  let done = 0;
  try {
    while (done < buf.length) done += writeSync(1, buf, done);
  } catch (err) {
    // A reader that went away (`pep --help | head -1`) ends the run quietly.
    if (err && err.code === "EPIPE") return;
    if (!err || err.code !== "EAGAIN") throw err;
    // A non-blocking pipe that is full: the stream waits for it.
    process.stdout.on("error", () => {});
    process.stdout.write(buf.subarray(done));
  }
}
