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
// Every other run keeps V8's compiled code of the program in pep's cache folder, so the
// next run reads it instead of compiling the bundle again: bin/code-cache.js.
"use strict";
const { fstatSync, readFileSync, writeSync } = require("node:fs");
const path = require("node:path");

const argv = process.argv.slice(2);
const fast = quickAnswer(argv);
if (fast !== undefined) {
  print(fast);
} else {
  // `pep sql` on a SQLite library runs its query in a process of its own: started now,
  // its Node starts while the program loads (dist/sql-early.js, src/cli/sql-early.ts).
  // NODE_DEBUG=pep says on stderr whether it was started.
  if (commandWord(argv) === "sql") {
    try {
      const pid = require("../dist/sql-early.js").startSqlEarly(argv, process.env);
      if (/(^|,)\s*pep\s*(,|$)/i.test(process.env.NODE_DEBUG ?? ""))
        process.stderr.write(`PEP ${process.pid}: sql early start ${pid ? `started, process ${pid}` : "not taken"}\n`);
    } catch {
      // No early start (a build without it): the program starts the process itself.
    }
  }
  let main;
  // pep mcp's quick start answers first, with neither of the two below: it compiles no
  // WebAssembly, and its bundle loads no faster from the code cache than without it, as
  // measured (docs/mcp.md#start-up), while setting the caches up costs its answers time.
  // The bundle is CommonJS (scripts/build.mjs says why); a rejection still goes below.
  quickMcp(argv)
    .then(() => {
      // undici parses HTTP with a WebAssembly build of llhttp. V8's optimizing tier compiles
      // it on background threads that the process waits for at exit: 70 ms or more added to
      // a one-request run. The baseline tier alone is fast enough for what pep parses. Set
      // before anything compiles WebAssembly (pep runs no other), and before the code
      // cache is read, as V8 takes a cache only under the flags it was made with.
      require("node:v8").setFlagsFromString("--liftoff-only");
      useCaches(process.env, () => main?.commandOf?.(argv));
      main = require("../dist/main.js");
      return main.run(argv);
    })
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
 * `pep mcp` over a pipe: a client waits for the answer to initialize, then to tools/list,
 * and loading the program costs more than Node's own start. dist/mcp-early.js
 * (src/cli/mcp-early.ts) answers both first, with the same modules the server uses and
 * the tool list the build rendered, and leaves what it read for the server; for any argv or setting it does not fully understand it reads nothing, and
 * the program runs as ever. A terminal on standard input gets the program's notice.
 * NODE_DEBUG=pep says on stderr whether the quick start was taken.
 */
function quickMcp(words) {
  if (commandWord(words) !== "mcp" || words.includes("--http") || words.includes("-h") || words.includes("--help"))
    return Promise.resolve(false);
  try {
    if (fstatSync(0).isCharacterDevice()) return Promise.resolve(false);
    const early = require("../dist/mcp-early.js");
    const io = { env: process.env, stdin: process.stdin, stdout: process.stdout, cwd: process.cwd() };
    const traced = /(^|,)\s*pep\s*(,|$)/i.test(process.env.NODE_DEBUG ?? "");
    // A client gone before the answer: the run ends quietly, as the program's would.
    const gone = (err) => {
      if (err?.code === "EPIPE") process.exit(0);
    };
    process.stdout.on("error", gone);
    return early
      .answerFirst(words, io)
      .finally(() => process.stdout.off("error", gone))
      .then(
        (taken) => {
          const said = taken ? `answered ${taken.join(", ") || "nothing"}` : "not taken";
          if (traced) process.stderr.write(`PEP ${process.pid}: mcp quick start ${said}\n`);
          return taken;
        },
        () => false,
      );
  } catch {
    return Promise.resolve(false);
  }
}

/** The first word that is neither an option nor --profile's value (the rest is checked after). */
function commandWord(words) {
  for (let i = 0; i < words.length; i++) {
    if (words[i] === "--profile") i++;
    else if (!words[i].startsWith("-")) return words[i];
  }
  return undefined;
}

/**
 * The two caches of compiled code, both in pep's cache folder (bin/code-cache.js): V8's
 * code cache for the bundle, taken at the end of a run, and Node's module compile cache
 * (Node 22.1 and later) for any other file. NODE_DISABLE_COMPILE_CACHE turns both off;
 * with NODE_COMPILE_CACHE, Node has already turned its own on in the folder that names,
 * for every file, and pep adds none. A folder that cannot be made or written only costs
 * the speed-up, and so does one that others could write (bin/code-cache.js says which).
 * NODE_DEBUG=pep traces what happens to each file of the bundle on stderr.
 */
function useCaches(env, commandOf) {
  if (env.NODE_DISABLE_COMPILE_CACHE || env.NODE_COMPILE_CACHE) return;
  try {
    const caches = require("./code-cache.js");
    const base = caches.cacheBase(env);
    if (base === undefined) return;
    const traced = /(^|,)\s*pep\s*(,|$)/i.test(env.NODE_DEBUG ?? "");
    const trace = traced ? (line) => process.stderr.write(`PEP ${process.pid}: code cache ${line}\n`) : undefined;
    const nodeCache = caches.useCompileCache(base, trace);
    const ours = caches.useCodeCache({
      dist: path.join(__dirname, "..", "dist"),
      base,
      commandOf,
      beforeOthers: nodeCache,
      trace,
    });
    if (!ours) nodeCache();
  } catch {
    // The run goes on uncached.
  }
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
