/**
 * `--offline` with the library in PostgreSQL (`--db postgres://…`): the same bytes as
 * online, read from the `*_text` columns (jsonb would rewrite the numbers), on any Node
 * (no node:sqlite needed). Runs against PEP_TEST_PG_URL; in CI a missing server fails.
 */
import path from "node:path";
import pg from "pg";
import { beforeAll, afterAll, describe, expect, it } from "vitest";
import { hideUrlCredentials } from "../../src/core/credentials.js";
import { fillLibraryAt } from "../helpers/library-fill.js";
import { readManifest } from "../helpers/manifest.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { PG_URL, requirePgInCi, teamSchema } from "./helpers.js";

requirePgInCi();

describe.skipIf(!PG_URL)("--offline from a PostgreSQL library", () => {
  const cli = useSandboxCli();
  const schema = `pep_offline_${process.pid}_${Date.now()}`;
  let env: Record<string, string>;
  let url: string;

  beforeAll(async () => {
    // Made by the owner role, read by a role with SELECT only (docs/library.md's team database).
    const team = await teamSchema(schema);
    url = team.readUrl;
    await fillLibraryAt(cli.baseUrl, { kind: "postgres", url: team.ownerUrl });
    env = { PEP_API_KEY: "sbx_full_key", COLUMNS: "160" };
  }, 120_000);

  afterAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}_sd" CASCADE`);
    await admin.end();
  });

  it("answers list and get commands with the online bytes, sending nothing", async () => {
    const peptides = JSON.parse((await cli.pep(["peptides", "list", "-o", "json"], { env })).out);
    const vendors = JSON.parse((await cli.pep(["vendors", "list", "-o", "json"], { env })).out);
    const cases = [
      ["peptides", "list", "--all", "-o", "json"],
      ["peptides", "get", peptides[0].id, "-o", "json"],
      ["peptides", "studies", peptides[1].id, "-o", "csv"],
      ["studies", "list", "--peptide", peptides[2].id, "-o", "json"],
      ["studies", "list", "--all", "-o", "csv"],
      ["studies", "export", "--peptide", peptides[2].id, "-o", "bibtex"],
      ["vendors", "get", vendors[0].slug, "-o", "table"],
      ["prices", "--limit", "40", "-o", "ndjson"],
      ["research-areas", "-o", "table"],
    ];
    for (const argv of cases) {
      const online = await cli.pep(argv, { env });
      const offline = await cli.pep(["--offline", "--db", url, ...argv], { env });
      expect(online.code, online.err).toBe(0);
      expect(offline.code, offline.err).toBe(0);
      expect(offline.sent).toBe(0);
      expect(offline.out).toBe(online.out);
    }
  }, 120_000);

  it("manifests of --offline, pep sql and pep changes name the library without its password, its walks and what was read", async () => {
    const peptides = JSON.parse((await cli.pep(["peptides", "list", "-o", "json"], { env })).out);
    const runs: Array<[string, string[]]> = [
      ["o.csv", ["--offline", "studies", "export", "--peptide", peptides[2].name]],
      ["q.csv", ["sql", "SELECT id FROM studies ORDER BY id LIMIT 2"]],
      ["c.csv", ["changes", "--resource", "studies"]],
    ];
    for (const [file, argv] of runs) {
      const target = path.join(cli.dir, `pg-${file}`);
      const r = await cli.pep([...argv, "--db", url, "--file", target, "--manifest"], { env });
      expect(r.code, r.err).toBe(0);
      const m = readManifest(target);
      expect(m).toMatchObject({ source: "library", synthetic: true, library: { dialect: "postgres" } });
      expect(m.library.location).toBe(hideUrlCredentials(url));
      const password = new URL(url).password;
      if (password !== "") expect(JSON.stringify(m)).not.toContain(password);
      expect(m.library.resources.studies).toMatchObject({ sync_id: expect.any(Number), items: expect.any(Number) });
    }
    const offline = readManifest(path.join(cli.dir, "pg-o.csv"));
    expect(offline.resolved).toEqual([
      { resource: "peptides", given: peptides[2].name, id: peptides[2].id, by: "library" },
    ]);
    // This library was filled without a sync's page records: no stored request to name.
    expect(offline.library.pages).toEqual([]);
    expect(readManifest(path.join(cli.dir, "pg-c.csv")).library.query.params).toEqual(["studies"]);
  }, 60_000);

  it("PEP_DB names the library as --db does, and an id it lacks is exit 4", async () => {
    const r = await cli.pep(["--offline", "peptides", "get", "no-such"], { env: { ...env, PEP_DB: url } });
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/pep sync/);
    expect(r.sent).toBe(0);
  });

  it("pep sync --study-details into PostgreSQL: studies get by each id form prints the online bytes", async () => {
    // A library filled by pep sync itself (the owner role), in a schema of its own, read by the read role.
    const team = await teamSchema(`${schema}_sd`);
    const url = team.readUrl;
    const sync = await cli.pep(["sync", "studies", "--study-details", "--db", team.ownerUrl, "-q"], { env });
    expect(sync.code, sync.err).toBe(0);
    const studies = JSON.parse((await cli.pep(["studies", "list", "--all", "-o", "json"], { env })).out);
    const s = studies.find((x: { pmid: string | null; doi: string | null }) => x.pmid && x.doi);
    const t = studies.find((x: { nct_id: string | null }) => x.nct_id);
    for (const id of [s.pmid, s.doi, `https://doi.org/${s.doi}`, t.nct_id])
      for (const format of ["json", "ris"]) {
        const argv = ["studies", "get", id, "-o", format];
        const online = await cli.pep(argv, { env });
        const offline = await cli.pep(["--offline", "--db", url, ...argv], { env });
        expect(offline.code, offline.err).toBe(0);
        expect(offline.sent).toBe(0);
        expect(offline.out).toBe(online.out);
      }
    // --no-study-details drops them: exit 4 naming the flag.
    expect((await cli.pep(["sync", "studies", "--no-study-details", "--db", team.ownerUrl, "-q"], { env })).code).toBe(
      0,
    );
    const r = await cli.pep(["--offline", "--db", url, "studies", "get", s.pmid], { env });
    expect(r.code).toBe(4);
    expect(r.err).toContain("--study-details");
  }, 120_000);
});
