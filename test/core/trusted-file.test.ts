/**
 * The one rule for side files pep reads back (src/core/trusted-file.ts), on real files:
 * only the user's own plain files, writable by no one else, in a folder that passes the
 * same rule (a sticky /tmp does); created exclusive and 0600, never through a link; and
 * whether a lock's process is still the one that made it (src/core/process-alive.ts).
 */
import { spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { holderAlive, ownStartMs } from "../../src/core/process-alive.js";
import { createExclusive, openTrusted, readTrusted, writeTrusted } from "../../src/core/trusted-file.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "pep-trusted-"));
chmodSync(dir, 0o700);
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const at = (name: string) => path.join(dir, name);
const root = process.getuid?.() === 0;

describe("reading a side file", () => {
  it("the user's own plain file is read; a missing one is undefined", () => {
    writeFileSync(at("ok"), "text", { mode: 0o600 });
    expect(readTrusted(at("ok"))).toEqual({ text: "text" });
    expect(readTrusted(at("missing"))).toBeUndefined();
  });

  it("a link, a named pipe, a file others can write: not read, and why", () => {
    writeFileSync(at("target"), "secret", { mode: 0o600 });
    symlinkSync(at("target"), at("link"));
    expect(readTrusted(at("link"))).toEqual({ why: "is a symbolic link" });
    spawnSync("mkfifo", [at("fifo")]);
    expect(readTrusted(at("fifo"))).toEqual({ why: "is not a plain file" });
    writeFileSync(at("open"), "x");
    chmodSync(at("open"), 0o646);
    expect(readTrusted(at("open"))).toEqual({ why: "can be written by others (mode 0646)" });
  });

  it.skipIf(!root)("another user's file, or any file in a folder others can write that is not sticky", () => {
    writeFileSync(at("theirs"), "x", { mode: 0o600 });
    chownSync(at("theirs"), 65534, 65534);
    expect(readTrusted(at("theirs"))).toEqual({ why: "belongs to uid 65534, not to you (uid 0)" });
    const open = at("openfolder");
    mkdirSync(open);
    chmodSync(open, 0o777);
    writeFileSync(path.join(open, "f"), "x", { mode: 0o600 });
    expect(readTrusted(path.join(open, "f"))).toEqual({
      why: `is in an untrusted folder (the folder ${open} can be written by others (mode 0777))`,
    });
    chmodSync(open, 0o1777);
    expect(readTrusted(path.join(open, "f"))).toEqual({ text: "x" });
  });

  it("gives the open descriptor, checked: the caller reads what was checked", () => {
    writeFileSync(at("fd"), "abc", { mode: 0o600 });
    const opened = openTrusted(at("fd"));
    expect(opened && "fd" in opened && opened.stat.size).toBe(3);
  });
});

describe("creating a side file", () => {
  it("exclusive, 0600 whatever the umask; a name taken (a planted link) fails, its target untouched", () => {
    const old = process.umask(0);
    try {
      writeTrusted(at("state.json"), "{}\n");
    } finally {
      process.umask(old);
    }
    expect(statSync(at("state.json")).mode & 0o777).toBe(0o600);
    writeFileSync(at("victim"), "precious");
    symlinkSync(at("victim"), at("planted"));
    expect(() => createExclusive(at("planted"))).toThrow(/EEXIST/);
    // A replacement renames over the link: the link goes, the file it named stays.
    writeTrusted(at("planted"), "new");
    expect(readFileSync(at("victim"), "utf8")).toBe("precious");
    expect(readFileSync(at("planted"), "utf8")).toBe("new");
  });
});

describe.skipIf(!ownStartMs())("whether a lock's process is alive", () => {
  it("this process, and one started before the lock: alive; gone, or younger than the lock: not", async () => {
    expect(holderAlive(process.pid, Date.now())).toBe(true);
    const child = spawn("sleep", ["30"], { stdio: "ignore" });
    try {
      await new Promise((r) => setTimeout(r, 50));
      expect(holderAlive(child.pid!, Date.now())).toBe(true);
      // A lock made a minute before this process started: the id was reused.
      expect(holderAlive(child.pid!, Date.now() - 60_000)).toBe(false);
    } finally {
      child.kill("SIGKILL");
    }
    await new Promise((r) => child.once("exit", r));
    await new Promise((r) => setTimeout(r, 50));
    expect(holderAlive(child.pid!, Date.now())).toBe(false);
    expect(holderAlive(0, Date.now())).toBe(false);
  });
});
