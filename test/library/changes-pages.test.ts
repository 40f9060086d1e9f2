/**
 * `pep changes` reads the change log page by page (commands/library/changes.ts
 * changePages): every row once, oldest first, the next page asked only when the one
 * before is used up, so a long log is never held whole. On both stores (PostgreSQL's
 * `seq` comes back as text, and is the key of the next page all the same).
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changePages } from "../../src/commands/library/changes.js";
import type { Db, Queryable } from "../../src/library/db.js";
import { type Library, openLibraryAt } from "../../src/library/open.js";
import { openPostgres } from "../../src/library/postgres.js";
import { scratch } from "../helpers/cli.js";
import { hasSqlite, PG_URL, pgSchemaUrl } from "./helpers.js";

const ROWS = 23;

/** `db`, counting the statements run and the most rows any one of them gave. */
function counted(db: Queryable) {
  const seen = { statements: 0, most: 0 };
  const q: Queryable = {
    all: async <T>(sql: string, params?: readonly unknown[]) => {
      const rows = await db.all<T>(sql, params);
      seen.statements += 1;
      seen.most = Math.max(seen.most, rows.length);
      return rows;
    },
    get: (sql, params) => db.get(sql, params),
    run: (sql, params) => db.run(sql, params),
  };
  return { q, seen };
}

async function fill(db: Db): Promise<void> {
  await db.transaction(async (tx) => {
    for (let i = 0; i < ROWS; i++)
      await tx.run("INSERT INTO changes (sync_id, at, resource, id, kind) VALUES (?, ?, ?, ?, 'added')", [
        1 + (i % 2),
        `2026-11-0${1 + (i % 3)}T00:00:00.000Z`,
        i % 2 ? "studies" : "peptides",
        `x-${i}`,
      ]);
  });
}

async function collect(it: AsyncIterable<Record<string, unknown>>) {
  const out: Array<Record<string, unknown>> = [];
  for await (const r of it) out.push(r);
  return out;
}

function pagesOf(name: string, runs: boolean, open: () => Promise<{ lib: Library; done: () => Promise<void> }>) {
  describe.skipIf(!runs)(`the change log read page by page (${name})`, () => {
    let lib: Library;
    let done: () => Promise<void>;
    beforeAll(async () => {
      ({ lib, done } = await open());
      await fill(lib.db);
    });
    afterAll(() => done());

    it("gives every row once, oldest first, as one statement would, at most a page at a time", async () => {
      for (const [conds, params] of [
        [[], []],
        [["resource = ?"], ["studies"]],
        [
          ["at >= ?", "resource = ?"],
          ["2026-11-02T00:00:00.000Z", "peptides"],
        ],
      ] as const) {
        const where = conds.length ? ` WHERE ${conds.join(" AND ")}` : "";
        const whole = await lib.db.all(
          `SELECT seq, at, sync_id, resource, id, kind, field, old_value, new_value FROM changes${where} ORDER BY seq`,
          params,
        );
        for (const size of [5, whole.length, 500]) {
          const { q, seen } = counted(lib.db);
          expect(await collect(changePages(q, conds, params, size))).toEqual(whole);
          expect(seen.most).toBeLessThanOrEqual(size);
          expect(seen.statements).toBe(Math.floor(whole.length / size) + 1);
        }
      }
    });

    it("asks the next page only when the one before is used up", async () => {
      const { q, seen } = counted(lib.db);
      const rows = changePages(q, [], [], 5);
      for (let i = 0; i < 5; i++) await rows.next();
      expect(seen.statements).toBe(1);
      expect((await rows.next()).value).toMatchObject({ id: "x-5" });
      expect(seen.statements).toBe(2);
      await rows.return(undefined);
    });
  });
}

pagesOf("SQLite", hasSqlite(), async () => {
  const tmp = scratch("pep-changes-");
  const lib = await openLibraryAt({ kind: "sqlite", file: path.join(tmp.dir, "lib.sqlite") }, { write: true });
  return {
    lib,
    done: async () => {
      await lib.close();
      tmp.cleanup();
    },
  };
});

pagesOf("PostgreSQL", Boolean(PG_URL), async () => {
  const schema = `t_${process.pid}_changes_${Math.random().toString(36).slice(2, 8)}`;
  const admin = await openPostgres(PG_URL!, { readOnly: false });
  await admin.exec(`CREATE SCHEMA "${schema}"`);
  const lib = await openLibraryAt({ kind: "postgres", url: pgSchemaUrl(PG_URL!, schema) }, { write: true });
  return {
    lib,
    done: async () => {
      await lib.close();
      await admin.exec(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.close();
    },
  };
});
