/**
 * Whose compiled code bin/code-cache.js loads: only folders and files of this user's that
 * no one else can write, never through a link, with the folders it makes 0700 and its files
 * 0600. Through the real executable, on the machine's Node only: these are checks of modes
 * and owners, the same on every release. What depends on the release (that V8 runs a
 * forged cache of the bundle's length, Node's own compile cache) is in code-cache.test.ts.
 */
import { execFileSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { isBuilt } from "../helpers/cli.js";
import { cacheRuns, isRoot, traced, useScratch } from "../helpers/code-cache.js";
import { useLoopback } from "../helpers/suite.js";

describe.skipIf(!isBuilt() || process.getuid === undefined)(
  `whose compiled code it loads: only folders and files of this user's that no one else can write (${process.version})`,
  () => {
    const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-code-cache-owner-");
    const { folder, run, forgedCache, ranTheBundle, cacheFiles } = cacheRuns(suite);

    for (const level of ["the cache folder", "code-cache/", "the build's folder"] as const) {
      for (const [who, bits] of [
        ["its group", 0o020],
        ["others", 0o002],
      ] as const) {
        it(`${level} writable by ${who}: nothing is read or written there, NODE_DEBUG says why`, async () => {
          const { dir } = await forgedCache();
          const target = {
            "the cache folder": dir,
            "code-cache/": path.join(dir, "code-cache"),
            "the build's folder": folder(dir),
          }[level];
          chmodSync(target, 0o700 | bits);
          const before = cacheFiles(dir);
          const r = await run(dir);
          ranTheBundle(r);
          expect(r.err).toMatch(
            new RegExp(`^PEP \\d+: code cache off: ${target} is writable by ${who} \\(mode 7[02]{2}\\)$`, "m"),
          );
          expect(traced(r.err)).toEqual({});
          expect(cacheFiles(dir)).toEqual(before);
        });
      }
    }

    it("a 0777 cache folder: the cache is off and no code-cache folder is made in it", async () => {
      const s = useScratch();
      const dir = path.join(s.dir, "open");
      mkdirSync(dir);
      chmodSync(dir, 0o777);
      const r = await run(dir);
      ranTheBundle(r);
      expect(r.err).toMatch(/^PEP \d+: code cache off: .* is writable by its group \(mode 777\)$/m);
      expect(existsSync(path.join(dir, "code-cache"))).toBe(false);
    });

    it.skipIf(!isRoot)(
      "a cache file owned by another user is refused (the bundle compiles, and the file is replaced)",
      async () => {
        const { dir } = await forgedCache();
        const file = path.join(folder(dir), "main.js.cache");
        chownSync(file, 1234, 1234);
        const r = await run(dir);
        ranTheBundle(r);
        expect(r.err).toMatch(
          new RegExp(`^PEP \\d+: code cache main\\.js: refused: ${file} is owned by uid 1234, not 0$`, "m"),
        );
        expect(traced(r.err)["main.js"]).toEqual(["none", "saved"]);
        expect(statSync(file).uid).toBe(0);
      },
    );

    it.skipIf(!isRoot)("a folder on the chain owned by another user turns the cache off", async () => {
      for (const pick of [(d: string) => d, (d: string) => path.join(d, "code-cache"), folder]) {
        const { dir } = await forgedCache();
        chownSync(pick(dir), 1234, 1234);
        const r = await run(dir);
        ranTheBundle(r);
        expect(r.err).toMatch(new RegExp(`^PEP \\d+: code cache off: ${pick(dir)} is owned by uid 1234, not 0$`, "m"));
      }
    });

    it("a cache file or folder that is a link is not followed", async () => {
      const { s, dir } = await forgedCache();
      // The forged file moved elsewhere (a safe place of this user's) and linked to.
      const elsewhere = path.join(s.dir, "elsewhere.cache");
      writeFileSync(elsewhere, readFileSync(path.join(folder(dir), "main.js.cache")), { mode: 0o600 });
      const file = path.join(folder(dir), "main.js.cache");
      execFileSync("rm", [file]);
      symlinkSync(elsewhere, file);
      const r = await run(dir);
      ranTheBundle(r);
      expect(r.err).toMatch(/^PEP \d+: code cache main\.js: refused: ELOOP$/m);
      // And code-cache/ itself a link to a folder holding the forged cache.
      const other = await forgedCache();
      const real = path.join(other.s.dir, "real-code-cache");
      execFileSync("mv", [path.join(other.dir, "code-cache"), real]);
      symlinkSync(real, path.join(other.dir, "code-cache"));
      const viaLink = await run(other.dir);
      ranTheBundle(viaLink);
      expect(viaLink.err).toMatch(/^PEP \d+: code cache off: .*code-cache is not a folder$/m);
    });

    it("the folders it makes are 0700 and its files 0600; a sticky world-writable folder above the cache folder is fine", async () => {
      const s = useScratch();
      const sticky = path.join(s.dir, "tmp");
      mkdirSync(sticky);
      chmodSync(sticky, 0o1777);
      const dir = path.join(sticky, "me", "cache");
      expect((await run(dir)).code).toBe(0);
      for (const d of [dir, path.join(dir, "code-cache"), folder(dir)]) expect(statSync(d).mode & 0o777).toBe(0o700);
      for (const n of readdirSync(folder(dir)).filter((f) => f.endsWith(".cache")))
        expect(lstatSync(path.join(folder(dir), n)).mode & 0o777).toBe(0o600);
      const again = traced((await run(dir)).err);
      expect(again["main.js"]).toEqual(["accepted"]);
    });
  },
);
