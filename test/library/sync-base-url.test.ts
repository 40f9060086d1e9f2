/**
 * The API's own links (`api_url`) hold the base URL an answer came from. The in-process
 * sandbox listens on a new port every run, so two syncs of the same data see every link
 * move: that is not a change of the data, and the change log stays empty. Needs
 * node:sqlite: skipped on Node 20 only.
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inProcessPep, scratchIf } from "../helpers/cli.js";
import { hasSqlite } from "./helpers.js";

describe.skipIf(!hasSqlite())("a sync from another base URL of the same data", () => {
  const tmp = scratchIf(hasSqlite(), "pep-rebase-");
  const dir = tmp.dir;
  afterAll(() => tmp.cleanup());
  const env = {
    PEP_CONFIG_DIR: path.join(dir, "config"),
    PEP_CACHE_DIR: path.join(dir, "cache"),
    PEP_DATA_DIR: path.join(dir, "data"),
  };
  const pep = (argv: string[]) => inProcessPep(["--sandbox", ...argv], { env, timeoutMs: 60_000 });

  it("logs no change, though every api_url now names another port", async () => {
    const first = await pep(["sync", "peptides", "vendors", "-o", "json"]);
    expect(first.code, first.err).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ changed: 0, removed: 0 });
    const second = await pep(["sync", "peptides", "vendors", "-o", "json"]);
    expect(second.code, second.err).toBe(0);
    expect(JSON.parse(second.out)).toMatchObject({ added: 0, changed: 0, removed: 0 });
    const log = await pep(["changes", "--since", "last", "--exit-status", "-o", "json"]);
    expect(log.code, log.err).toBe(0);
    expect(JSON.parse(log.out)).toEqual([]);
    // The links kept are the newest ones: the library holds what the API sent last.
    const bases = await pep(["sql", "SELECT base_url FROM syncs ORDER BY id", "-o", "json"]);
    const [a, b] = (JSON.parse(bases.out) as { base_url: string }[]).map((r) => r.base_url);
    expect(a).not.toBe(b);
    const links = await pep(["sql", "SELECT item FROM peptides LIMIT 1", "-o", "json"]);
    expect(JSON.parse(links.out)[0].item).toContain(b);
  }, 120_000);

  it("prints the library's rows as they come: rows sharing an id are not de-duplicated as API items are", async () => {
    const twice = await pep(["sql", "SELECT id FROM peptides UNION ALL SELECT id FROM peptides", "-o", "ids"]);
    expect(twice.code, twice.err).toBe(0);
    const ids = twice.out.trim().split("\n");
    expect(ids.length).toBeGreaterThan(2);
    expect(new Set(ids).size * 2).toBe(ids.length);
    expect(twice.err).not.toContain("duplicate");
  }, 60_000);
});
