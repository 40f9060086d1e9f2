import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { LibraryError, UsageError } from "../../src/core/errors.js";
import { MIGRATIONS, migrate, schemaVersion } from "../../src/library/migrations.js";
import { LibraryMissingError, LibrarySchemaOldError, openLibraryAt } from "../../src/library/open.js";
import { defaultLibraryFile, libraryTarget } from "../../src/library/location.js";
import { LIBRARY_RESOURCES } from "../../src/api/enums.js";
import { LIBRARY, SCHEMA_VERSION } from "../../src/library/schema.js";
import { openSqlite } from "../../src/library/sqlite.js";
import { scratch } from "../helpers/cli.js";
import { hasSqlite } from "./helpers.js";

let tmp: ReturnType<typeof scratch>;
beforeEach(() => {
  tmp = scratch("pep-lib-");
});
afterEach(() => tmp.cleanup());

const mode = (p: string) => statSync(p).mode & 0o777;

describe("where the library lives", () => {
  it("is one file per profile in $PEP_DATA_DIR, else $XDG_DATA_HOME/pep, else ~/.local/share/pep", () => {
    expect(defaultLibraryFile({ PEP_DATA_DIR: "/d" }, "work")).toBe("/d/library/work.sqlite");
    expect(defaultLibraryFile({ XDG_DATA_HOME: "/x", HOME: "/h" }, "default")).toBe("/x/pep/library/default.sqlite");
    expect(defaultLibraryFile({ HOME: "/h" }, "default")).toBe("/h/.local/share/pep/library/default.sqlite");
    expect(libraryTarget("lib.db", {}, "/w", "default")).toEqual({ kind: "sqlite", file: "/w/lib.db" });
    expect(libraryTarget("postgres://u@h/db", {}, "/w", "default")).toEqual({
      kind: "postgres",
      url: "postgres://u@h/db",
    });
  });
});

describe.skipIf(!hasSqlite())("the SQLite library", () => {
  it("is made on first write: folder 0700, file 0600, every migration applied", async () => {
    // In the scratch folder: without PEP_DATA_DIR this was the user's own ~/.local/share/pep,
    // where a library another pep made (a newer schema) failed the test.
    const file = defaultLibraryFile({ ...tmp.env, PEP_DATA_DIR: path.join(tmp.dir, "data") }, "default");
    const lib = await openLibraryAt({ kind: "sqlite", file }, { write: true });
    expect(mode(path.dirname(file))).toBe(0o700);
    expect(mode(file)).toBe(0o600);
    expect(await schemaVersion(lib.db)).toBe(SCHEMA_VERSION);
    const tables = (await lib.db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table'")).map(
      (r) => r.name,
    );
    for (const r of LIBRARY_RESOURCES) expect(tables).toContain(LIBRARY[r].table);
    for (const t of ["details", "peptide_studies", "_pep_pages", "changes", "syncs", "meta", "schema_migrations"])
      expect(tables).toContain(t);
    const cols = (await lib.db.all<{ name: string; type: string }>("PRAGMA table_info(peptides)")).map(
      (c) => `${c.name}:${c.type}`,
    );
    expect(cols).toEqual(
      expect.arrayContaining([
        "id:TEXT",
        "evidence_level:TEXT",
        "evidence_human_studies:INTEGER",
        "also_known_as:TEXT",
        "item:TEXT",
        "ord:INTEGER",
        "first_seen:TEXT",
        "last_seen:TEXT",
        "synthetic:INTEGER",
      ]),
    );
    await lib.close();
  });

  it("reading a library that does not exist is exit 2 with a hint to sync, and makes nothing", async () => {
    const file = path.join(tmp.dir, "none", "lib.sqlite");
    const err = await openLibraryAt({ kind: "sqlite", file }, { write: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LibraryMissingError);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as UsageError).hints.join(" ")).toMatch(/pep sync/);
    expect(() => statSync(path.dirname(file))).toThrow();
  });

  for (const from of [0, ...MIGRATIONS.slice(0, -1).map((m) => m.version)]) {
    it(`migrates a library of schema version ${from} to ${SCHEMA_VERSION}, keeping its rows`, async () => {
      const file = path.join(tmp.dir, `v${from}.sqlite`);
      writeFileSync(file, "", { mode: 0o600 });
      const old = openSqlite(file, { readOnly: false });
      await migrate(old, from);
      expect(await schemaVersion(old)).toBe(from);
      if (from >= 1) {
        await old.run(
          "INSERT INTO studies (id, title, item, ord, first_seen, last_seen, last_sync) VALUES ('pmid-1', 'T', '{\"id\":\"pmid-1\"}', 0, 'a', 'a', 1)",
        );
      }
      await old.close();
      if (from >= 1) {
        // A reader never migrates: exit 2 naming pep sync, the library left at its version.
        const refused = await openLibraryAt({ kind: "sqlite", file }, { write: false }).catch((e: unknown) => e);
        expect(refused).toBeInstanceOf(LibrarySchemaOldError);
        expect((refused as LibraryError).exitCode).toBe(2);
        expect((refused as LibraryError).code).toBe("library_schema_old");
        expect((refused as LibraryError).hints.join(" ")).toMatch(/pep sync/);
        const still = openSqlite(file, { readOnly: true });
        expect(await schemaVersion(still)).toBe(from);
        await still.close();
      }
      const lib = await openLibraryAt({ kind: "sqlite", file }, { write: true });
      expect(await schemaVersion(lib.db)).toBe(SCHEMA_VERSION);
      if (from >= 1) expect(await lib.db.get("SELECT id, title FROM studies")).toEqual({ id: "pmid-1", title: "T" });
      const applied = await lib.db.all<{ version: number }>("SELECT version FROM schema_migrations ORDER BY version");
      expect(applied.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      await lib.close();
    });
  }

  it("refuses a library made by a newer pep (exit 2), naming both versions", async () => {
    const file = path.join(tmp.dir, "new.sqlite");
    (await openLibraryAt({ kind: "sqlite", file }, { write: true })).close();
    const db = openSqlite(file, { readOnly: false });
    await db.run("INSERT INTO schema_migrations VALUES (99, 'future', 'x')");
    await db.close();
    const err = await openLibraryAt({ kind: "sqlite", file }, { write: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LibraryError);
    expect((err as LibraryError).code).toBe("library_schema_new");
    expect((err as LibraryError).exitCode).toBe(2);
    expect((err as Error).message).toMatch(/schema version 99, newer than this pep knows \(5\)/);
  });

  it("a read-only open refuses every write", async () => {
    const file = path.join(tmp.dir, "ro.sqlite");
    await (await openLibraryAt({ kind: "sqlite", file }, { write: true })).close();
    const lib = await openLibraryAt({ kind: "sqlite", file }, { write: false });
    await expect(lib.db.run("DELETE FROM studies")).rejects.toThrow(/readonly|read-only|query_only/i);
    await lib.close();
  });

  it("refuses a library file that is a symbolic link, another user's, or writable by others", async () => {
    const real = path.join(tmp.dir, "real.sqlite");
    await (await openLibraryAt({ kind: "sqlite", file: real }, { write: true })).close();
    const link = path.join(tmp.dir, "link.sqlite");
    symlinkSync(real, link);
    await expect(openLibraryAt({ kind: "sqlite", file: link }, { write: false })).rejects.toThrow(/symbolic link/);
    chmodSync(real, 0o666);
    await expect(openLibraryAt({ kind: "sqlite", file: real }, { write: true })).rejects.toThrow(
      /writable by others \(mode 0666\)/,
    );
    const dir = path.join(tmp.dir, "open");
    mkdirSync(dir);
    chmodSync(dir, 0o777);
    await expect(openLibraryAt({ kind: "sqlite", file: path.join(dir, "x.sqlite") }, { write: true })).rejects.toThrow(
      /folder .* writable by others/,
    );
  });

  it("a file that is not a library is exit 2 naming it", async () => {
    const file = path.join(tmp.dir, "notes.sqlite");
    writeFileSync(file, "just some text, not a database at all\n".repeat(200), { mode: 0o600 });
    const err = await openLibraryAt({ kind: "sqlite", file }, { write: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toContain(file);
  });

  it("is read by Python's sqlite3 as it is", async () => {
    const file = path.join(tmp.dir, "py.sqlite");
    const lib = await openLibraryAt({ kind: "sqlite", file }, { write: true });
    await lib.db.run(
      "INSERT INTO studies (id, title, publication_year, item, ord, first_seen, last_seen, last_sync) VALUES ('pmid-1', 'T', 2020, '{\"id\":\"pmid-1\",\"n\":1.10}', 0, 'a', 'a', 1)",
    );
    await lib.close();
    const out = execFileSync(
      "python3",
      [
        "-c",
        "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); print(c.execute('select id, publication_year, item from studies').fetchall())",
        file,
      ],
      { encoding: "utf8" },
    );
    expect(out.trim()).toBe(`[('pmid-1', 2020, '{"id":"pmid-1","n":1.10}')]`);
  });
});
