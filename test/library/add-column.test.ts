/**
 * A column added to a resource, on a copy of src/, as docs/adding-an-endpoint.md says: the
 * column in schema.ts's list, and a migration of its own (`addColumns`) with the next
 * version. A library made by the released pep (test/fixtures/library, schema version 4)
 * is then upgraded by the copy: the column is there, in the table and in its staging
 * table, filled from the item text it keeps, and the library's schema equals one the copy
 * makes fresh. Nothing of the released versions' DDL is touched to get there.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type * as OpenModule from "../../src/library/open.js";
import { ROOT, scratch } from "../helpers/cli.js";
import { copySources, type SrcCopy } from "../helpers/src-copy.js";
import { hasSqlite, PG_URL, pgSchemaUrl, requirePgInCi } from "./helpers.js";

requirePgInCi();

const fixture = (name: string) => gunzipSync(readFileSync(path.join(ROOT, "test", "fixtures", "library", name)));

describe.skipIf(!hasSqlite() && !PG_URL)(
  "a column added to a resource upgrades a library made by the released pep",
  () => {
    let copy: SrcCopy;
    let tmp: ReturnType<typeof scratch>;
    let open: typeof OpenModule;
    beforeAll(async () => {
      tmp = scratch("pep-addcol-");
      copy = copySources("pep-addcol-");
      // The vendor's rating object as a column of its own (its parts are columns already).
      copy.replaceOnce(
        "src/library/schema.ts",
        '    "rating.average:real",',
        '    "rating:json",\n    "rating.average:real",',
      );
      copy.replaceOnce("src/library/schema.ts", "export const SCHEMA_VERSION = 5;", "export const SCHEMA_VERSION = 6;");
      copy.insertAfter(
        "src/library/migrations.ts",
        "    statements: frozen(V5),\n  },",
        '\n  { version: 6, name: "vendors.rating", statements: addColumns("vendors", ["rating:json"]) },',
      );
      open = await copy.load<typeof OpenModule>("src/library/open.ts");
    }, 60_000);
    afterAll(() => {
      copy?.cleanup();
      tmp?.cleanup();
    });

    it.skipIf(!hasSqlite())(
      "SQLite: the v4 fixture gains the column, filled from each vendor's item",
      async () => {
        const dir = path.join(tmp.dir, "sqlite");
        mkdirSync(dir, { mode: 0o700 });
        const file = path.join(dir, "lib.sqlite");
        writeFileSync(file, fixture("v4.sqlite.gz"), { mode: 0o600 });
        // The copy's reader refuses the older library, then its sync's open upgrades it.
        await expect(open.openLibraryAt({ kind: "sqlite", file }, { write: false })).rejects.toMatchObject({
          code: "library_schema_old",
        });
        const lib = await open.openLibraryAt({ kind: "sqlite", file }, { write: true });
        try {
          const rows = await lib.db.all<{ rating: string; item: string }>("SELECT rating, item FROM vendors");
          expect(rows.length).toBeGreaterThan(0);
          for (const r of rows) expect(JSON.parse(r.rating)).toEqual(JSON.parse(r.item).rating);
          const staged = await lib.db.all<{ name: string }>(
            "SELECT name FROM pragma_table_info('_pep_staged_vendors')",
          );
          expect(staged.map((c) => c.name)).toContain("rating");
        } finally {
          await lib.close();
        }
        // A sync by the copy goes on with it, and a fresh library of the copy has the same columns.
        const fresh = path.join(dir, "fresh.sqlite");
        for (const db of [file, fresh]) {
          const r = await copy.pep(["--sandbox", "sync", "vendors", "--db", db, "-q"]);
          expect(r.code, r.err).toBe(0);
        }
        const columns = async (db: string) => {
          const l = await open.openLibraryAt({ kind: "sqlite", file: db }, { write: false });
          try {
            const cols = await l.db.all<{ name: string; type: string }>(
              "SELECT name, type FROM pragma_table_info('vendors')",
            );
            const n = await l.db.get<{ n: number }>("SELECT count(*) AS n FROM vendors WHERE rating IS NULL");
            return { cols: cols.map((c) => `${c.name} ${c.type}`).sort(), unfilled: n?.n };
          } finally {
            await l.close();
          }
        };
        expect(await columns(file)).toEqual(await columns(fresh));
        expect((await columns(file)).unfilled).toBe(0);
      },
      60_000,
    );

    it.skipIf(!PG_URL)(
      "PostgreSQL: the v4 dump gains the column, filled from each vendor's item",
      async () => {
        const schema = `pep_addcol_${process.pid}_${Date.now()}`;
        const admin = new pg.Client({ connectionString: PG_URL });
        await admin.connect();
        try {
          await admin.query(fixture("v4.postgres.sql.gz").toString("utf8").replaceAll("pep_fixture", schema));
          const url = pgSchemaUrl(PG_URL!, schema);
          const lib = await open.openLibraryAt({ kind: "postgres", url }, { write: true });
          try {
            const rows = await lib.db.all<{ rating: unknown; item: string }>(
              "SELECT rating, item_text AS item FROM vendors",
            );
            expect(rows.length).toBeGreaterThan(0);
            for (const r of rows) expect(r.rating).toEqual(JSON.parse(r.item).rating);
            const staged = await lib.db.all<{ c: string }>(
              "SELECT column_name AS c FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = '_pep_staged_vendors'",
            );
            expect(staged.map((c) => c.c)).toContain("rating");
          } finally {
            await lib.close();
          }
        } finally {
          await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
          await admin.end();
        }
      },
      60_000,
    );
  },
);
