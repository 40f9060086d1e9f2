/**
 * The README's first screen says which service pep is a client for and where its
 * documentation and developer dashboard are, in the words of the service's interface;
 * the README stays one sitting long; and the package names where pep itself lives.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const README = readFileSync(path.join(ROOT, "README.md"), "utf8");
const PACKAGE = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as Record<string, unknown>;

describe("first contact", () => {
  it("the README's first screen (24 lines) names the service, its documentation and its dashboard", () => {
    const first = README.split("\n").slice(0, 24).join("\n").replace(/\s+/g, " ");
    expect(first).toContain("Research, Study and Vendor Data Service");
    expect(first).toMatch(/documentation/i);
    expect(first).toContain("pep index");
    expect(first).toMatch(/developer dashboard/i);
  });

  it("the README is at most 350 lines", () => {
    expect(README.split("\n").length - (README.endsWith("\n") ? 1 : 0)).toBeLessThanOrEqual(350);
  });

  it("package.json names the repository, the home page and where to report a bug", () => {
    const repository = PACKAGE.repository as { type?: string; url?: string } | undefined;
    expect(repository?.type).toBe("git");
    expect(repository?.url).toMatch(/^git\+https:\/\/\S+\.git$/);
    expect(PACKAGE.homepage).toMatch(/^https:\/\/\S+/);
    expect((PACKAGE.bugs as { url?: string } | undefined)?.url).toMatch(/^https:\/\/\S+\/issues$/);
  });
});
