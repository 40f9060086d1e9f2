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
//
// Every other run keeps V8's compiled code of the program in Node's module compile cache
// (Node 22.1 and later), in pep's cache folder, so the next run reads it instead of
// compiling the bundle again: see useCompileCache.
"use strict";
const { fstatSync, mkdirSync, readFileSync, statSync, writeSync } = require("node:fs");
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
  useCompileCache(process.env);
  // The bundle is CommonJS (scripts/build.mjs says why); a rejection still goes below.
  Promise.resolve()
    .then(() => require("../dist/main.js").run(argv))
    .then(
      (code) => {
        process.exitCode = code;
      },
      (err) => {
        process.stderr.write(`error: unexpected failure: ${err?.message ? err.message : String(err)}\n`);
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
    // Only where the program would also render 80 columns: no COLUMNS, no terminal on stderr.
    const at80 = (process.env.COLUMNS ?? "80") === "80" && !fstatSync(2).isCharacterDevice();
    if ((words[0] === "--help" || words[0] === "-h") && at80 && !fstatSync(1).isCharacterDevice()) {
      return readFileSync(path.join(__dirname, "..", "dist", "help.txt"), "utf8");
    }
  } catch {
    // No help.txt (a build without it): the program answers.
  }
  return undefined;
}

/**
 * Turns on Node's module compile cache (`module.enableCompileCache`, Node 22.1 and later)
 * in `<pep's cache folder>/node-compile-cache`; Node keeps one subfolder per Node version
 * in it. The cache folder is the ETag cache's (src/config/store.ts, cacheDir): $PEP_CACHE_DIR,
 * else $XDG_CACHE_HOME/pep, else ~/.cache/pep. NODE_DISABLE_COMPILE_CACHE turns it off, and
 * with NODE_COMPILE_CACHE Node has already turned it on in the folder that names. A folder
 * that cannot be made or written only costs the speed-up: Node skips what it cannot write,
 * and nothing here throws.
 */
function useCompileCache(env) {
  const nodeModule = require("node:module");
  if (typeof nodeModule.enableCompileCache !== "function" || env.NODE_DISABLE_COMPILE_CACHE || env.NODE_COMPILE_CACHE)
    return;
  try {
    let base;
    if (env.PEP_CACHE_DIR) base = path.resolve(env.PEP_CACHE_DIR);
    else if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) base = path.join(env.XDG_CACHE_HOME, "pep");
    else base = path.join(require("node:os").homedir(), ".cache", "pep");
    const dir = path.join(base, "node-compile-cache");
    if (makeDirs(dir)) nodeModule.enableCompileCache(dir);
  } catch {
    // No home folder, or the cache could not start: the run goes on uncached.
  }
}

/**
 * Makes `dir` and its missing parents (mode 0700) one level at a time, as src/dirs.ts does
 * for the ETag cache: Node's recursive mkdir spins forever under a parent that exists but
 * cannot hold folders (/proc). Whether `dir` is a folder now.
 */
function makeDirs(dir) {
  const missing = [];
  for (let p = dir; ; p = path.dirname(p)) {
    try {
      if (!statSync(p).isDirectory()) return false;
      break;
    } catch (err) {
      if (err?.code !== "ENOENT" || path.dirname(p) === p) return false;
      missing.push(p);
    }
  }
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode: 0o700 });
    } catch (err) {
      if (err?.code !== "EEXIST") return false;
    }
  }
  return statSync(dir).isDirectory();
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
    if (err?.code !== "EAGAIN") throw err;
    // A non-blocking pipe that is full: the stream waits for it.
    process.stdout.on("error", () => {});
    process.stdout.write(buf.subarray(done));
  }
}
