/**
 * `pep sql`'s early start (src/cli/sql-early.ts): which runs start the SQLite query's
 * process before the program loads, and, through the real executable (the start is
 * bin/pep.js's), that a run takes it and that a run which does not (a refused query)
 * neither waits for it nor leaves it behind.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { hasNodeSqlite, likelySqlite, runsSqlQuery } from "../../src/cli/sql-early.js";
import { runPep, spawnPep } from "../helpers/cli.js";
import { delay } from "../helpers/server.js";
import { hasSqlite, useLibraryApi } from "./helpers.js";

describe("which runs start the query's process early", () => {
  it("pep sql with a query, and nothing else", () => {
    expect(runsSqlQuery(["sql", "SELECT 1"])).toBe(true);
    expect(runsSqlQuery(["--profile", "work", "sql", "SELECT 1", "-o", "json"])).toBe(true);
    expect(runsSqlQuery(["--db", "lib.sqlite", "sql", "SELECT 1"])).toBe(true);
    expect(runsSqlQuery(["--offline", "sql", "SELECT 1"])).toBe(true);
    for (const argv of [
      ["sql", "--tables"],
      ["sql", "--schema", "studies"],
      ["sql", "--schema=studies"],
      ["sql", "--help"],
      ["sql", "-h"],
      ["sync", "sql"],
      ["--profile", "sql", "sync"],
      ["studies", "list"],
      [],
    ])
      expect(runsSqlQuery(argv), argv.join(" ")).toBe(false);
  });

  it("only where the library is likely SQLite: --db, else PEP_DB, else no postgres:// in the config", () => {
    const none = () => undefined;
    const pgConfig = () => '{"profiles":{"team":{"db":"postgresql://h/db"}}}';
    expect(likelySqlite(["sql", "x"], {}, none)).toBe(true);
    expect(likelySqlite(["sql", "x"], {}, () => '{"profiles":{"default":{}}}')).toBe(true);
    expect(likelySqlite(["sql", "x"], {}, pgConfig)).toBe(false);
    expect(likelySqlite(["sql", "x"], { PEP_DB: "postgres://h/db" }, none)).toBe(false);
    expect(likelySqlite(["sql", "x"], { PEP_DB: "/tmp/lib.sqlite" }, pgConfig)).toBe(true);
    expect(likelySqlite(["sql", "x"], { PEP_DB: "" }, pgConfig)).toBe(false);
    expect(likelySqlite(["sql", "x", "--db", "postgres://h/db"], {}, none)).toBe(false);
    expect(likelySqlite(["sql", "x", "--db=POSTGRESQL://h/db"], {}, none)).toBe(false);
    expect(likelySqlite(["--db", "lib.sqlite", "sql", "x"], { PEP_DB: "postgres://h/db" }, pgConfig)).toBe(true);
  });

  it("only on a Node with node:sqlite (22.5 and later)", () => {
    expect(["20.19.0", "22.4.1", "22.5.0", "22.12.0", "24.1.0", "26.0.0"].map(hasNodeSqlite)).toEqual([
      false,
      false,
      true,
      true,
      true,
      true,
    ]);
  });
});

describe.skipIf(!hasSqlite())("the early start through the executable", () => {
  const lib = useLibraryApi("pep-sqlearly-", { more: { NODE_DEBUG: "pep" } });
  beforeAll(async () => {
    const r = await runPep(["sync", "categories", "-q"], { env: lib.env });
    expect(r.code, r.err).toBe(0);
  });

  const earlyPid = (err: string): number => {
    const m = /sql early start started, process (\d+)/.exec(err);
    expect(m, err).not.toBeNull();
    return Number(m![1]);
  };

  /**
   * Whether process `pid` has ended, within about five seconds (SIGKILL is not instant): no
   * such process, or a zombie (dead, not yet reaped by whoever inherited it).
   */
  async function gone(pid: number): Promise<boolean> {
    for (let i = 0; i < 100; i++) {
      try {
        if (/^\d+ \(.*\) Z/s.test(readFileSync(`/proc/${pid}/stat`, "utf8"))) return true;
        process.kill(pid, 0);
      } catch {
        return true;
      }
      await delay(50);
    }
    return false;
  }

  it("a query runs in the process started early, which ends with the run", async () => {
    const r = await spawnPep(["sql", "SELECT COUNT(*) AS n FROM categories", "-o", "json"], { env: lib.env });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual([{ n: expect.any(Number) }]);
    expect(JSON.parse(r.out)[0].n).toBeGreaterThan(0);
    expect(await gone(earlyPid(r.err))).toBe(true);
  });

  it("a run that refuses its query exits at once and kills the process no query took", async () => {
    const r = await spawnPep(["sql", "DELETE FROM categories"], { env: lib.env, timeoutMs: 10_000 });
    expect(r.code, r.err).toBe(2);
    expect(r.err).toMatch(/only reads/);
    expect(await gone(earlyPid(r.err))).toBe(true);
  });

  it("a config file that is a named pipe holds up neither the guess nor the run: the run refuses the file", async () => {
    const dir = path.join(lib.tmp.dir, "fifo-config");
    mkdirSync(dir, { mode: 0o700 });
    execFileSync("mkfifo", ["-m", "600", path.join(dir, "config.json")]);
    const r = await spawnPep(["sql", "SELECT 1 AS one"], {
      env: { ...lib.env, PEP_CONFIG_DIR: dir },
      timeoutMs: 15_000,
    });
    expect(r.err).toMatch(/config file .*config\.json is a named pipe/);
    expect(r.code).toBe(2);
  });

  it("a run on PostgreSQL starts none", async () => {
    const r = await spawnPep(["sql", "SELECT 1", "--db", "postgres://127.0.0.1:1/none", "--timeout", "1"], {
      env: lib.env,
    });
    expect(r.err).toMatch(/sql early start not taken/);
  });
});
