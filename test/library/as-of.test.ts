/**
 * `--as-of`: a search re-run as the library knew it on day 1. Day 1 syncs and exports
 * online with `--manifest`; the data then changes on the server (a study added at the
 * front, one removed, one reclassified, an offer repriced) and is synced; the same
 * exports re-run `--offline --as-of` day 1 hash as day 1's did, on SQLite and PostgreSQL.
 * Also: an unchanged re-sync keeps no version and no order, `pep changes --from/--to`
 * tells what moved, refusals name why, and pruning keeps what `--as-of` needs unless
 * `--versions` is asked. Over loopback, against a server whose data the test moves.
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { defaultLists, type FakeApi, startFakeApi } from "./fake-api.js";
import { hasSqlite, PG_URL, pgSchemaUrl, requirePgInCi, libraryEnv } from "./helpers.js";

requirePgInCi();

/** The exports of the day-1 search: a study export, the studies listed, the offers. */
const EXPORTS: Array<{ name: string; argv: string[] }> = [
  { name: "studies.csv", argv: ["studies", "export"] },
  { name: "studies.ndjson", argv: ["studies", "list", "--all", "-o", "ndjson"] },
  { name: "prices.json", argv: ["prices", "--all"] },
];
/** What the search reads: studies, the peptides they cite, the offers. */
const SYNCED = ["studies", "peptides", "prices"];
/** One peptide's studies: the loopback server does not filter, so compared with day 1's offline answer. */
const CITED = ["studies", "export", "--peptide", "pep-1", "-o", "ndjson"];

const sha = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

function suite(store: "sqlite" | "postgres") {
  let api: FakeApi;
  let tmp: ReturnType<typeof scratch>;
  let env: Record<string, string>;
  let admin: pg.Client | undefined;
  const schema = `pep_asof_${process.pid}_${Date.now()}`;
  const day1: Record<string, { sha: string; manifest: Record<string, any> }> = {};
  let citedDay1 = "";
  const pep = (argv: string[]) => runPep(argv, { env });
  const sql = async (query: string) => {
    const r = await pep(["sql", query, "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    return JSON.parse(r.out) as Array<Record<string, unknown>>;
  };
  const kept = async () =>
    (await sql("SELECT (SELECT COUNT(*) FROM item_versions) AS v, (SELECT COUNT(*) FROM _pep_walk_orders) AS o"))[0];
  /** A statement on the library itself, as another program would run it (to age its records). */
  const write = async (statement: string) => {
    if (admin) {
      await admin.query(`SET search_path TO "${schema}"`);
      await admin.query(statement);
      return;
    }
    const { DatabaseSync } = process.getBuiltinModule("node:sqlite") as {
      DatabaseSync: new (file: string) => { exec(sql: string): void; close(): void };
    };
    const file = new DatabaseSync(env.PEP_DB!);
    try {
      file.exec(statement);
    } finally {
      file.close();
    }
  };
  const exportAll = async (dir: string, extra: string[]) => {
    const out: Record<string, { sha: string; manifest: Record<string, any> }> = {};
    for (const e of EXPORTS) {
      mkdirSync(path.join(tmp.dir, dir), { recursive: true });
      const file = path.join(tmp.dir, dir, e.name);
      const r = await pep([...extra, ...e.argv, "--file", file, "--manifest", "-q"]);
      expect(r.code, `${e.name}: ${r.err}`).toBe(0);
      const manifest = JSON.parse(readFileSync(`${file}.manifest.json`, "utf8"));
      expect(manifest.sha256).toBe(sha(file));
      out[e.name] = { sha: manifest.sha256, manifest };
    }
    return out;
  };

  beforeAll(async () => {
    const lists = defaultLists(40);
    api = await startFakeApi(lists);
    tmp = scratch("pep-asof-");
    env = libraryEnv(api, tmp);
    if (store === "postgres") {
      admin = new pg.Client({ connectionString: PG_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA "${schema}"`);
      env.PEP_DB = pgSchemaUrl(PG_URL!, schema);
    } else env.PEP_DB = path.join(tmp.dir, "lib.sqlite");
    // Day 1: sync 1, and the search run online.
    const s1 = await pep(["sync", ...SYNCED, "-q"]);
    expect(s1.code, s1.err).toBe(0);
    Object.assign(day1, await exportAll("day1", []));
    const cited = await pep(["--offline", ...CITED]);
    expect(cited.code, cited.err).toBe(0);
    citedDay1 = cited.out;
    // The data moves: a study added at the front, one removed, one reclassified, a reprice.
    const studies = api.lists.studies!;
    studies.unshift({ ...studies[0]!, id: "pmid-9999", pmid: "9999", title: "New", cited_by: ["pep-1"] });
    studies.splice(20, 1); // pmid-1019, after the one added at the front
    const moved = studies.find((s) => s.id === "pmid-1004")!;
    Object.assign(moved, { evidence_classification: "human_study", evidence_classification_label: "Human study" });
    api.raw.price = "13.75";
    const s2 = await pep(["sync", ...SYNCED, "-q"]);
    expect(s2.code, s2.err).toBe(0);
  }, 120_000);
  afterAll(async () => {
    await api?.close();
    tmp?.cleanup();
    if (admin) {
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  });

  it("re-runs day 1's exports --as-of day 1: every SHA-256 equals day 1's, by sync id and by date", async () => {
    const today = await exportAll("today", ["--offline"]);
    for (const e of EXPORTS) expect(today[e.name]!.sha, e.name).not.toBe(day1[e.name]!.sha);
    const [first] = await sql("SELECT finished_at FROM syncs WHERE id = 1");
    for (const asOf of ["1", String(first!.finished_at)]) {
      const again = await exportAll(`as-of-${asOf.length}`, ["--offline", "--as-of", asOf]);
      for (const e of EXPORTS) {
        expect(again[e.name]!.sha, `${e.name} as of ${asOf}`).toBe(day1[e.name]!.sha);
        const m = again[e.name]!.manifest;
        expect(m.items).toBe(day1[e.name]!.manifest.items);
        expect(m.library).toMatchObject({ sync_id: 1, as_of: asOf });
      }
    }
    const cited = await pep(["--offline", "--as-of", "1", ...CITED]);
    expect(cited.code, cited.err).toBe(0);
    expect(cited.out).toBe(citedDay1);
    expect(cited.out).not.toBe((await pep(["--offline", ...CITED])).out);
  }, 60_000);

  it("keeps only what moved: the versions of the changed and removed items, one order per changed walk; an unchanged re-sync keeps nothing", async () => {
    const versions = await sql("SELECT resource, id, valid_from, valid_to FROM item_versions ORDER BY resource, id");
    expect(versions).toEqual([
      { resource: "prices", id: "off_1", valid_from: 1, valid_to: 2 },
      { resource: "studies", id: "pmid-1004", valid_from: 1, valid_to: 2 },
      { resource: "studies", id: "pmid-1019", valid_from: 1, valid_to: 2 },
    ]);
    // Orders: each resource's first walk, and the studies walk whose order moved.
    const orders = await sql("SELECT resource, sync_id FROM _pep_walk_orders WHERE sync_id = 2");
    expect(orders).toEqual([{ resource: "studies", sync_id: 2 }]);
    const before = await kept();
    const s3 = await pep(["sync", ...SYNCED, "-q"]);
    expect(s3.code, s3.err).toBe(0);
    expect(await kept()).toEqual(before);
  }, 60_000);

  it("pep changes --from 1 --to 2 tells what moved between the two, with pep changes' columns", async () => {
    const r = await pep(["changes", "--from", "1", "--to", "2", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    const rows = JSON.parse(r.out) as Array<Record<string, unknown>>;
    expect(rows.map((c) => [c.resource, c.kind, c.id, c.field ?? null]).sort()).toEqual(
      [
        ["prices", "changed", "off_1", "price"],
        ["studies", "added", "pmid-9999", null],
        ["studies", "changed", "pmid-1004", "evidence_classification"],
        ["studies", "changed", "pmid-1004", "evidence_classification_label"],
        ["studies", "removed", "pmid-1019", null],
      ].sort(),
    );
    const all = await pep(["changes", "-o", "json"]);
    expect(Object.keys(rows[0]!)).toEqual(Object.keys(JSON.parse(all.out)[0]));
    const none = await pep(["changes", "--from", "2", "--to", "3", "-o", "json", "--exit-status"]);
    expect(none.code, none.err).toBe(0);
    expect(JSON.parse(none.out)).toEqual([]);
    expect((await pep(["changes", "--from", "2", "--to", "1"])).code).toBe(2);
    expect((await pep(["changes", "--to", "2"])).code).toBe(2);
    // A date before the first sync starts at the log's beginning; a sync it lacks is refused, naming the flag.
    const since = await pep(["changes", "--from", "2000-01-01", "-o", "json"]);
    expect(since.code, since.err).toBe(0);
    expect(JSON.parse(since.out)).toEqual(JSON.parse(all.out));
    const unknown = await pep(["changes", "--from", "99"]);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/^error: --from: the library holds no sync 99/m);
  }, 60_000);

  it("refuses with exit 2 naming why: a date before the first sync, an unknown sync, a bad value, --as-of without --offline or with --max-age", async () => {
    const cases: Array<[string[], RegExp, string]> = [
      [
        ["--offline", "--as-of", "2001-01-01", "studies", "list"],
        /before the library's first complete sync/,
        "library_not_kept",
      ],
      [["--offline", "--as-of", "99", "studies", "list"], /holds no sync 99/, "library_not_kept"],
      [["--offline", "--as-of", "yesterday", "studies", "list"], /--as-of takes a sync id/, "usage_error"],
      [["--as-of", "1", "studies", "list"], /goes with --offline/, "usage_error"],
      [["--offline", "--as-of", "1", "--max-age", "7d", "studies", "list"], /do not go together/, "usage_error"],
    ];
    for (const [argv, message, code] of cases) {
      const r = await pep([...argv, "-o", "json"]);
      expect(r.code, `${argv.join(" ")}: ${r.err}`).toBe(2);
      expect(r.out).toBe("");
      const err = JSON.parse(r.err.trim().split("\n").pop()!);
      expect(err.error.code).toBe(code);
      expect(err.error.message).toMatch(message);
    }
  }, 60_000);

  it("an item whose version is gone refuses the pages that hold it, not a page before it that reads ahead", async () => {
    // Day 1's fifth study (pmid-1004, reclassified since) as if its version were pruned.
    await write("UPDATE item_versions SET id = 'aside' WHERE resource = 'studies' AND id = 'pmid-1004'");
    try {
      const all = await pep(["--offline", "--as-of", "1", "studies", "list", "--all", "-o", "ids"]);
      expect(all.code, all.err).toBe(2);
      expect(all.err).toContain("the text of studies pmid-1004 as of sync 1 is no longer kept");
      const before = await pep(["--offline", "--as-of", "1", "studies", "list", "--limit", "3", "-o", "ids"]);
      expect(before.code, before.err).toBe(0);
      expect(before.out.trim().split("\n")).toEqual(["pmid-1000", "pmid-1001", "pmid-1002"]);
    } finally {
      await write("UPDATE item_versions SET id = 'pmid-1004' WHERE resource = 'studies' AND id = 'aside'");
    }
  }, 60_000);

  it("--prune keeps the versions --as-of needs; with --versions they go, and --as-of day 1 is refused", async () => {
    // Every sync and change row is made a year old.
    await write("UPDATE changes SET at = '2025-01-01T00:00:00.000Z'");
    await write("UPDATE syncs SET started_at = '2025-01-01T00:00:00.000Z', finished_at = '2025-01-01T00:00:01.000Z'");
    const r = await pep(["changes", "--prune", "1h", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ versions: 0 });
    const still = await pep(["--offline", "--as-of", "1", "prices", "--all", "-o", "json"]);
    expect(still.code, still.err).toBe(0);
    expect(still.out).toContain("12.50");
    // The log was pruned: a range from before then is refused rather than told empty.
    const range = await pep(["changes", "--from", "1", "--to", "2", "-o", "json"]);
    expect(range.code).toBe(2);
    expect(range.err).toContain("library_not_kept");
    expect((await pep(["changes", "--versions"])).code).toBe(2);
    const gone = await pep(["changes", "--prune", "1h", "--versions", "-o", "json"]);
    expect(gone.code, gone.err).toBe(0);
    expect(JSON.parse(gone.out)).toMatchObject({ versions: 3 });
    const refused = await pep(["--offline", "--as-of", "1", "prices", "--all", "-o", "json"]);
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/library_not_kept/);
    const now = await pep(["--offline", "--as-of", "3", "prices", "--all", "-o", "json"]);
    expect(now.code, now.err).toBe(0);
    expect(now.out).toContain("13.75");
  }, 60_000);
}

describe.skipIf(!hasSqlite())("--as-of on a SQLite library", () => suite("sqlite"));
describe.skipIf(!PG_URL)("--as-of on a PostgreSQL library", () => suite("postgres"));
