/**
 * The library as the tools of data people read it (docs/library.md, "Read by other
 * tools"): the SQLite file through the `sqlite3` shell and sqlite-utils (Debian's
 * packages; .ci/run installs them), a PostgreSQL library through SQL. Each searches the
 * full-text index and joins through the declared foreign keys, after a first fill and
 * after a sync that changed, added and removed studies, so the index follows the data.
 * A missing tool skips its test, saying which and how to install it; in CI it fails.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { defaultLists, type FakeApi, type Item, startFakeApi } from "./fake-api.js";
import { hasSqlite, PG_URL, pgSchemaUrl, requirePgInCi, libraryEnv } from "./helpers.js";

requirePgInCi();

/** Why `tool` cannot run here (undefined when it can). */
function missing(tool: string, pkg: string): string | undefined {
  try {
    execFileSync(tool, ["--version"], { stdio: "ignore" });
    return undefined;
  } catch {
    return `no ${tool} on PATH (apt-get install ${pkg})`;
  }
}
const NO_SHELL = missing("sqlite3", "sqlite3");
const NO_UTILS = missing("sqlite-utils", "sqlite-utils");

it("has the sqlite3 shell and sqlite-utils in CI (.ci/run installs them)", () => {
  if (!process.env.CI) return;
  expect(NO_SHELL).toBeUndefined();
  expect(NO_UTILS).toBeUndefined();
});

/** The fake API's lists with words to search for: one study to rename, one to remove, prices to range. */
function lists(): Record<string, Item[]> {
  const l = defaultLists(30);
  l.studies![1]!.title = "Obsolete marker of a renamed study";
  l.studies![2]!.title = "Vanishing marker of a removed study";
  l.studies![3]!.authors = ["Quillfeather A", "Author 3"];
  l.peptides![0]!.also_known_as = ["Zorbatide"];
  const offer = (id: string, vendor: string, price: string) => ({
    id,
    peptide: { id: "pep-0", name: "Pep 0" },
    vendor: { id: vendor, name: vendor, slug: vendor },
    price,
    currency: "USD",
    in_stock: true,
  });
  l.prices = [offer("off_1", "vnd_1", "12.50"), offer("off_2", "vnd_1", "30.00"), offer("off_3", "vnd_2", "9.99")];
  return l;
}

/** The second day: study 1 renamed, study 2 gone, a new study; the sync's update, delete and insert paths. */
function moveData(api: FakeApi): void {
  const studies = api.lists.studies!;
  studies[1]!.title = "Zanthoquil lowers the marker";
  studies.splice(2, 1);
  studies.push({ ...studies[5]!, id: "pmid-9999", pmid: "9999", title: "Quorvant trial", cited_by: ["pep-1"] });
}

const SEARCH_JOIN = `SELECT s.id FROM studies_fts JOIN studies s ON s.rowid = studies_fts.rowid WHERE studies_fts MATCH ? ORDER BY s.id`;
const PRICE_JOIN =
  "SELECT pr.id, p.name AS peptide, v.name AS vendor, pr.price_value FROM prices pr JOIN peptides p ON p.id = pr.peptide_id JOIN vendors v ON v.id = pr.vendor_id ORDER BY pr.id";

describe.skipIf(!hasSqlite())("a SQLite library read by the sqlite3 shell and sqlite-utils", () => {
  let api: FakeApi;
  let tmp: ReturnType<typeof scratch>;
  let file: string;
  beforeAll(async () => {
    api = await startFakeApi(lists());
    tmp = scratch("pep-tools-");
    file = path.join(tmp.dir, "data", "library", "default.sqlite");
    const env = libraryEnv(api, tmp);
    const first = await runPep(["sync", "-q"], { env });
    expect(first.code, first.err).toBe(0);
    moveData(api);
    const second = await runPep(["sync", "-q"], { env });
    expect(second.code, second.err).toBe(0);
  }, 60_000);
  afterAll(async () => {
    await api?.close();
    tmp?.cleanup();
  });

  const shell = (...sql: string[]) =>
    JSON.parse(execFileSync("sqlite3", ["-json", file, ...sql], { encoding: "utf8" }) || "[]") as Array<
      Record<string, unknown>
    >;
  const quoted = (s: string) => `'${s.replace(/'/g, "''")}'`;

  it.skipIf(NO_SHELL)(
    `sqlite3: searches the full-text index and joins through the foreign keys${NO_SHELL ? ` (skipped: ${NO_SHELL})` : ""}`,
    () => {
      const search = (q: string) => shell(SEARCH_JOIN.replace("?", quoted(q))).map((r) => r.id);
      expect(search("zanthoquil")).toEqual(["pmid-1001"]);
      expect(search("obsolete")).toEqual([]);
      expect(search("vanishing")).toEqual([]);
      expect(search("quorvant")).toEqual(["pmid-9999"]);
      expect(search("quillfeather")).toEqual(["pmid-1003"]);
      expect(
        shell(
          "SELECT p.id FROM peptides_fts JOIN peptides p ON p.rowid = peptides_fts.rowid WHERE peptides_fts MATCH 'zorbatide'",
        ),
      ).toEqual([{ id: "pep-0" }]);
      // The index equals the table it indexes (FTS5's own check against its content table).
      shell("INSERT INTO studies_fts (studies_fts, rank) VALUES ('integrity-check', 1)");
      const keys = shell(
        'SELECT m.name AS t, f."from" AS c, f."table" AS r FROM sqlite_master m, pragma_foreign_key_list(m.name) f WHERE m.type = \'table\' ORDER BY 1, 2',
      );
      expect(keys).toEqual([
        { t: "_pep_staged_prices", c: "peptide_id", r: "peptides" },
        { t: "_pep_staged_prices", c: "vendor_id", r: "vendors" },
        { t: "_pep_staged_products", c: "peptide_id", r: "peptides" },
        { t: "peptide_studies", c: "peptide_id", r: "peptides" },
        { t: "peptide_studies", c: "study_id", r: "studies" },
        { t: "prices", c: "peptide_id", r: "peptides" },
        { t: "prices", c: "vendor_id", r: "vendors" },
        { t: "products", c: "peptide_id", r: "peptides" },
        { t: "study_cited_by", c: "peptide_id", r: "peptides" },
        { t: "study_cited_by", c: "study_id", r: "studies" },
      ]);
      // vnd_2 was never listed among the vendors: the price is kept, its key unenforced, and the join leaves it out.
      expect(shell(PRICE_JOIN)).toEqual([
        { id: "off_1", peptide: "Pep 0", vendor: "V One", price_value: 12.5 },
        { id: "off_2", peptide: "Pep 0", vendor: "V One", price_value: 30 },
      ]);
      expect(shell("SELECT \"table\", parent FROM pragma_foreign_key_check('prices')")).toEqual([
        { table: "prices", parent: "vendors" },
      ]);
      expect(
        shell("SELECT vendor_id, offers, min_price, max_price FROM peptide_price_ranges ORDER BY vendor_id"),
      ).toEqual([
        { vendor_id: "vnd_1", offers: 2, min_price: 12.5, max_price: 30 },
        { vendor_id: "vnd_2", offers: 1, min_price: 9.99, max_price: 9.99 },
      ]);
      expect(
        shell("SELECT study_id, peptide_id, peptide_name FROM study_citing_peptides WHERE study_id = 'pmid-9999'"),
      ).toEqual([{ study_id: "pmid-9999", peptide_id: "pep-1", peptide_name: "Pep 1" }]);
      // The data and the record, with pep's bookkeeping apart.
      const tables = shell(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%_fts%' AND name NOT LIKE '\\_pep\\_%' ESCAPE '\\' ORDER BY 1",
      ).map((r) => r.name);
      expect(tables).toEqual([
        "categories",
        "changes",
        "details",
        "item_versions",
        "meta",
        "peptide_studies",
        "peptides",
        "prices",
        "products",
        "research_areas",
        "schema_migrations",
        "studies",
        "study_cited_by",
        "syncs",
        "vendors",
        "walks",
      ]);
    },
  );

  it.skipIf(NO_UTILS)(
    `sqlite-utils: search finds the studies, a query joins through the keys${NO_UTILS ? ` (skipped: ${NO_UTILS})` : ""}`,
    () => {
      const utils = (...args: string[]) =>
        JSON.parse(execFileSync("sqlite-utils", args, { encoding: "utf8" })) as Array<Record<string, unknown>>;
      expect(utils("search", file, "studies", "zanthoquil", "-c", "id", "-c", "title")).toEqual([
        { id: "pmid-1001", title: "Zanthoquil lowers the marker" },
      ]);
      expect(utils("search", file, "peptides", "zorbatide", "-c", "id")).toEqual([{ id: "pep-0" }]);
      expect(utils("query", file, PRICE_JOIN).map((r) => r.vendor)).toEqual(["V One", "V One"]);
    },
  );
});

describe.skipIf(!PG_URL)("a PostgreSQL library read through SQL", () => {
  let api: FakeApi;
  let tmp: ReturnType<typeof scratch>;
  let admin: pg.Client;
  let client: pg.Client;
  const schema = `pep_tools_${process.pid}_${Date.now()}`;
  beforeAll(async () => {
    api = await startFakeApi(lists());
    tmp = scratch("pep-tools-pg-");
    admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`CREATE SCHEMA "${schema}"`);
    const url = pgSchemaUrl(PG_URL!, schema);
    const env = libraryEnv(api, tmp);
    for (const day of [1, 2]) {
      if (day === 2) moveData(api);
      const r = await runPep(["sync", "--db", url, "-q"], { env });
      expect(r.code, r.err).toBe(0);
    }
    client = new pg.Client({ connectionString: url });
    await client.connect();
  }, 60_000);
  afterAll(async () => {
    await client?.end();
    await admin?.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin?.end();
    await api?.close();
    tmp?.cleanup();
  });

  const rows = async (sql: string, params: unknown[] = []) => (await client.query(sql, params)).rows;

  it("searches the tsvector through its GIN index, and the views answer", async () => {
    const search = async (q: string) =>
      (await rows("SELECT id FROM studies WHERE fts @@ websearch_to_tsquery('simple', $1) ORDER BY id", [q])).map(
        (r) => r.id,
      );
    expect(await search("zanthoquil")).toEqual(["pmid-1001"]);
    expect(await search("obsolete")).toEqual([]);
    expect(await search("vanishing")).toEqual([]);
    expect(await search("quorvant")).toEqual(["pmid-9999"]);
    expect(await search("quillfeather")).toEqual(["pmid-1003"]);
    expect(
      (await rows("SELECT id FROM peptides WHERE fts @@ websearch_to_tsquery('simple', 'zorbatide')")).map((r) => r.id),
    ).toEqual(["pep-0"]);
    const plan = (await rows("EXPLAIN (COSTS OFF) SELECT id FROM studies WHERE fts @@ to_tsquery('simple', 'x')"))
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    await client.query("SET enable_seqscan = off");
    const indexed = (await rows("EXPLAIN (COSTS OFF) SELECT id FROM studies WHERE fts @@ to_tsquery('simple', 'x')"))
      .map((r) => r["QUERY PLAN"])
      .join("\n");
    await client.query("RESET enable_seqscan");
    expect(`${plan}\n${indexed}`).toMatch(/studies_fts/);
    expect(
      await rows(
        "SELECT vendor_id, offers::int, min_price::text, max_price::text FROM peptide_price_ranges ORDER BY vendor_id",
      ),
    ).toEqual([
      { vendor_id: "vnd_1", offers: 2, min_price: "12.50", max_price: "30.00" },
      { vendor_id: "vnd_2", offers: 1, min_price: "9.99", max_price: "9.99" },
    ]);
    expect(
      await rows("SELECT study_id, peptide_id, peptide_name FROM study_citing_peptides WHERE study_id = 'pmid-9999'"),
    ).toEqual([{ study_id: "pmid-9999", peptide_id: "pep-1", peptide_name: "Pep 1" }]);
    expect((await rows(PRICE_JOIN)).map((r) => r.vendor)).toEqual(["V One", "V One"]);
  });

  it("declares as constraints the keys the sync keeps true, the others as comments", async () => {
    const keys = await rows(
      `SELECT conrelid::regclass::text AS t, conname AS name, confdeltype AS on_delete FROM pg_constraint
       WHERE contype = 'f' AND connamespace = $1::regnamespace ORDER BY 1`,
      [schema],
    );
    expect(keys).toEqual([
      { t: "peptide_studies", name: "peptide_studies_peptide_id_fkey", on_delete: "c" },
      { t: "study_cited_by", name: "study_cited_by_study_id_fkey", on_delete: "c" },
    ]);
    const comment = await rows(
      "SELECT col_description(attrelid, attnum) AS c FROM pg_attribute WHERE attrelid = 'prices'::regclass AND attname = 'vendor_id'",
    );
    expect(String(comment[0]?.c)).toMatch(/^references vendors \(id\), not as a constraint/);
    // A study the second day removed took its citing rows with it.
    expect(await rows("SELECT study_id FROM study_cited_by WHERE study_id = 'pmid-1002'")).toEqual([]);
  });
});
