import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { checkReadOnly, sqlError } from "../../src/library/sql-check.js";
import { runPep } from "../helpers/cli.js";
import { hasSqlite, useLibraryApi } from "./helpers.js";

describe("what pep sql accepts, before any database", () => {
  it("takes SELECT, WITH, VALUES and EXPLAIN, after comments and space", () => {
    for (const q of [
      "SELECT 1",
      "  with x as (select 1) select * from x",
      "VALUES (1)",
      "EXPLAIN SELECT 1",
      "-- c\n/* d */ select 1;",
    ])
      expect(() => checkReadOnly(q)).not.toThrow();
  });
  it("refuses a first word that is not a query's, naming it, before any database (for the message only)", () => {
    expect(() => checkReadOnly("DELETE FROM studies")).toThrow(/only reads: DELETE is refused/);
    expect(() => checkReadOnly("/* x */ drop table studies")).toThrow(/DROP is refused/);
    expect(() => checkReadOnly("COPY (SELECT 1) TO PROGRAM 'id'")).toThrow(/COPY is refused/);
    // A second statement is the engine's to refuse: the text is not judged by a lexer.
    expect(() => checkReadOnly("select ';' as semi; select 2")).not.toThrow();
    expect(() => checkReadOnly("PRAGMA table_info(studies)")).not.toThrow();
    expect(() => checkReadOnly("   ")).toThrow(/needs a query/);
  });
  it("places a SQLite error on the token its message names, with a caret", () => {
    const e = sqlError(new Error("no such column: nosuch"), "SELECT id,\n  nosuch FROM studies", "sqlite");
    expect(e.message).toBe("SQL error at line 2, column 3: no such column: nosuch");
    expect(e.hints).toEqual(["  nosuch FROM studies\n  ^"]);
    expect(sqlError(new Error('near "FORM": syntax error'), "SELECT * FORM studies", "sqlite").message).toBe(
      'SQL error at column 10: near "FORM": syntax error',
    );
    expect(sqlError(new Error("attempt to write a readonly database"), "x", "sqlite").message).toMatch(/only reads/);
  });
});

describe.skipIf(!hasSqlite())("pep sql over a synced SQLite library", () => {
  const lib = useLibraryApi("pep-sql-");
  beforeAll(async () => {
    expect((await runPep(["sync", "studies", "prices", "-q"], { env: lib.env })).code).toBe(0);
  });
  const pep = (argv: string[]) => runPep(argv, { env: lib.env, cwd: lib.tmp.dir });

  it("prints rows in every format, columns as the query names them", async () => {
    const q = "SELECT evidence_classification AS class, COUNT(*) AS n FROM studies GROUP BY 1 ORDER BY 1";
    expect((await pep(["sql", q, "-o", "csv"])).out).toBe("class,n\r\nhuman_study,125\r\nin_vitro,125\r\n");
    expect((await pep(["sql", q, "-o", "tsv"])).out).toBe("class\tn\nhuman_study\t125\nin_vitro\t125\n");
    expect((await pep(["sql", q, "-o", "ndjson"])).out).toBe(
      '{"class":"human_study","n":125}\n{"class":"in_vitro","n":125}\n',
    );
    expect(JSON.parse((await pep(["sql", q, "-o", "json"])).out)).toEqual([
      { class: "human_study", n: 125 },
      { class: "in_vitro", n: 125 },
    ]);
    const table = await pep(["sql", q, "-o", "table"]);
    expect(table.out).toMatch(/CLASS\s+N\n.*human_study\s+125/s);
    expect((await pep(["sql", q, "--jq", ".[].n"])).out).toBe("125\n125\n");
    expect((await pep(["sql", q, "--file", "out.csv"])).code).toBe(0);
    expect(readFileSync(path.join(lib.tmp.dir, "out.csv"), "utf8")).toBe(
      "class,n\r\nhuman_study,125\r\nin_vitro,125\r\n",
    );
  });

  it("an empty answer still has its header; the item column is the text as sent", async () => {
    expect((await pep(["sql", "SELECT id, title FROM studies WHERE 0", "-o", "csv"])).out).toBe("id,title\r\n");
    expect(JSON.parse((await pep(["sql", "SELECT item FROM prices", "-o", "json"])).out)[0].item).toBe(
      '{"id":"off_1","peptide":{"id":"pep-0","name":"Pep 0"},"price":12.50,"currency":"USD","in_stock":true}',
    );
  });

  it("a write, a second statement or a SQL error is exit 2 with a message that says why", async () => {
    const w = await pep(["sql", "UPDATE studies SET title = 'x'"]);
    expect([w.code, w.err]).toEqual([2, expect.stringMatching(/only reads: UPDATE is refused/)]);
    const sneaky = await pep(["sql", "WITH x AS (SELECT 1) DELETE FROM studies"]);
    expect([sneaky.code, sneaky.err]).toEqual([2, expect.stringMatching(/only reads/)]);
    const bad = await pep(["sql", "SELECT * FROM nowhere"]);
    expect([bad.code, bad.err]).toEqual([2, expect.stringMatching(/SQL error at column 15: no such table: nowhere/)]);
    expect((await pep(["sql", "SELECT COUNT(*) AS n FROM studies", "-o", "json"])).out).toMatch(/"n": 250/);
  });

  it("a library that does not exist is exit 2 with a hint to sync", async () => {
    const r = await runPep(["sql", "SELECT 1"], { env: { ...lib.env, PEP_DATA_DIR: path.join(lib.tmp.dir, "none") } });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/there is no local library at .*none.* yet\nhint: run pep sync/);
  });
});
