/**
 * Manifests of answers from the library (docs/cli.md#manifests): `--offline` (here with
 * `--sandbox`, which reads the sandbox's own library), `pep sql` and `pep changes` name
 * the library by its identity, the walks that answered, the stored request of each page
 * read, the names resolved and the statement as run, and each fits the schema.
 * Needs node:sqlite: skipped on Node 20 only.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessPep, scratchIf } from "../helpers/cli.js";
import { readManifest } from "../helpers/manifest.js";
import { hasSqlite } from "./helpers.js";
import { SCHEMA_VERSION } from "../../src/library/schema.js";

describe.skipIf(!hasSqlite())("manifests of answers from the library", () => {
  const tmp = scratchIf(hasSqlite(), "pep-manifest-lib-");
  const dir = tmp.dir;
  afterAll(() => tmp.cleanup());
  const env = {
    PEP_CONFIG_DIR: path.join(dir, "config"),
    PEP_CACHE_DIR: path.join(dir, "cache"),
    PEP_DATA_DIR: path.join(dir, "data"),
  };
  const pep = (argv: string[]) => inProcessPep(argv, { env, cwd: dir, timeoutMs: 60_000 });
  const rows = async (sql: string) => JSON.parse((await pep(["--sandbox", "sql", sql, "-o", "json"])).out);

  beforeAll(async () => {
    const r = await pep(["--sandbox", "sync", "peptides", "studies", "-q"]);
    expect(r.code, r.err).toBe(0);
  }, 120_000);

  it("--offline --sandbox reads the sandbox's library: the walks, the stored pages read, the name resolved, as online", async () => {
    const argv = ["studies", "export", "--peptide", "BRV-81"];
    const online = await pep(["--sandbox", ...argv, "--file", "online.csv", "--manifest"]);
    expect(online.code, online.err).toBe(0);
    const r = await pep(["--offline", "--sandbox", ...argv, "--file", "offline.csv", "--manifest"]);
    expect(r.code, r.err).toBe(0);
    expect(readFileSync(path.join(dir, "offline.csv"), "utf8")).toBe(
      readFileSync(path.join(dir, "online.csv"), "utf8"),
    );
    expect(r.err).toMatch(/from the local library, synced /);
    expect(r.err).toMatch(/sandbox data, synthetic/);

    const on = readManifest(path.join(dir, "online.csv"));
    const m = readManifest(path.join(dir, "offline.csv"));
    const [walk] = await rows(
      "SELECT w.sync_id, w.finished_at, s.started_at FROM walks w JOIN syncs s ON s.id = w.sync_id WHERE resource = 'studies'",
    );
    expect(m).toMatchObject({
      source: "library",
      synthetic: true,
      requests: [],
      items: on.items,
      sha256: on.sha256,
      api: { name: "Peptide research API (sandbox)", version: "v1" },
      resolved: [{ resource: "peptides", given: "BRV-81", id: on.resolved[0].id, by: "library" }],
      library: {
        location: "default.sqlite",
        dialect: "sqlite",
        schema_version: SCHEMA_VERSION,
        resources: {
          studies: { sync_id: walk.sync_id, synced_at: walk.finished_at, sync_started_at: walk.started_at, items: 300 },
          peptides: { sync_id: 1 },
        },
      },
    });
    expect(m.library.as_of).toBeNull();
    // Each study written is on a stored page listed, as the sync asked for it; and the resolved peptide's page.
    const pages = await rows("SELECT resource, cursor, item_ids, etag FROM _pep_pages");
    const listed = m.library.pages as Array<{ resource: string; path: string; query: string; etag: string }>;
    const held = (p: { resource: string; query: string }) => {
      const cursor = new URLSearchParams(p.query).get("cursor") ?? "";
      return JSON.parse(
        pages.find((x: { resource: string; cursor: string }) => x.resource === p.resource && x.cursor === cursor)
          .item_ids,
      );
    };
    const written = readFileSync(path.join(dir, "offline.csv"), "utf8").match(/^(doi|pmid|nct)-[^,]+/gm) ?? [];
    expect(written.length).toBe(m.items);
    for (const id of written) expect(listed.some((p) => p.resource === "studies" && held(p).includes(id))).toBe(true);
    expect(listed.filter((p) => p.resource === "peptides").every((p) => held(p).includes("brevritarin-81"))).toBe(true);
    for (const p of listed)
      expect(p).toMatchObject({ path: `/v1/${p.resource}`, query: expect.stringMatching(/^limit=100/) });

    // Without --sandbox the run reads the profile's own library, which no sync filled.
    const plain = await pep(["--offline", ...argv]);
    expect(plain.code).toBe(2);
  });

  it("pep sql names the library, its complete walks and the statement as run", async () => {
    const sql = "SELECT id, title FROM studies ORDER BY id LIMIT 3";
    const r = await pep(["--sandbox", "sql", sql, "--file", "q.csv", "--manifest"]);
    expect(r.code, r.err).toBe(0);
    const m = readManifest(path.join(dir, "q.csv"));
    const [sync] = await rows("SELECT id, finished_at, base_url FROM syncs ORDER BY id DESC LIMIT 1");
    expect(m).toMatchObject({
      source: "library",
      synthetic: true,
      base_url: sync.base_url,
      api_version: "v1",
      items: 3,
      library: {
        sync_id: sync.id,
        synced_at: sync.finished_at,
        location: "default.sqlite",
        query: { sql, params: [] },
      },
    });
    expect(Object.keys(m.library.resources).sort()).toEqual(["peptides", "studies"]);

    // --tables describes the library: its manifest names it, with no statement.
    const tables = await pep(["--sandbox", "sql", "--tables", "--file", "t.csv", "--manifest"]);
    expect(tables.code, tables.err).toBe(0);
    const t = readManifest(path.join(dir, "t.csv"));
    expect(t).toMatchObject({ source: "library", synthetic: true, library: { location: "default.sqlite" } });
    expect(t.library.query).toBeUndefined();
  });

  it("pep changes names the library, the walks of what it covers and its reading of the log", async () => {
    const r = await pep([
      "--sandbox",
      "changes",
      "--since",
      "last",
      "--resource",
      "studies",
      "--file",
      "c.csv",
      "--manifest",
    ]);
    expect(r.code, r.err).toBe(0);
    const m = readManifest(path.join(dir, "c.csv"));
    expect(m).toMatchObject({ source: "library", synthetic: true, items: 300 });
    expect(Object.keys(m.library.resources)).toEqual(["studies"]);
    expect(m.library.query.sql).toMatch(/^SELECT .* FROM changes WHERE .*resource = \? ORDER BY seq$/);
    expect(m.library.query.params).toContain("studies");
  });
});
