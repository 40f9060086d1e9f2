/** `discardSync()`: what a second Ctrl-C runs before the process exits at once. */
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAtomicFile } from "../../src/output/file.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pep-discard-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("discardSync", () => {
  it("removes the temp file at once, synchronously, and leaves the old target as it was", async () => {
    const target = path.join(dir, "out.csv");
    await writeFile(target, "old\n");
    const file = await openAtomicFile(target);
    await new Promise<void>((resolve) => file.stream.write("id\r\nhalf", () => resolve()));
    expect(await readdir(dir)).toHaveLength(2);
    file.discardSync();
    // No await between the call and the check: the file is gone before any event-loop turn.
    expect((await readdir(dir)).sort()).toEqual(["out.csv"]);
    expect(await readFile(target, "utf8")).toBe("old\n");
  });

  it("after a commit, does nothing to the written target", async () => {
    const target = path.join(dir, "out.csv");
    const file = await openAtomicFile(target);
    file.stream.write("id\r\n1\r\n");
    await file.commit();
    file.discardSync();
    expect(await readFile(target, "utf8")).toBe("id\r\n1\r\n");
    expect(await readdir(dir)).toEqual(["out.csv"]);
  });
});
