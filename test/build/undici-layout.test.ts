/**
 * The bundle reaches into undici's private files (scripts/undici-lean.mjs,
 * scripts/undici-proxy.mjs, the lean-undici plugin of scripts/build.mjs), so undici is
 * pinned exactly. This test says plainly what moved when an upgrade changes that
 * layout; CONTRIBUTING.md's "Upgrading undici" lists the steps.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ROOT } from "../helpers/cli.js";

const require = createRequire(path.join(ROOT, "package.json"));
const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")) as {
  dependencies: Record<string, string>;
};

/** Every `undici/...` file the build's scripts name. */
function namedFiles(): string[] {
  const text = ["undici-lean.mjs", "undici-proxy.mjs", "build.mjs"]
    .map((f) => readFileSync(path.join(ROOT, "scripts", f), "utf8"))
    .join("\n");
  const direct = [...text.matchAll(/"(undici\/lib\/[^"]+\.js)"/g)].map((m) => m[1]!);
  return [...new Set(direct)];
}

describe("undici's private layout, as the bundle uses it", () => {
  it("is pinned to an exact version", () => {
    expect(
      pkg.dependencies.undici,
      "undici must be pinned exactly (no ^ or ~): the bundle uses its private files",
    ).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("still has every file the build names", () => {
    const files = namedFiles();
    expect(files.length).toBeGreaterThan(5);
    const missing = files.filter((f) => !existsSync(path.join(ROOT, "node_modules", f)));
    expect(
      missing,
      `undici no longer has these files; update scripts/undici-*.mjs and scripts/build.mjs: ${missing.join(", ")}`,
    ).toEqual([]);
  });

  it("still exports what the lean entries take from those files", () => {
    const shape = (spec: string) => typeof require(spec);
    const expected: Record<string, string> = {
      "undici/lib/dispatcher/agent.js": "function",
      "undici/lib/dispatcher/proxy-agent.js": "function",
      "undici/lib/dispatcher/dispatcher.js": "function",
      "undici/lib/api/api-request.js": "function",
      "undici/lib/api/api-connect.js": "function",
      "undici/lib/core/errors.js": "object",
      "undici/lib/core/util.js": "object",
    };
    for (const [spec, type] of Object.entries(expected))
      expect(shape(spec), `${spec} should export a ${type}`).toBe(type);
    const errors = require("undici/lib/core/errors.js") as Record<string, unknown>;
    expect(typeof errors.InvalidArgumentError, "undici/lib/core/errors.js should export InvalidArgumentError").toBe(
      "function",
    );
    const util = require("undici/lib/core/util.js") as Record<string, unknown>;
    for (const fn of ["parseOrigin", "parseURL"])
      expect(typeof util[fn], `undici/lib/core/util.js should export ${fn}`).toBe("function");
  });

  it("still requires its HTTP/2 client from dispatcher/client.js as the build's lazy-h2 shim expects", () => {
    const client = readFileSync(path.join(ROOT, "node_modules", "undici", "lib", "dispatcher", "client.js"), "utf8");
    expect(client, "dispatcher/client.js no longer requires './client-h2.js'; update the lean-undici plugin").toContain(
      "require('./client-h2.js')",
    );
  });

  it("calls node:assert only as assert(value[, message]), which the build's lazy-assert shim provides", () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const e of readdirSync(dir, { withFileTypes: true })) {
        const p = path.join(dir, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith(".js")) files.push(p);
      }
    };
    walk(path.join(ROOT, "node_modules", "undici", "lib"));
    const methods = new Set<string>();
    let calls = 0;
    for (const f of files) {
      const text = readFileSync(f, "utf8");
      if (!/require\(['"](node:)?assert['"]\)/.test(text)) continue;
      for (const m of text.matchAll(/\bassert\.([A-Za-z]+)/g)) methods.add(m[1]!);
      calls += [...text.matchAll(/\bassert\(/g)].length;
    }
    expect(calls, "undici no longer calls assert(); check the lazy-assert plugin of scripts/build.mjs").toBeGreaterThan(
      10,
    );
    expect(
      [...methods],
      "undici now calls methods of node:assert; extend the lazy-assert shim in scripts/build.mjs",
    ).toEqual([]);
  });
});
