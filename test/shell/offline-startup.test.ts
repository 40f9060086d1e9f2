/**
 * No cost to the rest (docs/startup.md, docs/offline.md): a list run that is not offline
 * loads none of the offline or library code (no node:sqlite, no pg, no file of the bundle
 * that holds it), and an offline run does, as the proof that the probe can see it.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { SANDBOX_KEYS } from "../../src/sandbox/auth.js";
import { isBuilt, scratch, spawnPep } from "../helpers/cli.js";
import { useLoopback } from "../helpers/suite.js";

/** Text only the offline client's and the library store's code hold. */
const OFFLINE_MARKS = ["pep-offline-cursor", "schema_migrations"];

describe.skipIf(!isBuilt())("start-up without --offline", () => {
  const suite = useLoopback(() => startSandbox({ port: 0 }), "pep-offline-start-");

  /** Runs pep with a probe that reports, at exit, Node's loaded built-ins and every file required. */
  const probed = async (argv: string[], more: Record<string, string> = {}) => {
    const s = scratch();
    try {
      const probe = path.join(s.dir, "probe.cjs");
      const report = path.join(s.dir, "report.json");
      writeFileSync(
        probe,
        `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(report)}, JSON.stringify({
          builtins: process.moduleLoadList, files: Object.keys(require.cache) })));`,
      );
      const r = await spawnPep(argv, {
        env: {
          PEP_BASE_URL: suite.api.baseUrl,
          PEP_API_KEY: SANDBOX_KEYS.full,
          PEP_CONFIG_DIR: s.env.PEP_CONFIG_DIR,
          PEP_CACHE_DIR: s.env.PEP_CACHE_DIR,
          PEP_DATA_DIR: path.join(s.dir, "data"),
          NODE_OPTIONS: `--require ${probe}`,
          ...more,
        },
      });
      const { builtins, files } = JSON.parse(readFileSync(report, "utf8")) as { builtins: string[]; files: string[] };
      const offlineFiles = files.filter((f) => {
        const text = readFileSync(f, "utf8");
        return OFFLINE_MARKS.some((m) => text.includes(m));
      });
      return { r, builtins, files, offlineFiles };
    } finally {
      s.cleanup();
    }
  };

  it("a list run loads no offline or library code, nor node:sqlite or pg", async () => {
    const { r, builtins, files, offlineFiles } = await probed(["peptides", "list", "-o", "json", "--limit", "3"]);
    expect(r.code, r.err).toBe(0);
    expect(builtins.filter((m) => /sqlite/.test(m))).toEqual([]);
    expect(files.filter((f) => f.includes(`${path.sep}pg${path.sep}`))).toEqual([]);
    expect(offlineFiles).toEqual([]);
  });

  it("an offline run loads them (the probe sees what it looks for)", async () => {
    const { r, offlineFiles } = await probed(["--offline", "peptides", "list", "-o", "json"]);
    // No library in this folder (or no node:sqlite, on Node 20): refused, after loading the code that found that out.
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/pep sync|Node\.js 22/);
    expect(offlineFiles.length).toBeGreaterThan(0);
  });
});
