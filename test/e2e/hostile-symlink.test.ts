/**
 * `--file` into a sticky folder everyone can write (as /tmp), where another user left a
 * symbolic link: pep applies the kernel's protected_symlinks rule itself and follows a
 * link there only when it belongs to the user or to the folder's owner. Anyone else's
 * link is refused before any request (exit 1, as for output that cannot be written),
 * whatever it points at, and the file behind it is left as it was. Runs as root, other
 * owners made with `lchown 1234`; in-process against the sandbox.
 */
import { chmodSync, existsSync, lchownSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
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
  expect(r.err).toContain(`not following the symbolic link ${link}`);
  expect(r.err).toMatch(/belongs to uid 1234/);
  expect(r.err).toMatch(/protected_symlinks/);
}

describe.runIf(isRoot)("another user's link in a sticky folder everyone can write", () => {
  it("pointing at an existing file of yours: refused, the file left as it was", async () => {
    const link = path.join(shared, "out.ndjson");
    symlinkSync(victim, link);
    lchownSync(link, 1234, 1234);
    expectRefused(await write(link), link);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });

  it("dangling, naming a file that does not exist yet: refused, nothing created", async () => {
    const link = path.join(shared, "out.ndjson");
    const planted = path.join(sb.dir, `planted-${n}.ndjson`);
    symlinkSync(planted, link);
    lchownSync(link, 1234, 1234);
    expectRefused(await write(link), link);
    expect(existsSync(planted)).toBe(false);
  });

  it("reached through your own link elsewhere: refused at the link that is not yours", async () => {
    const evil = path.join(shared, "out.ndjson");
    symlinkSync(victim, evil);
    lchownSync(evil, 1234, 1234);
    const mine = path.join(sb.dir, `mine-${n}.ndjson`);
    symlinkSync(evil, mine);
    expectRefused(await write(mine), evil);
    expect(readFileSync(victim, "utf8")).toBe("precious\n");
  });

  it("a link to a folder, in the path: refused", async () => {
    const folderLink = path.join(shared, "dir");
    symlinkSync(sb.dir, folderLink);
    lchownSync(folderLink, 1234, 1234);
    const target = path.join(folderLink, `victim-${n}.txt`);
    expectRefused(await write(target, "json"), folderLink);
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
    expect(o.error.message).toContain("not following the symbolic link");
  });
});

describe.runIf(isRoot)("links that are followed as before", () => {
  it("your own link in the sticky folder", async () => {
    const link = path.join(shared, "out.ndjson");
    symlinkSync(victim, link);
    const r = await write(link);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(victim, "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("a link of the folder's owner", async () => {
    const owned = path.join(sb.dir, `owned-${n}`);
    mkdirSync(owned);
    chmodSync(owned, 0o1777);
    // the folder belongs to 1234, and so does the link
    const { chownSync } = await import("node:fs");
    chownSync(owned, 1234, 1234);
    const link = path.join(owned, "out.ndjson");
    symlinkSync(victim, link);
    lchownSync(link, 1234, 1234);
    const r = await write(link);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(victim, "utf8").trim().split("\n")).toHaveLength(2);
  });

  it("another user's link in a folder that is not world-writable", async () => {
    const plain = path.join(sb.dir, `plain-${n}`);
    mkdirSync(plain);
    chmodSync(plain, 0o755);
    const link = path.join(plain, "out.ndjson");
    symlinkSync(victim, link);
    lchownSync(link, 1234, 1234);
    const r = await write(link);
    expect(r.code, r.err).toBe(0);
  });
});
