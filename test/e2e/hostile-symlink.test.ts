/**
 * `--file` into a sticky folder everyone can write (as /tmp), where another user left a
 * symbolic link: pep never follows a link at the name (it renames its file onto the name,
 * which replaces a link), refuses to replace another user's name there, and follows a
 * link among the folders only when it belongs to the user or to the folder's owner (the
 * kernel's protected_symlinks rule). Refusals come before any request (exit 1, as for
 * output that cannot be written) and the file behind a link is never changed, also
 * while another user's process toggles the link. Runs as root, other owners made with
 * `lchown 1234` and a process run as uid 1234; in-process against the sandbox.
 */
import { spawn } from "node:child_process";
import {
  chmodSync,
  chownSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import { beforeEach, describe, expect, it } from "vitest";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const sb = useSandboxCli();
const isRoot = process.getuid?.() === 0;
let n = 0;
let shared: string;
let victim: string;

beforeEach(() => {
  n++;
  shared = path.join(sb.dir, `shared-${n}`);
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  victim = path.join(sb.dir, `victim-${n}.txt`);
  writeFileSync(victim, "precious\n");
});

const write = (file: string, format = "ndjson") =>
  sb.pep(["studies", "list", "--limit", "2", "-o", format, "--file", file]);

function expectRefused(r: { code: number; err: string; sent: number }, link: string): void {
  expect(r.code, r.err).toBe(1);
  expect(r.sent).toBe(0);
  expect(r.err).toContain(`not replacing ${link}: it belongs to uid 1234`);
  expect(r.err).toMatch(/sticky folder everyone can write/);
}

describe.runIf(isRoot)("another user's link in a sticky folder everyone can write", () => {
  it("pointing at an existing file of yours: refused, the file left as it was", async () => {
    const link = path.join(shared, "out.ndjson");
    symlinkSync(victim, link);
    lchownSync(link, 1234, 1234);
    expectRefused(await write(link), link);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
  });

  it("dangling, naming a file that does not exist yet: refused, nothing created", async () => {
    const link = path.join(shared, "out.ndjson");
    const planted = path.join(sb.dir, `planted-${n}.ndjson`);
    symlinkSync(planted, link);
    lchownSync(link, 1234, 1234);
    expectRefused(await write(link), link);
    expect(existsSync(planted)).toBe(false);
  });

  it("reached through your own link elsewhere: your link is replaced, theirs and the file left", async () => {
    const evil = path.join(shared, "out.ndjson");
    symlinkSync(victim, evil);
    lchownSync(evil, 1234, 1234);
    const mine = path.join(sb.dir, `mine-${n}.ndjson`);
    symlinkSync(evil, mine);
    const r = await write(mine);
    expect(r.code, r.err).toBe(0);
    expect(lstatSync(mine).isFile()).toBe(true);
    expect(lstatSync(evil).isSymbolicLink()).toBe(true);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });

  it("a link to a folder, in the path: refused", async () => {
    const folderLink = path.join(shared, "dir");
    symlinkSync(sb.dir, folderLink);
    lchownSync(folderLink, 1234, 1234);
    const target = path.join(folderLink, `victim-${n}.txt`);
    const r = await write(target, "json");
    expect(r.code, r.err).toBe(1);
    expect(r.sent).toBe(0);
    expect(r.err).toContain(`not following the symbolic link ${folderLink}`);
    expect(r.err).toMatch(/protected_symlinks/);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });

  it("JSON errors say the same, as a permission problem", async () => {
    const link = path.join(shared, "out.json");
    symlinkSync(victim, link);
    lchownSync(link, 1234, 1234);
    const r = await write(link, "json");
    expect(r.code).toBe(1);
    const o = JSON.parse(r.err.trim()) as { error: { code: string; message: string } };
    expect(o.error.code).toBe("permission_denied");
    expect(o.error.message).toContain("not replacing");
  });
});

describe.runIf(isRoot)("a link at the name is replaced, never followed", () => {
  const expectReplaced = async (link: string) => {
    const r = await write(link);
    expect(r.code, r.err).toBe(0);
    expect(lstatSync(link).isFile()).toBe(true);
    expect(readFileSync(link, "utf8").trim().split("\n")).toHaveLength(2);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  };

  it("your own link in the sticky folder", async () => {
    const link = path.join(shared, "out.ndjson");
    symlinkSync(victim, link);
    await expectReplaced(link);
  });

  it("a link of the folder's owner", async () => {
    const owned = path.join(sb.dir, `owned-${n}`);
    mkdirSync(owned);
    chmodSync(owned, 0o1777);
    // the folder belongs to 1234, and so does the link
    chownSync(owned, 1234, 1234);
    const link = path.join(owned, "out.ndjson");
    symlinkSync(victim, link);
    lchownSync(link, 1234, 1234);
    await expectReplaced(link);
  });

  it("another user's link in a folder that is not world-writable", async () => {
    const plain = path.join(sb.dir, `plain-${n}`);
    mkdirSync(plain);
    chmodSync(plain, 0o755);
    const link = path.join(plain, "out.ndjson");
    symlinkSync(victim, link);
    lchownSync(link, 1234, 1234);
    await expectReplaced(link);
  });
});

/**
 * Another user's process toggles a link at the name, between pointing at a 0600 file of
 * the user's and not being there, while the user exports to that name 200 times: the
 * file behind the link never changes, whichever moment each run meets (a run that sees
 * the link refuses it; one that does not replaces whatever is at the name by then).
 */
const TOGGLER = `
const fs = require("node:fs");
const [link, victim] = process.argv.slice(1);
const hold = () => { const until = performance.now() + Math.random() * 2; while (performance.now() < until); };
let told = false;
for (;;) {
  try {
    fs.symlinkSync(victim, link);
    if (!told) told = process.stdout.write("linked\\n");
  } catch {}
  hold();
  try { fs.unlinkSync(link); } catch {}
  hold();
}
`;

describe.runIf(isRoot)("a link toggled by another user during 200 exports", () => {
  it("never changes the file behind it", async () => {
    chmodSync(victim, 0o600);
    const link = path.join(shared, "race.csv");
    // The other user must reach the shared folder: the scratch folder above it is 0700.
    chmodSync(sb.dir, 0o711);
    const toggler = spawn(process.execPath, ["-e", TOGGLER, link, victim], {
      uid: 1234,
      gid: 1234,
      stdio: ["ignore", "pipe", "inherit"],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        toggler.stdout.once("data", () => resolve());
        toggler.once("exit", (code) => reject(new Error(`the toggling process ended (${code})`)));
      });
      const codes = new Map<number, number>();
      for (let i = 0; i < 200; i++) {
        const r = await sb.pep(["studies", "list", "--limit", "1", "-o", "csv", "--file", link]);
        codes.set(r.code, (codes.get(r.code) ?? 0) + 1);
        expect([0, 1], r.err).toContain(r.code);
        expect(readFileSync(victim, "utf8")).toBe("precious\n");
        // The export is the user's file now, which the other user cannot replace: gone for the next run.
        if (lstatSync(link, { throwIfNoEntry: false })?.isFile()) rmSync(link);
      }
      expect([...codes.keys()].every((c) => c === 0 || c === 1)).toBe(true);
    } finally {
      toggler.kill();
    }
    expect(statSync(victim).mode & 0o777).toBe(0o600);
    expect(readdirSync(shared).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });
});
