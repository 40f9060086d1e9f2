/**
 * The library through the real executable: on a Node without node:sqlite (Node 20, or a
 * later Node started with --no-experimental-sqlite, which is the same to pep) the library
 * commands refuse with exit 2 and say what to install while every other command works;
 * Node 22 says nothing of SQLite being experimental; and a run of any other command loads
 * none of the library's code, node:sqlite or pg.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBuilt, scratch, spawnPep } from "../helpers/cli.js";
import { hasSqlite } from "./helpers.js";

const tmp = scratch("pep-lib-node-");
afterAll(() => tmp.cleanup());
const env = () => ({ ...tmp.env, PEP_DATA_DIR: path.join(tmp.dir, "data") });
const major = Number(process.versions.node.split(".")[0]);
/** No node:sqlite on this run: Node 20 as it is, a later one with the flag that turns it off. */
const withoutSqlite = major >= 22 ? { NODE_OPTIONS: "--no-experimental-sqlite" } : {};

describe.skipIf(!isBuilt())("the library and the Node it runs on", () => {
  beforeAll(() => undefined);

  it(`without node:sqlite, library commands exit 2 saying what to install; other commands work (${process.version})`, async () => {
    for (const argv of [["sync"], ["sql", "SELECT 1"], ["changes"]]) {
      const r = await spawnPep(["--sandbox", ...argv], { env: { ...env(), ...withoutSqlite } });
      expect(r.code, r.err).toBe(2);
      expect(r.err).toMatch(
        /the local library needs Node\.js 22\.5 or later for its SQLite file \(this is Node [\d.]+, which has no node:sqlite\)/,
      );
      expect(r.err).toMatch(/hint: install Node\.js 22 or 24/);
      expect(r.err).toMatch(/hint: or keep the library in PostgreSQL/);
    }
    const list = await spawnPep(["--sandbox", "peptides", "list", "--limit", "1", "-o", "json"], {
      env: { ...env(), ...withoutSqlite },
    });
    expect(list.code, list.err).toBe(0);
    expect(JSON.parse(list.out)).toHaveLength(1);
  });

  it.skipIf(!hasSqlite())(
    `a sync says nothing of SQLite being experimental, and keeps other warnings (${process.version})`,
    async () => {
      const r = await spawnPep(["--sandbox", "sync", "categories", "-q"], { env: env() });
      expect(r.code, r.err).toBe(0);
      expect(r.err).not.toMatch(/ExperimentalWarning|SQLite is an experimental/);
      const probe = path.join(tmp.dir, "warn.cjs");
      writeFileSync(probe, 'process.emitWarning("still here", "ExperimentalWarning");');
      const other = await spawnPep(["--sandbox", "sync", "categories", "-q"], {
        env: { ...env(), NODE_OPTIONS: `--require ${probe}` },
      });
      expect(other.err).toMatch(/ExperimentalWarning: still here/);
    },
  );

  it(`a list run loads no library code, no node:sqlite and no pg (${process.version})`, async () => {
    const probe = path.join(tmp.dir, "probe.cjs");
    const report = path.join(tmp.dir, "report.json");
    writeFileSync(
      probe,
      `process.on("exit", () => require("node:fs").writeFileSync(${JSON.stringify(report)}, JSON.stringify({
        builtins: process.moduleLoadList,
        files: Object.keys(require.cache),
      })));`,
    );
    const r = await spawnPep(["--sandbox", "peptides", "list", "--limit", "1", "-o", "json"], {
      env: { ...env(), NODE_OPTIONS: `--require ${probe}` },
    });
    expect(r.code, r.err).toBe(0);
    const { builtins, files } = JSON.parse(readFileSync(report, "utf8")) as { builtins: string[]; files: string[] };
    expect(builtins.filter((m) => /sqlite/.test(m))).toEqual([]);
    expect(files.filter((f) => /node_modules[\\/]pg/.test(f))).toEqual([]);
    // The bundle's library chunks hold the words only the library's code has, and pg's
    // chunk the names of its modules (it is bundled).
    const loaded = files.filter((f) => f.includes(`${path.sep}dist${path.sep}`));
    expect(loaded.length).toBeGreaterThan(0);
    for (const f of loaded)
      expect(readFileSync(f, "utf8")).not.toMatch(/staged_pages|pg_try_advisory_lock|node_modules\/pg(-protocol)?\//);
  });
});
