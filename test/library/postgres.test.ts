/**
 * The library in a real PostgreSQL server (PEP_TEST_PG_URL, which .ci/run starts): the
 * same sync, change log and read-only SQL as in SQLite, the schema in jsonb, one syncer
 * at a time by an advisory lock. Kept lean: CI runs it on every leg that runs the suite.
 * Without a server it skips, except in CI, where that is a failure.
 */
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { MIGRATIONS, migrate, schemaVersion } from "../../src/library/migrations.js";
import { openLibraryAt } from "../../src/library/open.js";
import { openPostgres } from "../../src/library/postgres.js";
import { SCHEMA_VERSION } from "../../src/library/schema.js";
import { runPep, scratch } from "../helpers/cli.js";
import { type FakeApi, startFakeApi } from "./fake-api.js";
import { PG_URL, pgSchemaUrl, requirePgInCi } from "./helpers.js";

requirePgInCi();

describe.skipIf(!PG_URL)("the library in PostgreSQL", () => {
  const schemas: string[] = [];
  let admin: Awaited<ReturnType<typeof openPostgres>>;
  let api: FakeApi;
  let tmp: ReturnType<typeof scratch>;
  let url: string;
  beforeAll(async () => {
    admin = await openPostgres(PG_URL!, { readOnly: false });
  });
  afterAll(async () => {
    for (const s of schemas) await admin.exec(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
    await admin.close();
  });
  beforeEach(async () => {
    const schema = `t_${process.pid}_${schemas.length}_${Math.random().toString(36).slice(2, 8)}`;
    schemas.push(schema);
    await admin.exec(`CREATE SCHEMA "${schema}"`);
    url = pgSchemaUrl(PG_URL!, schema);
    api = await startFakeApi();
    tmp = scratch("pep-pg-");
  });
  afterEach(async () => {
    await api.close();
    tmp.cleanup();
  });
  const pep = (argv: string[]) =>
    runPep(["--db", url, ...argv], {
      env: {
        ...tmp.env,
        PEP_DATA_DIR: path.join(tmp.dir, "data"),
        PEP_BASE_URL: api.base,
        PEP_API_KEY: "k_test_123456789",
      },
    });

  it("syncs into jsonb with the text as sent beside it, re-syncs with 304s, logs changes, answers read-only SQL", async () => {
    const first = await pep(["sync", "-o", "json"]);
    expect(first.code, first.err).toBe(0);
    expect(JSON.parse(first.out)).toMatchObject({ items: 258, added: 258, status: "complete" });
    const rows = await pep(["sql", "SELECT price, item_text, item->>'currency' AS currency FROM prices", "-o", "json"]);
    expect(rows.code, rows.err).toBe(0);
    expect(JSON.parse(rows.out)).toEqual([
      {
        price: "12.50",
        item_text:
          '{"id":"off_1","peptide":{"id":"pep-0","name":"Pep 0"},"price":12.50,"currency":"USD","in_stock":true}',
        currency: "USD",
      },
    ]);
    const counted = await pep([
      "sql",
      "SELECT evidence_classification, COUNT(*) AS n FROM studies GROUP BY 1 ORDER BY 1",
      "-o",
      "csv",
    ]);
    expect(counted.out).toBe("evidence_classification,n\r\nhuman_study,125\r\nin_vitro,125\r\n");

    api.log.length = 0;
    const again = await pep(["sync", "-o", "json"]);
    expect(again.code, again.err).toBe(0);
    const s = JSON.parse(again.out);
    expect(s).toMatchObject({ added: 0, changed: 0, removed: 0 });
    // Less the peptides' cited studies of two pages each, asked whole (the first page's ETag does not cover the rest).
    expect(s.not_modified).toBe(s.requests - 6);
    const whole = (l: { path: string }) => /^\/peptides\/[^/]+\/studies$/.test(l.path);
    expect(api.log.filter((l) => !whole(l)).every((l) => l.status === 304)).toBe(true);

    api.lists.studies![3] = { ...api.lists.studies![3]!, title: "Renamed" };
    api.lists.studies!.splice(0, 1);
    const third = await pep(["sync", "studies", "-o", "json"]);
    expect(JSON.parse(third.out)).toMatchObject({ changed: 1, removed: 1, added: 0 });
    const log = JSON.parse((await pep(["changes", "--since", "last", "-o", "json"])).out) as Array<
      Record<string, unknown>
    >;
    expect(log.map((c) => [c.id, c.kind, c.field, c.new_value])).toEqual([
      ["pmid-1003", "changed", "title", "Renamed"],
      ["pmid-1000", "removed", null, null],
    ]);
    expect(
      (await pep(["sql", "SELECT COUNT(*) AS n FROM study_cited_by WHERE study_id = 'pmid-1000'", "-o", "json"])).out,
    ).toMatch(/"n": 0/);
  });

  it("a re-sync mixing 304 pages and pages with a body keeps every item in the API's order; a cut walk resumes", async () => {
    expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
    const studies = api.lists.studies!;
    studies[150] = { ...studies[150]!, title: "Changed" };
    studies.push({ ...studies[0]!, id: "pmid-9998", title: "Appended" });
    api.failPage.push({ path: "studies", offset: 200, times: 1 });
    expect((await pep(["sync", "studies", "--retries", "0"])).code).toBe(6);
    api.log.length = 0;
    const r = await pep(["sync", "studies", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ items: 251, added: 1, changed: 1, removed: 0 });
    // The last and first kept pages asked again (unchanged: 304s), then the rest.
    expect(api.log.filter((l) => l.path === "studies").map((l) => [l.cursor, l.status])).toEqual([
      ["100", 304],
      [null, 304],
      ["200", 200],
      [null, 304],
    ]);
    const ids = JSON.parse((await pep(["sql", "SELECT id FROM studies ORDER BY ord", "-o", "json"])).out) as Array<{
      id: string;
    }>;
    expect(ids.map((row) => row.id)).toEqual(studies.map((s) => s.id));
    const again = await pep(["sync", "studies", "-o", "json"]);
    expect(JSON.parse(again.out)).toMatchObject({ items: 251, added: 0, changed: 0, removed: 0, not_modified: 5 });
  });

  it("a page whose commit fails ends the sync (exit 6), though the walk does not wait for commits; the rerun asks it again", async () => {
    // The library made, then its third (last) page's commit refused, the connection left as it
    // is: a commit's failure met by nothing would let the sync publish 200 studies as complete.
    await (await openLibraryAt({ kind: "postgres", url }, { write: true })).close();
    const schema = `"${schemas[schemas.length - 1]}"`;
    await admin.exec(`CREATE FUNCTION ${schema}.cut() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.cursor = '200' THEN RAISE EXCEPTION 'cut' USING ERRCODE = '53300'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER cut BEFORE INSERT ON ${schema}._pep_staged_pages FOR EACH ROW EXECUTE FUNCTION ${schema}.cut()`);
    const cut = await pep(["sync", "studies", "-o", "json"]);
    expect(cut.code, cut.err).toBe(6);
    expect(cut.err).toMatch(/"code": ?"library_unavailable"/);
    await admin.exec(`DROP TRIGGER cut ON ${schema}._pep_staged_pages`);
    api.log.length = 0;
    const r = await pep(["sync", "studies", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ status: "complete", items: 250, added: 250 });
    // The two pages committed are kept (asked again as the resume's check), the third asked whole.
    expect(api.log.filter((l) => l.path === "studies" && l.status === 200).map((l) => l.cursor)).toContain("200");
  });

  it("a resumed walk whose list moved at the front starts over; removals are exactly those", async () => {
    expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
    api.failPage.push({ path: "studies", offset: 200, times: 1 });
    expect((await pep(["sync", "studies", "--retries", "0"])).code).toBe(6);
    const gone = api.lists.studies!.splice(0, 3).map((s) => s.id);
    const r = await pep(["sync", "studies", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^studies: starting the walk over from the first page: /m);
    const log = JSON.parse((await pep(["changes", "--since", "last", "-o", "json"])).out) as Array<{
      kind: string;
      id: string;
    }>;
    expect(log.map((c) => [c.kind, c.id])).toEqual(gone.map((id) => ["removed", id]));
  });

  it("keeps an item holding \\u0000: U+FFFD in the typed columns and jsonb, the text as sent in item_text", async () => {
    const studies = api.lists.studies!;
    studies[1] = { ...studies[1]!, title: "a\u0000b", authors: ["x\u0000y"] };
    const r = await pep(["sync", "studies", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ status: "complete", items: 250, skipped_items: 0 });
    const row = JSON.parse(
      (
        await pep([
          "sql",
          "SELECT title, authors, item->>'title' AS j, item_text FROM studies WHERE id = 'pmid-1001'",
          "-o",
          "json",
        ])
      ).out,
    )[0];
    expect(row.title).toBe("a\uFFFDb");
    expect(row.authors).toEqual(["x\uFFFDy"]);
    expect(row.j).toBe("a\uFFFDb");
    expect(row.item_text).toContain('"title":"a\\u0000b"');
    // Offline answers from the text as sent: the same bytes as online.
    const offline = await pep(["--offline", "studies", "list", "--limit", "3", "-o", "json"]);
    const online = await pep(["studies", "list", "--limit", "3", "-o", "json"]);
    expect(offline.out).toBe(online.out);
  });

  it("refuses writes and places SQL errors by PostgreSQL's position (exit 2)", async () => {
    expect((await pep(["sync", "categories", "-q"])).code).toBe(0);
    const write = await pep(["sql", "WITH gone AS (DELETE FROM categories RETURNING id) SELECT * FROM gone"]);
    expect(write.code).toBe(2);
    expect(write.err).toMatch(/pep sql only reads: the statement would write/);
    const bad = await pep(["sql", "SELECT nosuch FROM categories"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/SQL error at column 8: column "nosuch" does not exist/);
    expect((await pep(["sql", "SELECT COUNT(*) AS n FROM categories", "-o", "json"])).out).toMatch(/"n": 1/);
  });

  it("one syncer at a time (advisory lock): a second waits, or with --no-wait is refused", async () => {
    const [a, b] = await Promise.all([pep(["sync", "studies", "-q"]), pep(["sync", "studies", "-q"])]);
    expect([a.code, b.code], a.err + b.err).toEqual([0, 0]);
    api.delayMs = 250;
    const first = pep(["sync", "studies", "--full"]); // page after page: it holds the library ~750 ms
    await new Promise((r) => setTimeout(r, 300));
    const [c, d] = await Promise.all([first, pep(["sync", "studies", "--no-wait"])]);
    expect(c.code).toBe(0);
    expect(d.code, d.err).toBe(6);
    expect(d.err).toMatch(/another pep sync \(another connection\) is filling the library at postgres:\/\//);
  });

  for (const from of [0, ...MIGRATIONS.slice(0, -1).map((m) => m.version)]) {
    it(`migrates a PostgreSQL library of schema version ${from} to ${SCHEMA_VERSION}`, async () => {
      const db = await openPostgres(url, { readOnly: false });
      await migrate(db, from);
      await db.close();
      const lib = await openLibraryAt({ kind: "postgres", url }, { write: true });
      expect(await schemaVersion(lib.db)).toBe(SCHEMA_VERSION);
      await lib.close();
    });
  }
});
