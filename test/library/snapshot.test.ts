/**
 * One snapshot per reader: readers loop (`--offline studies list --all`, `pep sql`,
 * `pep changes`) while syncs alternate between two data sets, on SQLite and on
 * PostgreSQL. Each read must equal a read of one whole state: the library after data set
 * A or after data set B, never a mix (each of these reads is several queries, and a sync
 * publishes between two of them). The syncs run in-process; the readers are pep
 * processes, each with its own connection.
 */
import pg from "pg";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch, spawnPep } from "../helpers/cli.js";
import { defaultLists, type FakeApi, type Item, startFakeApi } from "./fake-api.js";
import { hasSqlite, PG_URL, requirePgInCi, teamSchema, libraryEnv } from "./helpers.js";

requirePgInCi();

const STUDIES = 900;

/** Data set A, and B: a third of A gone from the front, the rest retitled, as many new at the end. */
function dataSets(): { a: Item[]; b: Item[] } {
  const a = defaultLists(STUDIES).studies!;
  const kept = a.slice(STUDIES / 3).map((s) => ({ ...s, title: `${String(s.title)} (revised)` }));
  const added = defaultLists(STUDIES + STUDIES / 3)
    .studies!.slice(STUDIES)
    .map((s) => ({ ...s, title: `New ${String(s.title)}` }));
  return { a, b: [...kept, ...added] };
}

/** Reads that each take several queries: offline pages of 50, and pep sql / pep changes. */
const READS: string[][] = [
  ["--offline", "studies", "list", "--all", "--page-size", "50", "-o", "ids"],
  ["sql", "SELECT id, title, (SELECT count(*) FROM studies) AS n FROM studies ORDER BY ord", "-o", "csv"],
  ["changes", "--since", "last", "-o", "json", "--jq", "map([.resource, .id, .kind, .field])"],
];

async function alternate(api: FakeApi, env: Record<string, string>, readEnv = env): Promise<void> {
  const pep = (argv: string[]) => runPep(argv, { env });
  // Readers are processes of their own, as a cron job and a shell beside a sync are.
  const read = (argv: string[]) => spawnPep(argv, { env: readEnv, timeoutMs: 60_000 });
  const sets = dataSets();
  const sync = async (set: Item[]) => {
    api.lists.studies = set;
    const r = await pep(["sync", "studies", "-q"]);
    expect(r.code, r.err).toBe(0);
  };
  // The whole states: what each read gives after A, and after B, with no sync running.
  const expected = READS.map(() => new Map<string, string>());
  const reference = async (name: string) => {
    for (const [i, argv] of READS.entries()) {
      const r = await read(argv);
      expect(r.code, r.err).toBe(0);
      expected[i]!.set(r.out, name);
    }
  };
  // A round each way first, so that `--since last` has its steady states too.
  await sync(sets.a);
  await sync(sets.b);
  await sync(sets.a);
  await reference("A");
  await sync(sets.b);
  await reference("B");
  for (const e of expected) expect(e.size).toBe(2);
  // Now readers loop while the syncs alternate; every page is slow enough for several reads per sync.
  api.delayMs = 150;
  // And a sync goes past its first page only once every reader has finished a read begun
  // during it: each reader reads each state before it is replaced, however slowly its
  // processes start on a loaded machine.
  let gate: Promise<void> = Promise.resolve();
  api.beforePage = async (_path, offset) => {
    if (offset > 0) await gate;
  };
  const seen = READS.map(() => new Set<string>());
  let mixed = 0;
  // One sync each way: B to A, then A to B.
  for (const set of [sets.a, sets.b]) {
    let done = false;
    let open = () => {};
    gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const readDuring = new Set<number>();
    const syncing = sync(set).finally(() => {
      done = true;
    });
    const readers = [0, 1, 2].map(async (i) => {
      do {
        const r = await read(READS[i]!);
        expect(r.code, r.err).toBe(0);
        const state = expected[i]!.get(r.out);
        if (state === undefined) mixed += 1;
        else seen[i]!.add(state);
        readDuring.add(i);
        if (readDuring.size === READS.length) open();
      } while (!done);
    });
    await Promise.all([syncing, ...readers]);
  }
  api.beforePage = undefined;
  expect(mixed, "reads that held neither whole state").toBe(0);
  // The readers met both states: the loop ran across each sync (held until they had).
  for (const s of seen) expect([...s].sort()).toEqual(["A", "B"]);
}

describe.skipIf(!hasSqlite())("one snapshot per reader, SQLite", () => {
  let api: FakeApi;
  let tmp: ReturnType<typeof scratch>;
  beforeEach(async () => {
    api = await startFakeApi();
    tmp = scratch("pep-snap-");
  });
  afterEach(async () => {
    await api.close();
    tmp.cleanup();
  });

  it("every read during alternating syncs equals one whole state", async () => {
    await alternate(api, {
      ...tmp.env,
      PEP_DATA_DIR: path.join(tmp.dir, "data"),
      PEP_BASE_URL: api.base,
      PEP_API_KEY: "k_test_123456789",
    });
  }, 180_000);
  it("a reader holding a transaction does not hold up a sync, and keeps its own state until it ends", async () => {
    const env = libraryEnv(api, tmp);
    const pep = (argv: string[]) => runPep(argv, { env });
    expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
    const file = path.join(tmp.dir, "data", "library", "default.sqlite");
    const sqlite = process.getBuiltinModule("node:sqlite") as unknown as {
      DatabaseSync: new (
        file: string,
        o: { readOnly: boolean },
      ) => { exec(sql: string): void; prepare(sql: string): { get(): unknown }; close(): void };
    };
    // Another program's reader (Python, the sqlite3 shell) in the middle of a transaction.
    const other = new sqlite.DatabaseSync(file, { readOnly: true });
    const count = () => Number((other.prepare("SELECT count(*) AS n FROM studies").get() as { n: number }).n);
    other.exec("BEGIN");
    expect(count()).toBe(250);
    api.lists.studies = defaultLists(300).studies!;
    const r = await pep(["sync", "studies", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ status: "complete", added: 50 });
    expect(count()).toBe(250);
    other.exec("COMMIT");
    expect(count()).toBe(300);
    expect(String((other.prepare("PRAGMA journal_mode").get() as { journal_mode: string }).journal_mode)).toBe("wal");
    other.close();
  });
});

describe.skipIf(!PG_URL)("one snapshot per reader, PostgreSQL", () => {
  const schema = `pep_snap_${process.pid}_${Date.now()}`;
  let api: FakeApi;
  let tmp: ReturnType<typeof scratch>;
  let team: { ownerUrl: string; readUrl: string };
  beforeAll(async () => {
    // Synced by the owner role, read by a role with SELECT only (docs/library.md's team database).
    team = await teamSchema(schema);
  });
  afterAll(async () => {
    const admin = new pg.Client({ connectionString: PG_URL });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  beforeEach(async () => {
    api = await startFakeApi();
    tmp = scratch("pep-snap-");
  });
  afterEach(async () => {
    await api.close();
    tmp.cleanup();
  });

  it("every read during alternating syncs equals one whole state", async () => {
    const env = libraryEnv(api, tmp);
    await alternate(api, { ...env, PEP_DB: team.ownerUrl }, { ...env, PEP_DB: team.readUrl });
  }, 180_000);
});
