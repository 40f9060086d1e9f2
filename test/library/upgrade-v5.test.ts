/**
 * Schema version 5 on a library made by the released pep (test/fixtures/library, version
 * 3), with rows of its own in the tables version 5 changes: the bookkeeping moves to
 * `_pep_*` with its rows (a walk in progress goes on), `price_value` is filled from each
 * price's item text (the staged ones too), the full-text index holds the studies and
 * peptides already there, a link row whose owner is gone is dropped (as the sync would),
 * the keys are declared, and the views answer.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Db } from "../../src/library/db.js";
import { openLibraryAt } from "../../src/library/open.js";
import { openSqlite } from "../../src/library/sqlite.js";
import { ROOT, scratch } from "../helpers/cli.js";
import { hasSqlite, PG_URL, pgSchemaUrl, requirePgInCi } from "./helpers.js";

requirePgInCi();

const fixture = (name: string) => gunzipSync(readFileSync(path.join(ROOT, "test", "fixtures", "library", name)));

/** Rows in version 3's tables, as that pep wrote them (PostgreSQL: jsonb beside the text). */
async function fill(db: Pick<Db, "run">, pgStore: boolean): Promise<void> {
  const row = async (table: string, id: string, cols: Record<string, unknown>, item: unknown) => {
    const names = Object.keys(cols);
    const text = JSON.stringify(item);
    const itemCols = pgStore ? ["item", "item_text"] : ["item"];
    const values = pgStore ? [text, text] : [text];
    const marks = [...names.map(() => "?"), ...(pgStore ? ["?::jsonb", "?"] : ["?"])];
    await db.run(
      `INSERT INTO ${table} (id, ${[...names, ...itemCols].join(", ")}, ord, first_seen, last_seen, last_sync) VALUES (?, ${marks.join(", ")}, 0, 'a', 'a', 1)`,
      [id, ...Object.values(cols), ...values],
    );
  };
  const json = (v: unknown) => JSON.stringify(v);
  await row(
    "studies",
    "pmid-1",
    { title: "Zanthoquil in rodents", journal: "J", authors: json(["Quillfeather A"]) },
    {
      id: "pmid-1",
      title: "Zanthoquil in rodents",
    },
  );
  await row(
    "peptides",
    "pep-1",
    { name: "Pep One", also_known_as: json(["Zorbatide"]), summary: "s" },
    { id: "pep-1" },
  );
  await row(
    "prices",
    "off_1",
    { peptide_id: "pep-1", vendor_id: "vnd_1", price: "12.50", currency: "USD" },
    {
      id: "off_1",
      price: "12.50",
    },
  );
  await row(
    "prices",
    "off_2",
    { peptide_id: "pep-1", vendor_id: "vnd_1", price: "call us", currency: "USD" },
    {
      id: "off_2",
      price: "call us",
    },
  );
  // A walk of prices in progress: one staged item with its text, and the checkpoint.
  await db.run(
    pgStore
      ? 'INSERT INTO staged_prices (id, price, item, ord) VALUES (\'off_3\', \'7\', \'{"id":"off_3","price":"7.25"}\', 0)'
      : "INSERT INTO staged_prices (id, price, item, ord, first_seen, last_seen, last_sync) VALUES ('off_3', '7', '{\"id\":\"off_3\",\"price\":\"7.25\"}', 0, 'a', 'a', 1)",
  );
  await db.run(
    "INSERT INTO sync_state (resource, sync_id, started_at, query, cursor, ord_next, pages) VALUES ('prices', 1, 'a', 'q', 'c2', 1, 1)",
  );
  await db.run("INSERT INTO peptide_studies (peptide_id, study_id, position) VALUES ('pep-1', 'pmid-1', 0)");
  await db.run("INSERT INTO peptide_studies (peptide_id, study_id, position) VALUES ('pep-gone', 'pmid-1', 0)");
  await db.run("INSERT INTO study_cited_by (study_id, peptide_id, position) VALUES ('pmid-1', 'pep-1', 0)");
}

/** What version 5 must have made of those rows, read the same way in both stores. */
async function expectUpgraded(db: Db, pgStore: boolean): Promise<void> {
  const all = (sql: string) => db.all(sql);
  expect(await all("SELECT id, price, price_value FROM prices ORDER BY id")).toEqual([
    { id: "off_1", price: "12.50", price_value: 12.5 },
    { id: "off_2", price: "call us", price_value: null },
  ]);
  expect(await all("SELECT id, price_value FROM _pep_staged_prices")).toEqual([{ id: "off_3", price_value: 7.25 }]);
  expect(await all("SELECT resource, cursor FROM _pep_sync_state")).toEqual([{ resource: "prices", cursor: "c2" }]);
  expect(await all("SELECT peptide_id FROM peptide_studies")).toEqual([{ peptide_id: "pep-1" }]);
  const search = pgStore
    ? (table: string, word: string) => `SELECT id FROM ${table} WHERE fts @@ to_tsquery('simple', '${word}')`
    : (table: string, word: string) =>
        `SELECT t.id FROM ${table}_fts f JOIN ${table} t ON t.rowid = f.rowid WHERE ${table}_fts MATCH '${word}'`;
  expect(await all(search("studies", "zanthoquil"))).toEqual([{ id: "pmid-1" }]);
  expect(await all(search("studies", "quillfeather"))).toEqual([{ id: "pmid-1" }]);
  expect(await all(search("peptides", "zorbatide"))).toEqual([{ id: "pep-1" }]);
  expect(await all("SELECT study_id, peptide_name FROM study_citing_peptides")).toEqual([
    { study_id: "pmid-1", peptide_name: "Pep One" },
  ]);
  expect(await all("SELECT peptide_id, title FROM peptide_cited_studies")).toEqual([
    { peptide_id: "pep-1", title: "Zanthoquil in rodents" },
  ]);
  expect(await all("SELECT vendor_id, offers, min_price, max_price FROM peptide_price_ranges")).toEqual([
    { vendor_id: "vnd_1", offers: 2, min_price: 12.5, max_price: 12.5 },
  ]);
  const old = pgStore
    ? "SELECT table_name AS t FROM information_schema.tables WHERE table_schema = current_schema() AND (table_name LIKE 'staged%' OR table_name IN ('pages', 'sync_state'))"
    : "SELECT name AS t FROM sqlite_master WHERE name LIKE 'staged%' OR name IN ('pages', 'sync_state')";
  expect(await all(old)).toEqual([]);
}

describe.skipIf(!hasSqlite())("schema version 5 on the v3 fixture, SQLite", () => {
  let tmp: ReturnType<typeof scratch>;
  beforeAll(() => {
    tmp = scratch("pep-v5-");
  });
  afterAll(() => tmp?.cleanup());

  it("moves the bookkeeping, fills price_value and the full-text index, declares the keys", async () => {
    const dir = path.join(tmp.dir, "lib");
    mkdirSync(dir, { mode: 0o700 });
    const file = path.join(dir, "lib.sqlite");
    writeFileSync(file, fixture("v3.sqlite.gz"), { mode: 0o600 });
    const old = openSqlite(file, { readOnly: false });
    await fill(old, false);
    await old.close();
    const lib = await openLibraryAt({ kind: "sqlite", file }, { write: true });
    try {
      await expectUpgraded(lib.db, false);
      const keys = await lib.db.all(
        "SELECT m.name AS t, f.\"from\" AS c, f.\"table\" AS r FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.name IN ('prices', 'products', 'peptide_studies', 'study_cited_by') ORDER BY 1, 2",
      );
      expect(keys).toHaveLength(7);
      expect(await lib.db.all("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY 1")).toEqual(
        ["peptides_ad", "peptides_ai", "peptides_au", "studies_ad", "studies_ai", "studies_au"].map((name) => ({
          name,
        })),
      );
    } finally {
      await lib.close();
    }
  });
});

describe.skipIf(!PG_URL)("schema version 5 on the v3 fixture, PostgreSQL", () => {
  const schema = `pep_v5_${process.pid}_${Date.now()}`;
  let admin: pg.Client;
  beforeAll(async () => {
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(fixture("v3.postgres.sql.gz").toString("utf8").replaceAll("pep_fixture", schema));
  });
  afterAll(async () => {
    await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
  });

  it("moves the bookkeeping, fills price_value and the tsvector, keeps as constraints only the keys the sync keeps true", async () => {
    const url = pgSchemaUrl(PG_URL!, schema);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await fill(
        {
          run: async (sql: string, params: readonly unknown[] = []) => {
            let n = 0;
            return (
              (
                await client.query(
                  sql.replace(/\?/g, () => `$${++n}`),
                  [...params],
                )
              ).rowCount ?? 0
            );
          },
        },
        true,
      );
    } finally {
      await client.end();
    }
    const lib = await openLibraryAt({ kind: "postgres", url }, { write: true });
    try {
      await expectUpgraded(lib.db, true);
      const keys = await lib.db.all(
        "SELECT conname AS name FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace ORDER BY 1",
      );
      expect(keys).toEqual([{ name: "peptide_studies_peptide_id_fkey" }, { name: "study_cited_by_study_id_fkey" }]);
    } finally {
      await lib.close();
    }
  });
});
