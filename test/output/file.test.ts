import { mkdtemp, readdir, readFile, rm, stat, writeFile, chmod } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { openAtomicFile } from "../../src/output/file.js";
import { render } from "../../src/output/render.js";
import { capture, list } from "./helpers.js";
import { offers } from "./fixtures.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "pep-file-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("openAtomicFile", () => {
  it("commit writes the whole output to the target and leaves no temp file", async () => {
    const target = path.join(dir, "offers.csv");
    const file = await openAtomicFile(target);
    await render(list("offer", offers), {
      format: "csv",
      out: file.stream,
      outIsTTY: false,
      columns: 80,
      color: false,
      hyperlinks: false,
      stderr: capture().stream,
      stderrIsTTY: false,
      quiet: false,
    });
    // Nothing at the target until commit.
    await expect(stat(target)).rejects.toMatchObject({ code: "ENOENT" });
    await file.commit();
    const text = await readFile(target, "utf8");
    expect(text).toContain("1000000.00000001");
    expect(text.split("\r\n")).toHaveLength(offers.length + 2);
    expect(await readdir(dir)).toEqual(["offers.csv"]);
    // A new file gets 0666 less the umask (0644 with the usual umask).
    const umask = process.umask();
    expect((await stat(target)).mode & 0o777).toBe(0o666 & ~umask);
  });

  it("abort leaves an existing target untouched and removes the temp file", async () => {
    const target = path.join(dir, "out.json");
    await writeFile(target, "old content\n");
    const file = await openAtomicFile(target);
    file.stream.write('[\n  {"half": ');
    expect((await readdir(dir)).length).toBe(2);
    await file.abort();
    expect(await readFile(target, "utf8")).toBe("old content\n");
    expect(await readdir(dir)).toEqual(["out.json"]);
  });

  it("keeps the mode of a file it replaces", async () => {
    const target = path.join(dir, "private.json");
    await writeFile(target, "x");
    await chmod(target, 0o600);
    const file = await openAtomicFile(target);
    file.stream.write("new\n");
    await file.commit();
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    expect(await readFile(target, "utf8")).toBe("new\n");
  });

  it("refuses a folder that does not exist, writing nothing", async () => {
    await expect(openAtomicFile(path.join(dir, "missing", "x.csv"))).rejects.toThrow(
      /--file: the folder .*missing does not exist/,
    );
    expect(await readdir(dir)).toEqual([]);
  });
});
