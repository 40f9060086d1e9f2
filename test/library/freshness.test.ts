/**
 * How fresh the library is, told and enforced: `pep sync --status`, `--max-age` on the
 * readers (`--offline`, `pep sql`, `pep changes`), the offline notice and the manifest
 * naming the walk that answered each resource (not merely the last sync), and
 * `pep changes --prune`. Ages are made by moving a walk's end back in the file itself.
 * Needs node:sqlite: skipped on Node 20 only.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SCHEMA_VERSION } from "../../src/library/schema.js";
import { inProcessPep, scratchIf } from "../helpers/cli.js";
import { readManifest } from "../helpers/manifest.js";
import { hasSqlite } from "./helpers.js";

const DAY = 86_400_000;

describe.skipIf(!hasSqlite())("the library's freshness", () => {
  const tmp = scratchIf(hasSqlite(), "pep-fresh-");
  const dir = tmp.dir;
  afterAll(() => tmp.cleanup());
  const db = path.join(dir, "lib.sqlite");
  const env = {
    PEP_CONFIG_DIR: path.join(dir, "config"),
    PEP_CACHE_DIR: path.join(dir, "cache"),
    PEP_DATA_DIR: path.join(dir, "data"),
  };
  const pep = (argv: string[]) => inProcessPep(["--db", db, ...argv], { env, timeoutMs: 60_000 });
  /** A statement on the file itself, as another program would run it. */
  const write = async (sql: string, ...params: (string | number)[]) => {
    const { DatabaseSync } = process.getBuiltinModule("node:sqlite") as {
      DatabaseSync: new (file: string) => { prepare(sql: string): { run(...p: unknown[]): unknown }; close(): void };
    };
    const file = new DatabaseSync(db);
    try {
      file.prepare(sql).run(...params);
    } finally {
      file.close();
    }
  };
  const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

  beforeAll(async () => {
    const studies = await pep(["--sandbox", "sync", "studies", "-q"]);
    expect(studies.code, studies.err).toBe(0);
    const categories = await pep(["--sandbox", "sync", "categories", "-q"]);
    expect(categories.code, categories.err).toBe(0);
    // Studies were read whole ten days ago; categories just now, by a later sync.
    await write("UPDATE walks SET finished_at = ? WHERE resource = 'studies'", ago(10 * DAY));
  }, 120_000);

  it("pep sync --status: per resource its items and the age of its last complete walk, in every format", async () => {
    const r = await pep(["sync", "--status", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    const rows = JSON.parse(r.out) as Record<string, unknown>[];
    expect(rows.map((x) => x.resource)).toEqual([
      "peptides",
      "studies",
      "vendors",
      "products",
      "prices",
      "categories",
      "research-areas",
    ]);
    const by = Object.fromEntries(rows.map((x) => [x.resource, x]));
    const count = await pep(["sql", "SELECT COUNT(*) AS n FROM studies", "-o", "json"]);
    expect(by.studies).toMatchObject({ items: JSON.parse(count.out)[0].n, sync_id: 1, age: "10d" });
    expect(by.studies!.age_seconds).toBeGreaterThanOrEqual(10 * 86400);
    expect(by.categories).toMatchObject({ sync_id: 2 });
    expect(by.categories!.age_seconds).toBeLessThan(3600);
    expect(by.peptides).toMatchObject({ items: 0, sync_id: null, synced_at: null, age: "never" });
    for (const row of rows)
      expect(row).toMatchObject({ library: db, dialect: "sqlite", schema_version: SCHEMA_VERSION });
    expect(by.studies!.size_bytes).toBeGreaterThan(10_000);
    expect(r.err).toMatch(
      new RegExp(`^library .*lib\\.sqlite \\(SQLite, [\\d.]+ [kM]B, schema version ${SCHEMA_VERSION}\\)$`, "m"),
    );

    const csv = await pep(["sync", "studies", "categories", "--status", "-o", "csv"]);
    expect(csv.code, csv.err).toBe(0);
    const lines = csv.out.trim().split(/\r?\n/);
    expect(lines[0]).toBe("resource,items,sync_id,synced_at,age");
    expect(lines.slice(1).map((l) => l.split(",")[0])).toEqual(["studies", "categories"]);

    const both = await pep(["sync", "--status", "--full"]);
    expect(both.code).toBe(2);
    expect(both.err).toContain("--status syncs nothing");
  }, 60_000);

  it("--offline answers name the walk that answered, and a manifest records it per resource", async () => {
    const file = path.join(dir, "studies.json");
    const r = await pep(["--offline", "studies", "list", "--limit", "3", "--file", file, "--manifest"]);
    expect(r.code, r.err).toBe(0);
    const walk = await pep(["sql", "SELECT finished_at FROM walks WHERE resource = 'studies'", "-o", "json"]);
    const studiesAt = JSON.parse(walk.out)[0].finished_at as string;
    // The studies walk of ten days ago, not the categories sync that finished last.
    expect(r.err).toContain(`from the local library, synced ${studiesAt}`);
    const manifest = readManifest(file);
    expect(manifest.source).toBe("library");
    expect(manifest.library.sync_id).toBe(2);
    expect(manifest.library.resources).toEqual({
      studies: { sync_id: 1, synced_at: studiesAt, sync_started_at: expect.any(String), items: expect.any(Number) },
    });

    const cats = await pep(["--offline", "categories"]);
    expect(cats.code, cats.err).toBe(0);
    expect(cats.err).not.toContain(studiesAt);
  }, 60_000);

  it("--max-age refuses a resource walked longer ago, or never, with exit 6 and library_stale", async () => {
    const fresh = await pep(["--offline", "--max-age", "1h", "categories", "-o", "json"]);
    expect(fresh.code, fresh.err).toBe(0);
    const stale = await pep(["--offline", "--max-age", "7d", "studies", "list", "-o", "json"]);
    expect(stale.code).toBe(6);
    expect(stale.out).toBe("");
    const err = JSON.parse(stale.err.trim().split("\n").pop()!);
    expect(err.error.code).toBe("library_stale");
    expect(err.error.message).toMatch(/^--max-age 7d: studies synced 10d( \d+h)? ago \(/);
    expect(err.hints.join(" ")).toContain("pep sync studies");
    const older = await pep(["--offline", "--max-age", "11d", "studies", "list", "--limit", "1"]);
    expect(older.code, older.err).toBe(0);
    const never = await pep(["--offline", "--max-age", "30d", "peptides", "list"]);
    expect(never.code).toBe(6);
    expect(never.err).toContain("peptides never synced");

    // pep sql: the resources whose tables the query names.
    expect((await pep(["--max-age", "7d", "sql", "SELECT COUNT(*) FROM studies"])).code).toBe(6);
    expect((await pep(["--max-age", "7d", "sql", "SELECT COUNT(*) FROM categories"])).code).toBe(0);
    expect((await pep(["--max-age", "7d", "sql", "SELECT 1"])).code).toBe(0);
    // pep changes: the resource asked for, else every resource some walk has read.
    expect((await pep(["--max-age", "7d", "changes", "--resource", "categories"])).code).toBe(0);
    const changes = await pep(["--max-age", "7d", "changes"]);
    expect(changes.code).toBe(6);
    expect(changes.err).toContain("studies synced");
    expect(changes.err).not.toContain("peptides");
  }, 60_000);

  it("a bad --max-age, or one on a command that reads no library, is refused before anything is read", async () => {
    const bad = await pep(["--offline", "--max-age", "soon", "studies", "list"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain(
      '--max-age must be a duration: a whole number and a unit, s, m, h, d or w (30m, 12h, 7d, 2w) (got "soon")',
    );
    const online = await pep(["--sandbox", "--max-age", "7d", "studies", "list"]);
    expect(online.code).toBe(2);
    expect(online.err).toContain(
      "--max-age says how old the local library may be: it goes with --offline, pep sql and pep changes",
    );
  }, 60_000);

  it("pep changes --prune removes old change rows and the sync records nothing names, and says how many", async () => {
    // The studies sync's rows are old; a sync record of its own age names nothing.
    await write("UPDATE changes SET at = ? WHERE sync_id = 1", ago(40 * DAY));
    await write(
      "INSERT INTO syncs (started_at, finished_at, base_url, pep_version, resources, status) VALUES (?, ?, 'x', 'x', 'x', 'partial')",
      ago(41 * DAY),
      ago(41 * DAY),
    );
    // A later sync: the newest record is never pruned, whatever its age.
    expect((await pep(["--sandbox", "sync", "research-areas", "-q"])).code).toBe(0);
    const old = JSON.parse(
      (await pep(["sql", "SELECT COUNT(*) AS n FROM changes WHERE sync_id = 1", "-o", "json"])).out,
    )[0].n;
    const before = JSON.parse((await pep(["sql", "SELECT COUNT(*) AS n FROM changes", "-o", "json"])).out)[0].n;
    const r = await pep(["changes", "--prune", "30d", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out), r.out).toMatchObject({ changes: old, syncs: 1 });
    const after = JSON.parse((await pep(["sql", "SELECT COUNT(*) AS n FROM changes", "-o", "json"])).out)[0].n;
    expect(after).toBe(before - old);
    // The studies walk's sync stays: --status and --offline still name it.
    const kept = await pep(["sql", "SELECT id FROM syncs ORDER BY id", "-o", "json"]);
    expect((JSON.parse(kept.out) as { id: number }[]).map((s) => s.id)).toEqual([1, 2, 4]);
    const again = await pep(["changes", "--prune", "30d", "-o", "json"]);
    expect(JSON.parse(again.out)).toMatchObject({ changes: 0, syncs: 0 });
    expect((await pep(["changes", "--prune", "30d", "--since", "last"])).code).toBe(2);
  }, 60_000);
});
