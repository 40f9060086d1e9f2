/**
 * `pep sql` on a SQLite library: read-only by the engine (the file opened read-only with
 * query_only, one statement prepared with nothing after it, an authorizer where Node has
 * one), through pep and straight through the store's `query`; a runaway query stopped by
 * --timeout; BLOBs and NULs shown as they are; the library explored from pep.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openLibraryAt } from "../../src/library/open.js";
import { runPep, scratch } from "../helpers/cli.js";
import { type FakeApi, startFakeApi } from "./fake-api.js";
import { hasSqlite, libraryEnv } from "./helpers.js";

/** Every row of a query: a write the engine refuses fails at prepare, or at its first step. */
async function drain(answer: Promise<{ rows: AsyncIterable<unknown> }>): Promise<unknown[]> {
  const got: unknown[] = [];
  for await (const row of (await answer).rows) got.push(row);
  return got;
}

/** Node 22's node:sqlite ends a text at its first NUL; 24 keeps it. */
const KEEPS_NUL = Number(process.versions.node.split(".")[0]) >= 24;

const RUNAWAY = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT count(*) AS n FROM c";

describe.skipIf(!hasSqlite())("pep sql on SQLite is read-only by the engine", () => {
  let api: FakeApi;
  let tmp: ReturnType<typeof scratch>;
  let env: Record<string, string>;
  let file: string;
  const pep = (argv: string[], options: { columns?: number; tty?: boolean } = {}) =>
    runPep(argv, { env, cwd: tmp.dir, ...options });
  const digest = () => createHash("sha256").update(readFileSync(file)).digest("hex");

  beforeAll(async () => {
    api = await startFakeApi();
    tmp = scratch("pep-sqlro-");
    env = libraryEnv(api, tmp);
    const synced = await runPep(["sync", "studies", "-q"], { env });
    expect(synced.code, synced.err).toBe(0);
    file = path.join(tmp.dir, "data", "library", "default.sqlite");
  });
  afterAll(async () => {
    await api.close();
    tmp.cleanup();
  });

  it("refuses a second statement the lexer would have missed, naming where it starts, and runs none", async () => {
    const before = digest();
    const evil = path.join(tmp.dir, "attached.db");
    const r = await pep(["sql", `SELECT 1 AS [x']; ATTACH '${evil}' AS e; SELECT '`]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/pep sql takes one statement; a second one starts after the first, at column 18/);
    expect(r.out).toBe("");
    const quoted = await pep(["sql", "SELECT ';' AS a; DELETE FROM studies"]);
    expect([quoted.code, quoted.err]).toEqual([2, expect.stringMatching(/takes one statement/)]);
    // Comments, space and semicolons after the one statement are nothing more.
    expect((await pep(["sql", "SELECT 1 AS one; -- done\n /* really */ ;", "-o", "csv"])).out).toBe("one\r\n1\r\n");
    expect(existsSync(evil)).toBe(false);
    expect(digest()).toBe(before);
  });

  it("refuses at the store itself, with no check of the text before it, every statement that would write", async () => {
    const before = digest();
    const lib = await openLibraryAt({ kind: "sqlite", file }, { write: false });
    const evil = path.join(tmp.dir, "evil.db");
    try {
      for (const q of [
        `ATTACH '${evil}' AS e`,
        `VACUUM INTO '${evil}'`,
        "DELETE FROM studies",
        "WITH x AS (SELECT 1) DELETE FROM studies",
        "INSERT INTO studies (id) VALUES ('x') RETURNING id",
        "UPDATE studies SET title = 'x' RETURNING id",
        "PRAGMA query_only = 0",
        "PRAGMA writable_schema = 1",
        "PRAGMA user_version = 99",
        "BEGIN IMMEDIATE",
        "CREATE TEMP TABLE t AS SELECT 1",
        "SELECT 1; DELETE FROM studies",
        "SELECT load_extension('x')",
      ])
        await expect(drain(lib.db.query(q)), q).rejects.toThrow();
      expect(await drain(lib.db.query("SELECT COUNT(*) AS n FROM studies"))).toEqual([{ n: 250 }]);
    } finally {
      await lib.close();
    }
    expect(existsSync(evil)).toBe(false);
    expect(digest()).toBe(before);
  });

  it("allows PRAGMA table_info and pragma_table_info(...), which only describe", async () => {
    const p = await pep(["sql", "PRAGMA table_info(studies)", "-o", "csv"]);
    expect(p.code, p.err).toBe(0);
    expect(p.out.split("\r\n")[1]).toMatch(/^0,id,TEXT,/);
    const f = await pep(["sql", "SELECT name FROM pragma_table_info('studies') LIMIT 2", "-o", "csv"]);
    expect(f.out).toBe("name\r\nid\r\ntitle\r\n");
  });

  it("--timeout stops a query that never ends (exit 6), the library as it was", async () => {
    const before = digest();
    const r = await pep(["--timeout", "1", "sql", RUNAWAY]);
    expect(r.code, r.err).toBe(6);
    expect(r.err).toMatch(/the query ran longer than the time limit of 1 s, and was stopped/);
    expect(digest()).toBe(before);
  });

  it("shows a BLOB as \\x and hex in one column, and a NUL in a table cell as <U+0000>", async () => {
    const q = "SELECT x'00ff10' AS b, 'nul' || char(0) || 'byte' AS t";
    expect((await pep(["sql", q, "-o", "csv"])).out).toBe(`b,t\r\n\\x00ff10,${KEEPS_NUL ? "nulbyte" : "nul"}\r\n`);
    expect(JSON.parse((await pep(["sql", "SELECT x'00ff10' AS b", "-o", "json"])).out)).toEqual([{ b: "\\x00ff10" }]);
    const table = await pep(["sql", q, "-o", "table"]);
    if (KEEPS_NUL) expect(table.out).toMatch(/\\x00ff10\s+nul<U\+0000>byte/);
  });

  it("lists the tables (data first, bookkeeping after) and a table's columns, in every format", async () => {
    const csv = (await pep(["sql", "--tables", "-o", "csv"])).out.split("\r\n");
    expect(csv[0]).toBe("table,kind,rows,columns");
    expect(csv.slice(1, 3)).toEqual([
      expect.stringMatching(/^peptides,data,0,\d+$/),
      expect.stringMatching(/^studies,data,250,\d+$/),
    ]);
    const kinds = csv
      .slice(1)
      .filter(Boolean)
      .map((l) => l.split(",")[1]);
    expect(kinds.indexOf("bookkeeping")).toBeGreaterThan(kinds.lastIndexOf("data"));
    const json = JSON.parse((await pep(["sql", "--schema", "studies", "-o", "json"])).out);
    expect(json[0]).toEqual({ column: "id", type: "text", not_null: false, primary_key: true, references: null });
    expect((await pep(["sql", "--schema", "studies", "-o", "table"])).out).toMatch(
      /^COLUMN\s+TYPE\s+NOT_NULL\s+PRIMARY_KEY\s+REFERENCES\n/,
    );
    // Views, full-text indexes and bookkeeping are marked; a link table names what it references.
    expect(csv).toEqual(
      expect.arrayContaining([
        "study_citing_peptides,view,,11",
        "studies_fts,full-text,,3",
        expect.stringMatching(/^_pep_pages,bookkeeping,\d+,7$/),
      ]),
    );
    // The full-text index and the views read through pep sql as any table (the authorizer lets FTS5 read its own tables).
    const found = await pep([
      "sql",
      "SELECT COUNT(*) AS n FROM studies_fts WHERE studies_fts MATCH 'study'",
      "-o",
      "csv",
    ]);
    expect([found.code, found.out]).toEqual([0, "n\r\n250\r\n"]);
    const links = JSON.parse((await pep(["sql", "--schema", "prices", "-o", "json"])).out);
    expect(links.filter((c: { references: string | null }) => c.references)).toEqual([
      { column: "peptide_id", type: "text", not_null: false, primary_key: false, references: "peptides.id" },
      { column: "vendor_id", type: "text", not_null: false, primary_key: false, references: "vendors.id" },
    ]);
    const bad = await pep(["sql", "--schema", "study"]);
    expect([bad.code, bad.err]).toEqual([2, expect.stringMatching(/no table "study"\nhint: did you mean studies\?/)]);
    const both = await pep(["sql", "SELECT 1", "--tables"]);
    expect(both.code).toBe(2);
  });

  it("names the nearest table or column the library has, and --fields keeps some of the answer's columns", async () => {
    const t = await pep(["sql", "select * from study"]);
    expect(t.err).toMatch(/no such table: study\n(.*\n){2}hint: did you mean studies\?/);
    const c = await pep(["sql", "select titel from studies"]);
    expect(c.err).toMatch(/hint: did you mean title\? \(a column of studies/);
    const f = await pep(["sql", "SELECT * FROM studies ORDER BY ord LIMIT 1", "--fields", "id,title", "-o", "csv"]);
    expect(f.out).toBe("id,title\r\npmid-1000,Study 0\r\n");
    const unknown = await pep(["sql", "SELECT id FROM studies", "--fields", "idd"]);
    expect([unknown.code, unknown.err]).toEqual([
      2,
      expect.stringMatching(/--fields: the answer has no column "idd"\nhint: did you mean id\?/),
    ]);
  });
});

describe.skipIf(!hasSqlite())("pep sql and pep changes on a library the sandbox filled", () => {
  let tmp: ReturnType<typeof scratch>;
  let env: Record<string, string>;
  beforeAll(async () => {
    tmp = scratch("pep-sqlsbx-");
    // A real library file the sandbox filled (named with --db: a sandbox sync otherwise fills its own).
    const db = path.join(tmp.dir, "lib.sqlite");
    env = { ...tmp.env, PEP_DATA_DIR: path.join(tmp.dir, "data"), PEP_DB: db };
    const r = await runPep(["--sandbox", "--db", db, "sync", "categories", "-q"], { env });
    expect(r.code, r.err).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it("say the data is synthetic, even under -q", async () => {
    const sql = await runPep(["sql", "SELECT COUNT(*) AS n FROM categories", "-q"], { env });
    expect(sql.code, sql.err).toBe(0);
    expect(sql.err).toMatch(/^sandbox data, synthetic: not real research/m);
    const changes = await runPep(["changes", "-o", "csv"], { env });
    expect(changes.err).toMatch(/^sandbox data, synthetic: not real research/m);
    expect((await runPep(["sql", "--tables", "-o", "csv"], { env })).err).toMatch(/sandbox data, synthetic/);
  });
});
