import { constants } from "node:os";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPep } from "../helpers/cli.js";
import { startPep } from "../helpers/live-pep.js";
import { delay } from "../helpers/server.js";
import { hasSqlite, PG_URL, pgSchemaUrl, requirePgInCi, useLibraryApi } from "./helpers.js";

requirePgInCi();

const SQLITE_RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) AS n FROM c";
const PG_RUNAWAY = "SELECT count(*) AS n FROM generate_series(1, 100000000000) g";

/** Runs `argv` until the query is sent (its -v line), lets the database work on it, then sends `signal`. */
async function stopped(argv: string[], env: Record<string, string>, signal: NodeJS.Signals) {
  const live = startPep(["-v", ...argv], { env });
  await live.waitForStderr(/sql: running the query/);
  // Give the database time to be deep in the query (no assertion rests on it).
  await delay(400);
  live.child.kill(signal);
  return live.exit(10_000);
}

const lib = useLibraryApi("pep-sqlsig-");

describe.skipIf(!hasSqlite())("a runaway query on SQLite", () => {
  beforeAll(async () => {
    const r = await runPep(["sync", "categories", "-q"], { env: lib.env });
    expect(r.code, r.err).toBe(0);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`ends on ${signal} with exit ${128 + constants.signals[signal]}, under every output format`, async () => {
      for (const format of signal === "SIGINT" ? ["json", "table"] : ["csv"]) {
        const r = await stopped(["sql", SQLITE_RUNAWAY, "-o", format], lib.env, signal);
        expect(r.signal, r.err).toBeNull();
        expect(r.code, r.err).toBe(128 + constants.signals[signal]);
      }
    });
  }
});

describe.skipIf(!PG_URL)("a runaway query on PostgreSQL", () => {
  const schema = `sqlsig_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let admin: pg.Client;
  let url: string;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    url = pgSchemaUrl(PG_URL!, schema);
    const r = await runPep(["--db", url, "sync", "categories", "-q"], { env: lib.env });
    expect(r.code, r.err).toBe(0);
  });
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    it(`ends on ${signal} with exit ${128 + constants.signals[signal]}, and the server stops the query`, async () => {
      const r = await stopped(["--db", url, "sql", PG_RUNAWAY], lib.env, signal);
      expect(r.signal, r.err).toBeNull();
      expect(r.code, r.err).toBe(128 + constants.signals[signal]);
      let left = 1;
      for (let i = 0; i < 100 && left > 0; i++) {
        const res = await admin.query(
          "SELECT COUNT(*)::int AS n FROM pg_stat_activity WHERE query LIKE '%generate_series(1, 100000000000)%' AND state = 'active' AND pid <> pg_backend_pid()",
        );
        left = res.rows[0].n;
        if (left > 0) await delay(100);
      }
      expect(left).toBe(0);
    });
  }
});
