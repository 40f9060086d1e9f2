/**
 * A library only its owner can write. SQLite opens `-wal`, `-journal` and `-shm` beside
 * the library by name, and pep its sync lock: before anything is opened, each of them
 * must be the user's own plain file that no one else can write, the library's folder
 * must be writable by its owner alone (a sticky folder such as /tmp is no exception) and
 * every folder above it the user's or root's. A planted file is refused by name and the
 * library is left as it was. Runs as root for other owners (uid 65534, chown).
 */
import { chmodSync, chownSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openLibraryAt } from "../../src/library/open.js";
import { scratch } from "../helpers/cli.js";
import { hasSqlite } from "./helpers.js";

const OTHER = 65534;
const isRoot = process.getuid?.() === 0;

let tmp: ReturnType<typeof scratch>;
let folder: string;
let file: string;
beforeEach(async () => {
  tmp = scratch("pep-lib-side-");
  folder = path.join(tmp.dir, "lib");
  mkdirSync(folder, { mode: 0o700 });
  file = path.join(folder, "lib.sqlite");
  await (await openLibraryAt({ kind: "sqlite", file }, { write: true })).close();
});
afterEach(() => tmp.cleanup());

const open = (write: boolean) => openLibraryAt({ kind: "sqlite", file }, { write });

describe.skipIf(!hasSqlite())("the library's side files", () => {
  it.runIf(isRoot).each(["-wal", "-journal", "-shm", ".lock"])(
    "a %s planted by another user at mode 0666 is refused by name, for reading and writing, the library untouched",
    async (suffix) => {
      const before = readFileSync(file);
      const planted = `${file}${suffix}`;
      writeFileSync(planted, "PWNED by mallory\n");
      chmodSync(planted, 0o666);
      chownSync(planted, OTHER, OTHER);
      for (const write of [false, true]) {
        const err = (await open(write).catch((e: unknown) => e)) as Error;
        expect(err).toBeInstanceOf(Error);
        expect(err.message).toContain(`the library file ${planted} is not safe to use`);
        expect(err.message).toMatch(new RegExp(`belongs to user ${OTHER}`));
      }
      expect(readFileSync(file)).toEqual(before);
      expect(readFileSync(planted, "utf8")).toBe("PWNED by mallory\n");
    },
  );

  it.each(["-wal", "-journal"])("a %s that is a symbolic link is refused, never followed", async (suffix) => {
    const planted = `${file}${suffix}`;
    symlinkSync(path.join(tmp.dir, "elsewhere"), planted);
    await expect(open(false)).rejects.toThrow(`the library file ${planted} is not safe to use: it is a symbolic link`);
  });
});

describe.skipIf(!hasSqlite())("the library's folder", () => {
  it("a sticky folder everyone can write (as /tmp) is no place for a library", async () => {
    const shared = path.join(tmp.dir, "shared");
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const there = path.join(shared, "lib.sqlite");
    await expect(openLibraryAt({ kind: "sqlite", file: there }, { write: true })).rejects.toThrow(
      `the library folder ${shared} is not safe to use: others can write in it (mode 1777)`,
    );
  });

  it.runIf(isRoot)("a folder above it that another user owns is refused", async () => {
    const theirs = path.join(tmp.dir, "theirs");
    mkdirSync(theirs, { mode: 0o755 });
    chownSync(theirs, OTHER, OTHER);
    const mine = path.join(theirs, "mine");
    mkdirSync(mine, { mode: 0o700 });
    await expect(
      openLibraryAt({ kind: "sqlite", file: path.join(mine, "lib.sqlite") }, { write: true }),
    ).rejects.toThrow(`the folder ${theirs} above it belongs to user ${OTHER}`);
  });

  it("a private folder of the user's, under /tmp's sticky folder, is fine", async () => {
    const lib = await open(false);
    expect(await lib.lastSync()).toBeUndefined();
    await lib.close();
  });
});
