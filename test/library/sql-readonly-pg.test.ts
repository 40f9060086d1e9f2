/**
 * `pep sql` on a real PostgreSQL server (PEP_TEST_PG_URL; in CI its user is a superuser,
 * which is the hard case: the role's own rights stop nothing there). Every payload that
 * tried to leave the read-only transaction, run a second statement or a shell command is
 * refused, and the data is the same afterwards: through pep (whose first-word check
 * speaks first) and straight through the store's `query`, where only the engine stands.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/library/db.js";
import { openPostgres } from "../../src/library/postgres.js";
import { runPep, scratch } from "../helpers/cli.js";
import { type FakeApi, startFakeApi } from "./fake-api.js";
import { PG_URL, pgSchemaUrl, requirePgInCi } from "./helpers.js";

requirePgInCi();

/** The payloads, each of which once wrote, ran several statements or left the read-only transaction. */
const PAYLOADS = (marker: string) => [
  "SELECT $$'$$; COMMIT; BEGIN READ WRITE; DELETE FROM studies; COMMIT; -- '",
  "SELECT E'\\''; DELETE FROM studies; -- '",
  `COPY (SELECT 1) TO PROGRAM 'touch ${marker}'`,
  `/* a comment first */ COPY (SELECT 1) TO PROGRAM 'touch ${marker}'`,
  "COMMIT",
  "BEGIN READ WRITE",
  "SET default_transaction_read_only = off",
  "RESET ALL",
  "DELETE FROM studies",
  "WITH gone AS (DELETE FROM studies RETURNING id) SELECT * FROM gone",
  "SELECT 1; DELETE FROM studies",
  'SELECT 1 AS "x;"; DELETE FROM studies',
  "SELECT set_config('transaction_read_only', 'off', true), (SELECT COUNT(*) FROM studies)",
  "SELECT id FROM studies FOR UPDATE",
  "EXPLAIN ANALYZE DELETE FROM studies",
];

describe.skipIf(!PG_URL)("pep sql on PostgreSQL is read-only by the engine", () => {
  const schema = `sqlro_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  let admin: Db;
  let api: FakeApi;
  let tmp: ReturnType<typeof scratch>;
  let url: string;
  let marker: string;
  const pep = (argv: string[]) =>
    runPep(["--db", url, ...argv], {
      env: {
        ...tmp.env,
        PEP_DATA_DIR: path.join(tmp.dir, "data"),
        PEP_BASE_URL: api.base,
        PEP_API_KEY: "k_test_123456789",
      },
      cwd: tmp.dir,
    });
  const count = async () =>
    Number((await admin.get<{ n: unknown }>(`SELECT COUNT(*) AS n FROM "${schema}".studies`))?.n);

  beforeAll(async () => {
    admin = await openPostgres(PG_URL!, { readOnly: false });
    await admin.exec(`CREATE SCHEMA "${schema}"`);
    url = pgSchemaUrl(PG_URL!, schema);
    api = await startFakeApi();
    tmp = scratch("pep-sqlro-pg-");
    marker = path.join(tmp.dir, "ran-a-program");
    const synced = await pep(["sync", "studies", "-q"]);
    expect(synced.code, synced.err).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await admin.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.close();
    await api.close();
    tmp.cleanup();
  });

  it("refuses every payload through pep with exit 2 and a message, the studies all there", async () => {
    const before = await count();
    expect(before).toBe(250);
    for (const q of PAYLOADS(marker)) {
      const r = await pep(["sql", q]);
      expect([q, r.code]).toEqual([q, 2]);
      expect(r.err, q).toMatch(/^error: (pep sql (only reads|takes one statement)|SQL error)/m);
      expect(r.err, q).not.toMatch(/Cannot read properties/);
    }
    const first = await pep(["sql", PAYLOADS(marker)[0]!]);
    expect(first.err).toMatch(/pep sql takes one statement; the query holds more than one, and nothing was run/);
    expect(await count()).toBe(before);
    expect(existsSync(marker)).toBe(false);
  });

  it("refuses every payload at the engine itself, with no check of the text before it, as a superuser too", async () => {
    const su = await admin.get<{ su: boolean }>("SELECT rolsuper AS su FROM pg_roles WHERE rolname = current_user");
    const reader = await openPostgres(url, { readOnly: true });
    try {
      for (const q of PAYLOADS(marker)) await expect(reader.query(q), q).rejects.toThrow();
      // The session is still read-only and answers the next query.
      const { rows } = await reader.query("SELECT current_setting('default_transaction_read_only') AS ro");
      const got: unknown[] = [];
      for await (const row of rows) got.push(row);
      expect(got).toEqual([{ ro: "on" }]);
    } finally {
      await reader.close();
    }
    expect(await count()).toBe(250);
    expect(existsSync(marker)).toBe(false);
    if (process.env.CI) expect(su?.su).toBe(true);
  });

  it("streams a long answer in pages through a cursor, in order, and a reader that stops early frees the connection", async () => {
    const reader = await openPostgres(url, { readOnly: true });
    try {
      const { columns, rows } = await reader.query("SELECT g AS n FROM generate_series(1, 1234) g ORDER BY g");
      expect(columns).toEqual(["n"]);
      let n = 0;
      for await (const row of rows) expect(row.n).toBe(++n);
      expect(n).toBe(1234);
      const again = await reader.query("SELECT g AS n FROM generate_series(1, 5000) g");
      for await (const row of again.rows) if (row.n === 3) break;
      expect((await reader.get<{ one: number }>("SELECT 1 AS one"))?.one).toBe(1);
    } finally {
      await reader.close();
    }
  });

  it("--timeout stops a query the server is still running (exit 6), and the server drops it", async () => {
    const r = await pep(["--timeout", "1", "sql", "SELECT pg_sleep(60) AS slept"]);
    expect(r.code, r.err).toBe(6);
    expect(r.err).toMatch(/the query ran longer than the time limit of 1 s, and was stopped/);
    // The cancel goes from a second connection as the run ends: the server drops it soon after.
    let left = 1;
    for (let i = 0; i < 100 && left > 0; i++) {
      const row = await admin.get<{ n: unknown }>(
        "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE query LIKE '%pg_sleep(60)%' AND state = 'active' AND pid <> pg_backend_pid()",
      );
      left = Number(row?.n);
      if (left > 0) await new Promise((r) => setTimeout(r, 100));
    }
    expect(left).toBe(0);
  });

  it("shows bytea as \\x and hex in one column, in every format", async () => {
    const q = "SELECT '\\x00ff10'::bytea AS b, 'a' AS t";
    expect((await pep(["sql", q, "-o", "csv"])).out).toBe("b,t\r\n\\x00ff10,a\r\n");
    expect(JSON.parse((await pep(["sql", q, "-o", "json"])).out)).toEqual([{ b: "\\x00ff10", t: "a" }]);
  });

  it("lists the tables, data first, and a table's columns; an unknown name gets the nearest", async () => {
    const tables = (await pep(["sql", "--tables", "-o", "csv"])).out.split("\r\n");
    expect(tables[0]).toBe("table,kind,rows,columns");
    expect(tables[2]).toMatch(/^studies,data,250,\d+$/);
    expect(tables.filter((l) => l.includes(",bookkeeping,")).length).toBeGreaterThan(0);
    expect(tables.findIndex((l) => l.includes(",bookkeeping,"))).toBeGreaterThan(
      tables.findIndex((l) => l.startsWith("syncs,")),
    );
    const cols = await pep(["sql", "--schema", "studies", "-o", "json"]);
    expect(JSON.parse(cols.out)[0]).toEqual({
      column: "id",
      type: "text",
      not_null: true,
      primary_key: true,
      references: null,
    });
    expect(JSON.parse(cols.out).find((c: { column: string }) => c.column === "fts")).toMatchObject({
      type: "tsvector",
    });
    expect(tables).toEqual(
      expect.arrayContaining([
        "study_citing_peptides,view,,11",
        expect.stringMatching(/^_pep_pages,bookkeeping,\d+,7$/),
      ]),
    );
    const bad = await pep(["sql", "SELECT * FROM study"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/hint: did you mean studies\?/);
    const col = await pep(["sql", "SELECT titel FROM studies"]);
    expect(col.err).toMatch(/hint: did you mean title\? \(a column of studies/);
  });
});
