/**
 * How a PostgreSQL library fails, as a CI job branches on it: a role the server does not
 * know (exit 3), a database that does not exist (exit 2), a server that accepts and never
 * answers (exit 6 within --timeout), a connection cut mid-read (exit 6), a grant missing
 * (exit 3, naming it), a schema older (exit 2, nothing written, as a SELECT-only role) or
 * newer (exit 2 at once: the process ends, no connection left open). Each is its own
 * `error.code`, never "unexpected" or a network error. Processes are spawned where the
 * point is that the run ends by itself.
 */
import { createServer, type Server, type Socket } from "node:net";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPep, spawnPep, scratchIf } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { PG_URL, pgSchemaUrl, requirePgInCi } from "./helpers.js";

requirePgInCi();

/** The JSON error: the last line of the output (a notice, the synthetic-data one, may come before it). */
const errorOf = (out: string) => JSON.parse(out.trim().split("\n").pop()!).error as { code: string; message: string };

let base: Record<string, string> = {};

/** `pep <argv> -o json` against `db`: its exit code and its error object. */
async function failing(argv: string[], db: string, spawn = false) {
  const env = { ...base, PEP_DB: db, PEP_API_KEY: "sbx_full_key" };
  const r = spawn
    ? await spawnPep([...argv, "-o", "json"], { env, timeoutMs: 30_000 })
    : await runPep([...argv, "-o", "json"], { env });
  return { code: r.code, err: r.err, error: r.out.trim() ? errorOf(r.out) : errorOf(r.err) };
}

describe.skipIf(!PG_URL)("a PostgreSQL library that fails", () => {
  const cli = useSandboxCli();
  const tag = `${process.pid}_${Date.now()}`;
  const schema = `pep_fail_${tag}`;
  const reader = `pep_fail_reader_${tag}`;
  let url: string;
  let admin: pg.Client;

  const tmp = scratchIf(Boolean(PG_URL), "pep-pg-fail-");
  beforeAll(async () => {
    base = { ...tmp.env, PEP_DATA_DIR: path.join(tmp.dir, "data"), PEP_BASE_URL: cli.baseUrl };
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    url = pgSchemaUrl(PG_URL!, schema);
    const r = await cli.pep(["sync", "categories", "research-areas", "-q"], { env: { PEP_DB: url } });
    expect(r.code, r.err).toBe(0);
    await admin.query(`CREATE ROLE "${reader}" LOGIN`);
    await admin.query(`GRANT CONNECT ON DATABASE "${new URL(PG_URL!).pathname.slice(1)}" TO "${reader}"`);
  }, 120_000);

  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.query(`DROP OWNED BY "${reader}"`).catch(() => undefined);
    await admin.query(`DROP ROLE IF EXISTS "${reader}"`);
    await admin.end();
    tmp.cleanup();
  });

  const as = (role: string, database?: string) => {
    const u = new URL(url);
    u.username = role;
    if (database) u.pathname = `/${database}`;
    return u.toString();
  };

  it("a role the server does not know: exit 3, library_auth_failed", async () => {
    const r = await failing(["sql", "SELECT 1"], as(`pep_nobody_${tag}`));
    expect(r.code).toBe(3);
    expect(r.error.code).toBe("library_auth_failed");
  });

  it("a database that does not exist: exit 2, library_db_missing", async () => {
    const r = await failing(["sql", "SELECT 1"], as("pep", `pep_no_db_${tag}`));
    expect(r.code).toBe(2);
    expect(r.error.code).toBe("library_db_missing");
  });

  it("a grant missing: exit 3, library_permission_denied, naming what to grant", async () => {
    await admin.query(`GRANT USAGE ON SCHEMA "${schema}" TO "${reader}"`);
    await admin.query(`GRANT SELECT ON "${schema}".schema_migrations TO "${reader}"`);
    const r = await failing(["changes"], as(reader));
    expect(r.code).toBe(3);
    expect(r.error.code).toBe("library_permission_denied");
    expect(r.error.message).toMatch(/permission denied/);
    expect(r.err).toMatch(/SELECT/);
  });

  it("a connection cut in the middle of a read: exit 6, library_unavailable", async () => {
    const r = await failing(["sql", "SELECT pg_terminate_backend(pg_backend_pid())"], url);
    expect(r.code).toBe(6);
    expect(r.error.code).toBe("library_unavailable");
  });

  it("a server that accepts and never answers: exit 6 within --timeout, for a reader and a sync", async () => {
    const sockets = new Set<Socket>();
    const server: Server = createServer((s) => {
      sockets.add(s);
      s.on("close", () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as { port: number }).port;
    try {
      const db = `postgres://pep@127.0.0.1:${port}/silent`;
      // Side by side: each waits out its own second.
      const runs = [
        ["sql", "SELECT 1", "--timeout", "1"],
        ["--offline", "categories", "--timeout", "1"],
        ["sync", "categories", "--timeout", "1"],
      ];
      const results = await Promise.all(runs.map((argv) => failing(argv, db, true)));
      for (const [i, r] of results.entries()) {
        expect(r.code, `${runs[i]!.join(" ")}: ${r.err}`).toBe(6);
        expect(r.error.code).toBe("library_unavailable");
      }
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 120_000);

  it("a library of an older schema: a SELECT-only reader is told to run pep sync (exit 2), and nothing is written", async () => {
    const old = `${schema}_old`;
    await admin.query(`CREATE SCHEMA "${old}"`);
    try {
      await admin.query(
        `CREATE TABLE "${old}".schema_migrations (version bigint PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`,
      );
      await admin.query(
        `INSERT INTO "${old}".schema_migrations VALUES (1, 'resource tables, syncs, changes, meta', 'x')`,
      );
      await admin.query(`GRANT USAGE ON SCHEMA "${old}" TO "${reader}"`);
      await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA "${old}" TO "${reader}"`);
      const db = pgSchemaUrl(as(reader), old);
      for (const argv of [["sql", "SELECT 1"], ["changes"], ["--offline", "categories"]]) {
        const r = await failing(argv, db, true);
        expect(r.code, r.err).toBe(2);
        expect(r.error.code).toBe("library_schema_old");
        expect(r.err).toMatch(/pep sync/);
      }
      const v = await admin.query(`SELECT max(version) AS v FROM "${old}".schema_migrations`);
      expect(Number(v.rows[0].v)).toBe(1);
    } finally {
      await admin.query(`DROP SCHEMA "${old}" CASCADE`);
    }
  }, 120_000);

  it("a library of a newer schema: every command exits 2 at once, its connection closed", async () => {
    const next = `${schema}_new`;
    await admin.query(`CREATE SCHEMA "${next}"`);
    try {
      await admin.query(
        `CREATE TABLE "${next}".schema_migrations (version bigint PRIMARY KEY, name text NOT NULL, applied_at text NOT NULL)`,
      );
      await admin.query(`INSERT INTO "${next}".schema_migrations VALUES (99, 'future', 'x')`);
      // As this file's own role, so that its connections are told apart from other tests'.
      await admin.query(`GRANT USAGE ON SCHEMA "${next}" TO "${reader}"`);
      await admin.query(`GRANT SELECT ON ALL TABLES IN SCHEMA "${next}" TO "${reader}"`);
      const db = pgSchemaUrl(as(reader), next);
      for (const argv of [["sql", "SELECT 1"], ["changes"], ["--offline", "categories"], ["sync", "categories"]]) {
        const r = await failing(argv, db, true);
        expect(r.code, `${argv.join(" ")}: ${r.err}`).toBe(2);
        expect(r.error.code).toBe("library_schema_new");
      }
      const left = await admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE usename = $1", [reader]);
      expect(Number(left.rows[0].n)).toBe(0);
    } finally {
      await admin.query(`DROP SCHEMA "${next}" CASCADE`);
    }
  }, 120_000);
});
