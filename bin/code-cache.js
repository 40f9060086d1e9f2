// V8's code cache for pep's own bundle (dist/), taken at the end of a run.
//
// Node's module compile cache (bin/pep.js, useCompileCache) saves a file's code as it was
// compiled, before it ran. V8 compiles most functions only when they are first called, so
// that cache holds little more than each file's top level: the module bodies of undici,
// commander and zod, and every function a run calls, were compiled again on every run
// (about 20 ms of a list run on Node 24, more on Node 20, which has no compile cache).
// Here each file of the bundle is compiled through node:vm with the code saved by an
// earlier run, and at exit V8's `createCachedData()` saves it again with every function
// the run compiled. Only files under dist/ are handled; every other file goes to Node.
//
// The folder is <pep's cache folder>/code-cache/<Node version>-<arch>-<build id>, the build
// id being a hash of the bundle (dist/build-id, written by scripts/build.mjs), so a saved
// file can only ever meet the code it was made from: V8 itself checks no more than a
// source's length. A new build or Node version starts a folder of its own, and a save
// removes the folders of other builds for the same Node.
//
// Whose files: V8 runs what a cache file holds after checking no more than the source's
// length, so a cache file is code, with the API key in reach. As ssh does with its own
// files, compiled code is read from and written to a folder only when every folder from
// pep's cache folder (its real path) down to it, and each file, is owned by the user
// running pep and writable by no one else (no group or other write bit), checked with
// lstat and fstat (a link is refused, and no file is opened through one). Anything else
// turns the cache off for the run, NODE_DEBUG=pep saying why. The folders above the cache
// folder are not checked, as pep trusts them for its config and ETag cache alike. Where
// there are no user ids (Windows) there is no owner to check, and the cache stays off.
//
// What this relies on of Node's private loader (Module.prototype._compile, Module.wrap),
// what it buys, and the tests that fail when either changes: docs/startup.md.
//
// When to save: V8 rejects a cache made under other flags or by another V8, and a file
// with no cache or a rejected one is saved at exit. A run of a command not seen before in
// this folder saves every file it loaded: a saved file keeps the code the cache it was
// loaded with held, plus what this run compiled, so each command is folded in once, and
// later runs of any command only read. Nothing here ever fails a run: a folder that cannot
// be made, read or written costs the speed-up and nothing else.
"use strict";
const fs = require("node:fs");
const path = require("node:path");
// node:module's export is the loader's Module class, which every CommonJS module object is
// an instance of: taken from there, without loading node:module and the source map
// support it brings (node:module adds enableCompileCache to the class when it loads).
const Module = module.constructor;

/** At most this many commands are folded in per folder; later ones only read. */
const MAX_SEEN = 64;

/** The user whose folders are trusted: undefined where there are no user ids (Windows). */
const UID = typeof process.getuid === "function" ? process.getuid() : undefined;

/**
 * pep's cache folder, the ETag cache's (src/config/store.ts, cacheDir): $PEP_CACHE_DIR,
 * else $XDG_CACHE_HOME/pep, else ~/.cache/pep. Undefined when there is no home folder.
 */
function cacheBase(env) {
  if (env.PEP_CACHE_DIR) return path.resolve(env.PEP_CACHE_DIR);
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, "pep");
  try {
    return path.join(require("node:os").homedir(), ".cache", "pep");
  } catch {
    return undefined;
  }
}

/**
 * Node's module compile cache (`module.enableCompileCache`, Node 22.1 and later) in
 * `<base>/node-compile-cache`, for the files that useCodeCache leaves to Node (those
 * outside the bundle, such as jq-wasm); Node keeps one subfolder per Node version in it.
 * Returns the function that turns it on, once: node:module (which also brings the source
 * map support) is loaded only when a file outside the bundle is about to be compiled.
 */
function useCompileCache(base, trace) {
  let started = false;
  return () => {
    if (started) return;
    started = true;
    try {
      const nodeModule = require("node:module");
      if (typeof nodeModule.enableCompileCache !== "function") return;
      if (!makeFolder(path.join(base, "node-compile-cache"))) return;
      const where = trusted(base, ["node-compile-cache"]);
      const dir = path.join(where.base ?? base, "node-compile-cache");
      // Node keeps a folder per Node version in it, each holding one file per module.
      const why = where.why ?? untrustedBelow(dir, 2);
      if (why !== undefined) {
        if (trace) trace(`off for Node's compile cache: ${why}`);
        return;
      }
      nodeModule.enableCompileCache(dir);
    } catch {
      // The cache could not start: the run goes on uncached.
    }
  };
}

/**
 * Where compiled code may be kept below the cache folder `base`, in the folder `names`
 * (["code-cache", "<build>"]): `{ base }`, the real path of `base` to use from now on
 * (so no link can be swapped under the run), when it and each folder below it are
 * folders (not links) owned by this user and writable by no one else, or when one does
 * not exist yet (the check stops there: nothing below it can be read); else `{ why }`.
 */
function trusted(base, names) {
  if (UID === undefined) return { why: "no owner to check on this system" };
  let real;
  try {
    real = fs.realpathSync.native(base);
  } catch (err) {
    return err?.code === "ENOENT" ? { base } : { why: `${base}: ${err?.code ?? "cannot be read"}` };
  }
  for (let i = 0, dir = real; ; dir = path.join(dir, names[i++])) {
    let st;
    try {
      st = fs.lstatSync(dir);
    } catch (err) {
      return err?.code === "ENOENT" ? { base: real } : { why: `${dir}: ${err?.code ?? "cannot be read"}` };
    }
    const why = unsafeEntry(st, true);
    if (why !== undefined) return { why: `${dir} ${why}` };
    if (i === names.length) return { base: real };
  }
}

/** The same for every entry below `dir`, `depth` levels down (each folder and file). */
function untrustedBelow(dir, depth) {
  let entries;
  try {
    entries = fs.readdirSync(dir);
  } catch {
    return undefined;
  }
  for (const name of entries) {
    const p = path.join(dir, name);
    let st;
    try {
      st = fs.lstatSync(p);
    } catch {
      continue;
    }
    const why = unsafeEntry(st, st.isDirectory());
    if (why !== undefined) return `${p} ${why}`;
    if (st.isDirectory() && depth > 1) {
      const below = untrustedBelow(p, depth - 1);
      if (below !== undefined) return below;
    }
  }
  return undefined;
}

/** What is wrong with a folder's or file's stat for holding compiled code, if anything. */
function unsafeEntry(st, folder) {
  if (folder ? !st.isDirectory() : !st.isFile()) return folder ? "is not a folder" : "is not a plain file";
  if (st.uid !== UID) return `is owned by uid ${st.uid}, not ${UID}`;
  if ((st.mode & 0o022) !== 0)
    return `is writable by ${st.mode & 0o020 ? "its group" : "others"} (mode ${(st.mode & 0o7777).toString(8)})`;
  return undefined;
}

/**
 * Compiles the files under `dist` (an absolute folder) with V8's code cache in
 * `<base>/code-cache/…`, from now on in this process. `commandOf()` is called at exit and
 * names the command the run was (a short string), or undefined when it cannot tell.
 * `trace(line)`, when given, is told what happens to each file. Returns whether the cache
 * is in use.
 */
function useCodeCache({ dist, base, commandOf, beforeOthers, trace }) {
  let buildId;
  try {
    buildId = fs.readFileSync(path.join(dist, "build-id"), "utf8").trim();
  } catch {
    return false;
  }
  if (!/^[0-9a-f]{8,64}$/.test(buildId)) return false;
  const prefix = `${process.version}-${process.arch}-`;
  const names = ["code-cache", prefix + buildId];
  const where = trusted(base, names);
  if (where.why !== undefined) {
    if (trace) trace(`off: ${where.why}`);
    return false;
  }
  const vm = require("node:vm");
  const dirOf = (b) => path.join(b, "code-cache", prefix + buildId);
  const dir = dirOf(where.base);
  const prefixOfDist = dist.endsWith(path.sep) ? dist : dist + path.sep;
  /** Scripts compiled in this run: { script, name (of its cache file), save } */
  const compiled = [];
  const compile = Module.prototype._compile;

  Module.prototype._compile = function compileWithCache(content, filename, ...rest) {
    if (typeof filename !== "string" || !filename.startsWith(prefixOfDist) || !filename.endsWith(".js")) {
      if (beforeOthers) beforeOthers();
      return compile.call(this, content, filename, ...rest);
    }
    const name = `${path.basename(filename)}.cache`;
    const cachedData = readTrusted(path.join(dir, name), trace);
    // No import() in the bundle (scripts/build.mjs turns it into require()): a script
    // compiled here could only run one behind an experimental flag.
    const script = new vm.Script(Module.wrap(content), { filename, cachedData });
    const fresh = cachedData === undefined || script.cachedDataRejected === true;
    if (trace)
      trace(`${path.basename(filename)}: ${cachedData === undefined ? "none" : fresh ? "rejected" : "accepted"}`);
    compiled.push({ script, name, save: fresh });
    const wrapper = script.runInThisContext({ displayErrors: true });
    return wrapper.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename));
  };

  process.once("exit", () => {
    if (compiled.length === 0) return;
    let seen;
    try {
      const command = commandOf();
      // `pep cache clear` has just removed the compiled code: it leaves none behind.
      if (command === "cache clear") return;
      if (typeof command === "string" && /^[a-z][a-z0-9 -]{0,60}$/.test(command)) {
        const marker = `${command.replace(/ /g, "_")}.seen`;
        if (!fs.existsSync(path.join(dir, marker)) && countSeen(dir) < MAX_SEEN) seen = marker;
      }
    } catch {
      // No name for the run: only files without a cache are saved.
    }
    const toSave = compiled.filter((c) => seen !== undefined || c.save);
    if (toSave.length === 0) return;
    if (!makeFolder(dir)) return;
    // Made now (mode 0700) or there before: written only where no one else can change it.
    const now = trusted(base, names);
    if (now.why !== undefined) {
      if (trace) trace(`not saved: ${now.why}`);
      return;
    }
    const into = dirOf(now.base);
    pruneOtherBuilds(path.dirname(into), into, prefix);
    for (const c of toSave) {
      try {
        writeAtomically(path.join(into, c.name), c.script.createCachedData());
        if (trace) trace(`${path.basename(c.name, ".cache")}: saved`);
      } catch {
        // A full disk or a read-only folder: the next run compiles again.
      }
    }
    if (seen !== undefined) {
      try {
        fs.writeFileSync(path.join(into, seen), "");
      } catch {
        // Saved again by a later run of the same command.
      }
    }
  });
  return true;
}

/**
 * A cache file's bytes, when it is a plain file of this user's that no one else can
 * write (checked on the open file, which was not reached through a link); else undefined.
 */
function readTrusted(file, trace) {
  let fd;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0));
  } catch (err) {
    if (err?.code !== "ENOENT" && trace) trace(`${path.basename(file, ".cache")}: refused: ${err?.code}`);
    return undefined;
  }
  try {
    const why = unsafeEntry(fs.fstatSync(fd), false);
    if (why !== undefined) {
      if (trace) trace(`${path.basename(file, ".cache")}: refused: ${file} ${why}`);
      return undefined;
    }
    return fs.readFileSync(fd);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * `require` for a module compiled here: the module's own `require`, which is all the
 * bundle calls. Node's also carries resolve, main, cache and extensions, which it reads
 * off the loader's private functions; the bundle uses none of them, and
 * test/shell/code-cache.test.ts fails if it starts to.
 */
function requireFor(mod) {
  return (id) => mod.require(id);
}

function countSeen(dir) {
  try {
    return fs.readdirSync(dir).filter((n) => n.endsWith(".seen")).length;
  } catch {
    return 0;
  }
}

/**
 * Makes `dir` and its missing parents (mode 0700) one level at a time: Node's recursive
 * mkdir spins forever under a parent that exists but cannot hold folders (/proc). Whether
 * `dir` is a folder now.
 */
function makeFolder(dir) {
  const missing = [];
  for (let p = dir; ; p = path.dirname(p)) {
    try {
      if (!fs.statSync(p).isDirectory()) return false;
      break;
    } catch (err) {
      if (err?.code !== "ENOENT" || path.dirname(p) === p) return false;
      missing.push(p);
    }
  }
  for (const d of missing.reverse()) {
    try {
      fs.mkdirSync(d, { mode: 0o700 });
    } catch (err) {
      if (err?.code !== "EEXIST") return false;
    }
  }
  try {
    return fs.statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** Removes the folders of other builds for the same Node and arch beside `dir`. */
function pruneOtherBuilds(root, dir, prefix) {
  try {
    for (const name of fs.readdirSync(root))
      if (name.startsWith(prefix) && path.join(root, name) !== dir)
        fs.rmSync(path.join(root, name), { recursive: true, force: true });
  } catch {
    // Left for a later run to remove.
  }
}

/** Writes beside `file` and renames over it, so a reader never meets half a cache. */
function writeAtomically(file, data) {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    fs.writeFileSync(tmp, data, { mode: 0o600 });
    fs.renameSync(tmp, file);
  } catch (err) {
    try {
      fs.unlinkSync(tmp);
    } catch {
      // Never written.
    }
    throw err;
  }
}

module.exports = { cacheBase, useCodeCache, useCompileCache };
