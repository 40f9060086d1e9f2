/**
 * Libraries made by each schema version, kept in test/fixtures/library (README.md there
 * says how each was made, by the pep of that version): each is opened as it is, refused by
 * a reader when older (nothing written), migrated forward by a sync's open, and then has
 * the schema of a library made fresh today, with its rows kept and its typed columns as a
 * fresh sync of the same data fills them.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Db } from "../../src/library/db.js";
import { LibrarySchemaOldError, openLibraryAt } from "../../src/library/open.js";
import type { LibraryTarget } from "../../src/library/location.js";
import { LIBRARY_RESOURCES, type LibraryResource } from "../../src/api/enums.js";
import { resolveAsOf, resourceAsOf, textsAsOf } from "../../src/library/as-of.js";
import { LIBRARY, SCHEMA_VERSION } from "../../src/library/schema.js";
import { ROOT, scratch } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { hasSqlite, PG_URL, pgSchemaUrl, requirePgInCi } from "./helpers.js";

requirePgInCi();

const FIXTURES = path.join(ROOT, "test", "fixtures", "library");
const VERSIONS = [1, 2, 3, 4, 5];
/** What the v3, v4 and v5 fixtures hold: `pep --sandbox sync` of these, by the pep of that version. */
const SYNCED = ["categories", "research-areas", "vendors"];

const fixture = (name: string) => gunzipSync(readFileSync(path.join(FIXTURES, name)));

/** The schema as comparable text: each table's columns (name, type, not null, key) and each index. */
async function schemaOf(db: Db): Promise<string[]> {
  if (db.dialect === "sqlite") {
    const objects = await db.all<{ type: string; name: string }>(
      "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY name",
    );
    const out: string[] = [];
    for (const o of objects) {
      if (o.type !== "table") {
        out.push(`${o.type} ${o.name}`);
        continue;
      }
      const cols = await db.all<{ name: string; type: string; notnull: number; pk: number }>(
        `SELECT name, type, "notnull", pk FROM pragma_table_info('${o.name}')`,
      );
      for (const c of cols) out.push(`${o.name}.${c.name} ${c.type} ${c.notnull} ${c.pk}`);
      const keys = await db.all<{ from: string; table: string; on_delete: string }>(
        `SELECT "from", "table", on_delete FROM pragma_foreign_key_list('${o.name}')`,
      );
      for (const k of keys) out.push(`${o.name}.${k.from} references ${k.table} on delete ${k.on_delete}`);
    }
    return out.sort();
  }
  const cols = await db.all<{ t: string; c: string; ty: string; n: string }>(
    "SELECT table_name AS t, column_name AS c, data_type AS ty, is_nullable AS n FROM information_schema.columns WHERE table_schema = current_schema()",
  );
  const idx = await db.all<{ i: string; d: string }>(
    "SELECT indexname AS i, regexp_replace(indexdef, ' ON [^ ]+\\.', ' ON ') AS d FROM pg_indexes WHERE schemaname = current_schema()",
  );
  const keys = await db.all<{ d: string }>(
    "SELECT conrelid::regclass::text || ' ' || pg_get_constraintdef(oid) AS d FROM pg_constraint WHERE connamespace = current_schema()::regnamespace",
  );
  return [
    ...cols.map((r) => `${r.t}.${r.c} ${r.ty} ${r.n}`),
    ...idx.map((r) => `index ${r.i} ${r.d}`),
    ...keys.map((r) => `constraint ${r.d}`),
  ].sort();
}

/** The rows a sync fills, without what differs from run to run (times, the sandbox's port, sync ids). */
async function contentOf(db: Db): Promise<Record<string, unknown[]>> {
  const out: Record<string, unknown[]> = {};
  for (const r of LIBRARY_RESOURCES) {
    const lib = LIBRARY[r];
    const cols = lib.columns.map((c) => `"${c.name}"`);
    out[r] = await db.all(`SELECT id, ${cols.join(", ")}, ord, synthetic FROM "${lib.table}" ORDER BY ord`);
  }
  out.details = await db.all("SELECT resource, id, kind FROM details ORDER BY resource, id, kind");
  // The sandbox's links name the port it ran on.
  return JSON.parse(JSON.stringify(out).replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:PORT"));
}

/**
 * What `--as-of` reads is there: a library of version 3 gets its current state as the
 * first version (each synced resource's order, valid from its last complete walk), and
 * reads back as of that sync as it reads now.
 */
async function expectVersionsKept(db: Db): Promise<void> {
  const sync = await resolveAsOf(db, "1");
  for (const r of SYNCED as LibraryResource[]) {
    const state = await resourceAsOf(db, r, sync);
    const now = await db.all<{ id: string }>(`SELECT id FROM "${LIBRARY[r].table}" ORDER BY ord`);
    expect(state.ids).toEqual(now.map((x) => x.id));
    const texts = await textsAsOf(db, r, state, sync.id, state.ids);
    expect(texts).toHaveLength(now.length);
  }
  const unset = await db.all(`SELECT id FROM categories WHERE COALESCE(valid_from, last_sync) <> 1`);
  expect(unset).toEqual([]);
}

async function expectLikeFresh(target: LibraryTarget, fresh: LibraryTarget, version: number): Promise<void> {
  if (version < SCHEMA_VERSION) {
    const refused = await openLibraryAt(target, { write: false }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LibrarySchemaOldError);
  }
  const before = await openLibraryAt(target, { write: false }).catch(() => undefined);
  const kept = before ? await contentOf(before.db) : undefined;
  await before?.close();
  const lib = await openLibraryAt(target, { write: true });
  const made = await openLibraryAt(fresh, { write: false });
  try {
    expect(await schemaOf(lib.db)).toEqual(await schemaOf(made.db));
    if (kept) expect(await contentOf(lib.db)).toEqual(kept);
    if (version >= 3) {
      expect(await contentOf(lib.db)).toEqual(await contentOf(made.db));
      await expectVersionsKept(lib.db);
    }
  } finally {
    await lib.close();
    await made.close();
  }
}

describe.skipIf(!hasSqlite())("SQLite libraries made by each schema version", () => {
  const cli = useSandboxCli();
  let tmp: ReturnType<typeof scratch>;
  let fresh: LibraryTarget;
  beforeEach(async () => {
    tmp = scratch("pep-fixture-");
    const data = path.join(tmp.dir, "fresh");
    const r = await cli.pep(["--sandbox", "sync", ...SYNCED, "-q"], { env: { PEP_DATA_DIR: data } });
    expect(r.code, r.err).toBe(0);
    // A sandbox sync with no --db fills the sandbox's own library.
    fresh = { kind: "sqlite", file: path.join(data, "library", "sandbox", "default.sqlite") };
  });
  afterEach(() => tmp.cleanup());

  for (const v of VERSIONS) {
    it(`opens the library of version ${v}, migrates it to ${SCHEMA_VERSION}, and it equals a fresh one`, async () => {
      const dir = path.join(tmp.dir, `v${v}`);
      mkdirSync(dir, { mode: 0o700 });
      const file = path.join(dir, "lib.sqlite");
      writeFileSync(file, fixture(`v${v}.sqlite.gz`), { mode: 0o600 });
      await expectLikeFresh({ kind: "sqlite", file }, fresh, v);
    });
  }
});

describe.skipIf(!PG_URL)("PostgreSQL libraries made by each schema version", () => {
  const cli = useSandboxCli();
  const tag = `${process.pid}_${Date.now()}`;
  const schemas: string[] = [];
  let admin: pg.Client;
  let fresh: LibraryTarget;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    const s = `pep_fx_fresh_${tag}`;
    schemas.push(s);
    await admin.query(`CREATE SCHEMA "${s}"`);
    fresh = { kind: "postgres", url: pgSchemaUrl(PG_URL!, s) };
    const r = await cli.pep(["--sandbox", "--db", fresh.url, "sync", ...SYNCED, "-q"]);
    expect(r.code, r.err).toBe(0);
  }, 120_000);
  afterAll(async () => {
    for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await admin.end();
  });

  for (const v of VERSIONS) {
    it(`restores the dump of version ${v}, migrates it to ${SCHEMA_VERSION}, and it equals a fresh one`, async () => {
      const s = `pep_fx_v${v}_${tag}`;
      schemas.push(s);
      // The dump names its schema pep_fixture, and sets search_path: replayed on a client of its own.
      const dump = fixture(`v${v}.postgres.sql.gz`).toString("utf8").replaceAll("pep_fixture", s);
      const loader = new pg.Client({ connectionString: PG_URL });
      await loader.connect();
      try {
        await loader.query(dump);
      } finally {
        await loader.end();
      }
      await expectLikeFresh({ kind: "postgres", url: pgSchemaUrl(PG_URL!, s) }, fresh, v);
    }, 60_000);
  }
});
