/**
 * A list written with `--file` that stops with more to come says how to go on with the
 * next part in a file of its own: following `to continue:` never replaces the first
 * part. Off a terminal the line stays one line, as scripts read it.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { nextFileName } from "../../src/cli/resume.js";
import { scratch } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const cli = useSandboxCli();

describe("to continue after --file", () => {
  it("names the next file of a series, in the same folder, with the same extension", () => {
    expect(nextFileName("refs.bib")).toBe("refs-2.bib");
    expect(nextFileName("refs-2.bib")).toBe("refs-3.bib");
    expect(nextFileName("out/studies.csl.json")).toBe("out/studies-2.csl.json");
    expect(nextFileName("list")).toBe("list-2");
    expect(nextFileName("./.hidden.json")).toBe("./.hidden-2.json");
  });

  it("following it writes the second part beside the first, which stays as it was", async () => {
    const tmp = scratch("pep-continue-file-");
    try {
      const first = path.join(tmp.dir, "part.json");
      const r = await cli.pep(["studies", "list", "--limit", "3", "--file", first]);
      expect(r.code, r.err).toBe(0);
      const line = r.err.split("\n").find((l) => l.startsWith("to continue: "))!;
      const second = path.join(tmp.dir, "part-2.json");
      expect(line).toContain(`--file ${second}`);
      const before = readFileSync(first, "utf8");
      const cursor = /--cursor=(\S+)/.exec(line)![1]!;
      const next = await cli.pep(["studies", "list", "--limit", "3", "--file", second, `--cursor=${cursor}`]);
      expect(next.code, next.err).toBe(0);
      expect(readFileSync(first, "utf8")).toBe(before);
      expect(existsSync(second)).toBe(true);
      const ids = (f: string) => (JSON.parse(readFileSync(f, "utf8")) as Array<{ id: string }>).map((s) => s.id);
      expect(ids(second).some((id) => ids(first).includes(id))).toBe(false);
    } finally {
      tmp.cleanup();
    }
  });
});
