/**
 * The in-process runner (`inProcessPep`) that most end-to-end cases use stands for the
 * real executable: the same command gives the same exit code, stdout and stderr both
 * ways. Its environment is only what the test gives (the home folder included), its
 * folder is its own, stdin is what it is handed, and one run leaves nothing behind that
 * changes the next.
 */
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { inProcessPep, isBuilt, type PepRun, spawnPep } from "../helpers/cli.js";
import { useLoopback } from "../helpers/suite.js";

const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-in-process-");
const { tmp } = suite;

/** The same run both ways; the sandbox's address made stable. */
async function bothWays(argv: string[], options: { env?: Record<string, string>; input?: string; cwd?: string } = {}) {
  const stable = (r: PepRun) => {
    const s = (t: string) =>
      t
        .split(suite.api.baseUrl)
        .join("<sandbox>")
        .replace(/req_[0-9a-f]+/g, "req_<id>");
    return { code: r.code, out: s(r.out), err: s(r.err) };
  };
  const [inside, spawned] = await Promise.all([inProcessPep(argv, options), spawnPep(argv, options)]);
  return { inside: stable(inside), spawned: stable(spawned) };
}

describe.skipIf(!isBuilt())("in-process runs match the executable's", () => {
  const env = () => ({ ...tmp.env, PEP_API_KEY: "sbx_full_key", PEP_NO_CACHE: "1" });

  it.each([
    ["a list as JSON", ["peptides", "list", "--limit", "3", "-o", "json"]],
    ["a card, piped at COLUMNS=60", ["peptides", "get", "brevritarin-81"]],
    ["a 404 with its hints", ["peptides", "get", "no-such-peptide"]],
    ["a usage error", ["peptides", "list", "--limit", "many"]],
    ["help for a command", ["studies", "list", "--help"]],
  ])("%s", async (_, argv) => {
    const { inside, spawned } = await bothWays(["--base-url", suite.api.baseUrl, ...argv], {
      env: { ...env(), COLUMNS: "60" },
    });
    expect(spawned.code).not.toBe(128);
    expect(inside).toEqual(spawned);
  });

  it("ids from stdin", async () => {
    const { inside, spawned } = await bothWays(
      ["--base-url", suite.api.baseUrl, "peptides", "get", "-", "-o", "ndjson"],
      { env: env(), input: "brevritarin-81\n" },
    );
    expect(inside.code, inside.err).toBe(0);
    expect(inside.out).toContain('"brevritarin-81"');
    expect(inside).toEqual(spawned);
  });

  it("a --file relative to its own folder", async () => {
    const argv = ["--base-url", suite.api.baseUrl, "studies", "list", "--limit", "3", "-o", "csv", "--file", "out.csv"];
    const dirs = ["inside", "spawned"].map((d) => path.join(tmp.dir, d));
    for (const d of dirs) mkdirSync(d);
    const inside = await inProcessPep(argv, { env: env(), cwd: dirs[0] });
    const spawned = await spawnPep(argv, { env: env(), cwd: dirs[1] });
    expect(inside.code, inside.err).toBe(0);
    expect({ ...inside, file: readFileSync(path.join(dirs[0]!, "out.csv"), "utf8") }).toEqual({
      ...spawned,
      file: readFileSync(path.join(dirs[1]!, "out.csv"), "utf8"),
    });
  });

  it("only the environment it is given: HOME decides where the config and cache live", async () => {
    const home = path.join(tmp.dir, "home");
    for (const argv of [
      ["config", "path"],
      ["cache", "path"],
    ]) {
      const { inside, spawned } = await bothWays(argv, { env: { HOME: home } });
      expect(inside.out.startsWith(`${home}/`), inside.out).toBe(true);
      expect(inside).toEqual(spawned);
    }
    // Nothing of the test process's own environment reaches the run.
    const list = ["--base-url", suite.api.baseUrl, "peptides", "list", "--limit", "2"];
    const plain = await inProcessPep(list, { env: env() });
    vi.stubEnv("PEP_OUTPUT", "csv");
    try {
      expect(await inProcessPep(list, { env: env() })).toEqual(plain);
    } finally {
      vi.unstubAllEnvs();
    }
    expect(plain.code, plain.err).toBe(0);
    expect(plain.out).not.toMatch(/^id,/);
  });

  it("one run leaves nothing that changes the next", async () => {
    const argv = ["--base-url", suite.api.baseUrl, "studies", "list", "--limit", "2", "-o", "json"];
    const first = await inProcessPep(argv, { env: env() });
    const refused = await inProcessPep(["--base-url", suite.api.baseUrl, "peptides", "get", "x", "--jq", "]["], {
      env: env(),
    });
    const again = await inProcessPep(argv, { env: env() });
    expect(refused.code).toBe(2);
    expect(first.code, first.err).toBe(0);
    expect(again).toEqual(first);
  });
});
