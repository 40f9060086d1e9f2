/**
 * A team database set up from docs/library.md alone: the SQL block of "A team database,
 * as a DBA sets it up" is run as written (its names made unique to this run), then the
 * owner role syncs, the read role reads (`pep sql`, `pep changes`, `--offline`), the read
 * role cannot sync (exit 3, naming the grant), and a table a later migration adds is
 * readable by the read role with no further grant (the default privileges).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ROOT, scratchIf } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { PG_URL, requirePgInCi } from "./helpers.js";

requirePgInCi();

/** The doc's SQL block, split where it says `\connect <db>`: [before, after]. */
function docSql(): { server: string; inDatabase: string } {
  const doc = readFileSync(path.join(ROOT, "docs", "library.md"), "utf8");
  const section = doc.slice(doc.indexOf("### A team database, as a DBA sets it up"));
  const block = /```sql\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error("docs/library.md has no SQL block under its team database section");
  const [server, inDatabase] = block.split(/^\\connect \S+\n/m);
  if (inDatabase === undefined) throw new Error("the SQL block does not \\connect to the database");
  return { server: server!, inDatabase };
}

describe.skipIf(!PG_URL)("a team database set up from docs/library.md", () => {
  const cli = useSandboxCli();
  const tag = `${process.pid}_${Date.now()}`;
  const names = { db: `pep_team_${tag}`, sync: `pep_team_sync_${tag}`, read: `pep_team_read_${tag}` };
  const rename = (sql: string) =>
    sql
      .replace(/\bpep_sync\b/g, names.sync)
      .replace(/\bpep_read\b/g, names.read)
      .replace(/\bpep\b/g, names.db);
  const url = (role: string) => {
    const u = new URL(PG_URL!);
    u.username = role;
    u.password = "";
    u.pathname = `/${names.db}`;
    return u.toString();
  };
  let admin: pg.Client;
  const tmp = scratchIf(Boolean(PG_URL), "pep-team-");
  const env = (role: string) => ({ ...tmp.env, PEP_DB: url(role), PEP_DATA_DIR: path.join(tmp.dir, "data") });

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const sql = docSql();
    // One statement at a time, as psql sends them (CREATE DATABASE takes no transaction).
    const each = (text: string) =>
      rename(text)
        .split(/;\s*$/m)
        .map((st) => st.replace(/^--.*$/gm, "").trim())
        .filter((st) => st !== "");
    for (const st of each(sql.server)) await admin.query(st);
    const inDb = new pg.Client({ connectionString: url(new URL(PG_URL!).username) });
    await inDb.connect();
    try {
      for (const st of each(sql.inDatabase)) await inDb.query(st);
    } finally {
      await inDb.end();
    }
  }, 60_000);

  afterAll(async () => {
    await admin.query(`DROP DATABASE IF EXISTS "${names.db}" WITH (FORCE)`);
    for (const r of [names.read, names.sync]) await admin.query(`DROP ROLE IF EXISTS "${r}"`);
    await admin.end();
    tmp.cleanup();
  });

  it("the owner syncs; the read role reads, cannot sync, and reads a table added later", async () => {
    const sync = await cli.pep(["sync", "categories", "research-areas", "-q"], { env: env(names.sync) });
    expect(sync.code, sync.err).toBe(0);
    const reader = env(names.read);
    const count = await cli.pep(["sql", "SELECT count(*) AS n FROM categories", "-o", "csv"], { env: reader });
    expect(count.code, count.err).toBe(0);
    expect(Number(count.out.trim().split("\n")[1])).toBeGreaterThan(0);
    expect((await cli.pep(["changes", "--since", "last", "-q", "-o", "json"], { env: reader })).code).toBe(0);
    const offline = await cli.pep(["--offline", "categories", "-o", "json"], { env: reader });
    expect(offline.code, offline.err).toBe(0);
    const refused = await cli.pep(["sync", "categories", "-o", "json"], { env: reader });
    expect(refused.code, refused.err).toBe(3);
    expect(JSON.parse(refused.out || refused.err).error.code).toBe("library_permission_denied");
    expect(refused.err).toMatch(/SELECT|owns/);
    // A table a later migration adds, made by the owner: the read role reads it as it is.
    const owner = new pg.Client({ connectionString: url(names.sync) });
    await owner.connect();
    try {
      await owner.query("CREATE TABLE later_table (id text PRIMARY KEY)");
      await owner.query("INSERT INTO later_table VALUES ('x')");
    } finally {
      await owner.end();
    }
    const later = await cli.pep(["sql", "SELECT id FROM later_table", "-o", "csv"], { env: reader });
    expect(later.code, later.err).toBe(0);
    expect(later.out).toContain("x");
  }, 120_000);
});
