/**
 * The library across time: a walk cut short goes on only while the API's list still lines
 * up with what it kept (else it starts over, said in one line); the change log keeps what
 * a sync cut short (503, SIGTERM, SIGKILL) found, for the next night's `--since last`;
 * a library stays bound to the API it was synced from. Over loopback, against a server
 * whose data the test moves. Needs node:sqlite: skipped on Node 20 only.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runPep } from "../helpers/cli.js";
import { startPep } from "../helpers/live-pep.js";
import { startFakeApi } from "./fake-api.js";
import { hasSqlite, useLibraryApi } from "./helpers.js";

const lib = useLibraryApi("pep-time-", { each: true });

const pep = (argv: string[], extra: Record<string, string> = {}) => runPep(argv, { env: { ...lib.env, ...extra } });
const sql = async (query: string) => {
  const r = await pep(["sql", query, "-o", "json"]);
  expect(r.code, r.err).toBe(0);
  return JSON.parse(r.out) as Array<Record<string, unknown>>;
};
const libraryIds = async () => (await sql("SELECT id FROM studies ORDER BY ord")).map((r) => r.id);
const serverIds = () => lib.api.lists.studies!.map((s) => s.id);
const changes = async () => {
  const r = await pep(["changes", "--since", "last", "--resource", "studies", "-o", "json"]);
  expect(r.code, r.err).toBe(0);
  return (JSON.parse(r.out) as Array<Record<string, unknown>>).map((c) => [c.kind, c.id, c.field ?? null]);
};
/** Night 1 synced; night 2's sync of studies is cut at the page at offset 200 (pages 1 and 2 kept). */
async function cutAfterTwoPages(): Promise<void> {
  expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
  lib.api.failPage.push({ path: "studies", offset: 200, times: 1 });
  const cut = await pep(["sync", "studies", "--retries", "0"]);
  expect(cut.code).toBe(6);
  expect(cut.err).toMatch(/^to resume: pep sync studies --retries 0$/m);
  lib.api.log.length = 0;
}

describe.skipIf(!hasSqlite())("a resumed walk lines up or starts over", () => {
  it("studies removed at the front: the walk starts over, and exactly those are logged removed", async () => {
    await cutAfterTwoPages();
    const gone = lib.api.lists.studies!.splice(0, 3).map((s) => s.id);
    const r = await pep(["sync", "studies", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err.match(/^studies: starting the walk over from the first page: .*$/gm)).toHaveLength(1);
    expect(await libraryIds()).toEqual(serverIds());
    expect(await changes()).toEqual(gone.map((id) => ["removed", id, null]));
    expect(JSON.parse(r.out)).toMatchObject({ status: "complete", added: 0, removed: 3, changed: 0 });
  });

  it("studies inserted at the front: the walk starts over, and exactly those are logged added", async () => {
    await cutAfterTwoPages();
    const fresh = [1, 2].map((n) => ({ ...lib.api.lists.studies![0]!, id: `pmid-new-${n}`, title: `New ${n}` }));
    lib.api.lists.studies!.unshift(...fresh);
    const r = await pep(["sync", "studies", "-q"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /^studies: starting the walk over from the first page: the last kept page now holds other items/m,
    );
    expect(await libraryIds()).toEqual(serverIds());
    expect(await changes()).toEqual(fresh.map((s) => ["added", s.id, null]));
  });

  it("a study reclassified on a kept page: the walk starts over and logs that one change", async () => {
    await cutAfterTwoPages();
    const s = lib.api.lists.studies![3]!;
    lib.api.lists.studies![3] = { ...s, evidence_classification: "human_controlled_trial" };
    const r = await pep(["sync", "studies", "-q"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/starting the walk over from the first page: the items of the first kept page changed/);
    expect(await libraryIds()).toEqual(serverIds());
    expect(await changes()).toEqual([["changed", s.id, "evidence_classification"]]);
  });

  it("a list that did not move: the walk goes on from its checkpoint, 304s to check it before and after", async () => {
    await cutAfterTwoPages();
    const r = await pep(["sync", "studies", "-q"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).not.toMatch(/starting the walk over/);
    expect(lib.api.log.filter((l) => l.path === "studies").map((l) => [l.cursor, l.status])).toEqual([
      ["100", 304],
      [null, 304],
      ["200", 304],
      [null, 304],
    ]);
    expect(await changes()).toEqual([]);
  });

  it("a list that moves while it is walked: the walk is read again, once, and the library equals the server", async () => {
    expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
    const removed = lib.api.lists.studies![0]!.id;
    let moved = false;
    lib.api.beforePage = (p, offset) => {
      if (p === "studies" && offset === 200 && !moved) {
        moved = true;
        lib.api.lists.studies!.shift();
      }
    };
    const r = await pep(["sync", "studies", "-q"]);
    expect(r.code, r.err).toBe(0);
    expect(
      r.err.match(/^studies: starting the walk over from the first page: the list moved while it was read .*$/gm),
    ).toHaveLength(1);
    expect(await libraryIds()).toEqual(serverIds());
    expect(await changes()).toEqual([["removed", removed, null]]);
  });

  it("a walk kept past the resume age starts over (PEP_RESUME_MAX_AGE)", async () => {
    await cutAfterTwoPages();
    await new Promise((r) => setTimeout(r, 1100));
    const r = await pep(["sync", "studies", "-q"], { PEP_RESUME_MAX_AGE: "1s" });
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /^studies: starting the walk over from the first page: its pages were kept \d+s ago, past the resume age \(1s\)$/m,
    );
    expect(lib.api.log.filter((l) => l.path === "studies").map((l) => l.cursor)).toEqual([null, "100", "200", null]);
  });
});

describe.skipIf(!hasSqlite())("a change log that loses nothing: the cron recipe across nights", () => {
  const night = async (extra: Record<string, string> = {}) => {
    const s = await pep(["sync", "-q"], extra);
    if (s.code !== 0) return { sync: s.code, report: undefined };
    const c = await pep(["changes", "--since", "last", "--exit-status", "-o", "json"]);
    return { sync: s.code, report: { code: c.code, rows: JSON.parse(c.out) as Array<Record<string, unknown>> } };
  };
  const renamePeptide = () => {
    lib.api.lists.peptides![1] = { ...lib.api.lists.peptides![1]!, name: `Renamed ${Date.now()}` };
  };

  it("a sync cut by a 503 after peptides were merged: the next night reports those changes, once", async () => {
    expect((await night()).sync).toBe(0);
    renamePeptide();
    lib.api.failPage.push({ path: "studies", offset: 100, times: 1, status: 503 });
    const cut = await night({ PEP_RETRIES: "0" });
    expect(cut.sync).toBe(6);
    const next = await night();
    expect(next.sync).toBe(0);
    expect(next.report?.code).toBe(10);
    // The list item's field and its own answers' (profile, research): each once.
    expect(next.report?.rows.map((c) => [c.resource, c.id, c.field])).toEqual([
      ["peptides", "pep-1", "name"],
      ["peptides", "pep-1", "profile/name"],
      ["peptides", "pep-1", "research/name"],
    ]);
    // And the night after reports nothing more.
    expect((await night()).report).toEqual({ code: 0, rows: [] });
    const statuses = (await sql("SELECT status FROM syncs ORDER BY id")).map((r) => r.status);
    expect(statuses).toEqual(["complete", "partial", "complete", "complete"]);
  });

  for (const signal of ["SIGTERM", "SIGKILL"] as const) {
    it(`a sync ended by ${signal} after peptides were merged: its changes reach the next report; pep sync --exit-status says 10`, async () => {
      expect((await night()).sync).toBe(0);
      renamePeptide();
      lib.api.delayMs = 300;
      lib.api.log.length = 0;
      const live = startPep(["sync", "peptides", "studies", "--full"], { env: lib.env });
      // The peptides are merged once the studies' walk has begun.
      for (let i = 0; i < 500 && !lib.api.log.some((l) => l.path === "studies"); i++)
        await new Promise((r) => setTimeout(r, 10));
      live.child.kill(signal);
      const ended = await live.exit();
      expect(ended.code === 0).toBe(false);
      await new Promise((r) => setTimeout(r, 350));
      lib.api.delayMs = 0;
      const r = await pep(["sync", "--exit-status", "-o", "json"]);
      expect(r.code, r.err).toBe(10);
      const report = await pep(["changes", "--since", "last", "-o", "json"]);
      const fields = (JSON.parse(report.out) as Array<Record<string, unknown>>).map((c) => `${c.id} ${c.field}`);
      // Each change once, whichever of the two syncs logged it.
      expect(fields.sort()).toEqual(["pep-1 name", "pep-1 profile/name", "pep-1 research/name"]);
      const statuses = (await sql("SELECT status FROM syncs ORDER BY id")).map((s) => s.status);
      expect(statuses).toEqual(["complete", signal === "SIGTERM" ? "partial" : "interrupted", "complete"]);
      expect((await pep(["sync", "--exit-status", "-q"])).code).toBe(0);
    });
  }

  it("pep changes -o csv has one header whatever rows come: a removal's old item is one JSON cell", async () => {
    expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
    lib.api.lists.studies!.splice(0, 1);
    expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
    const csv = await pep(["changes", "--since", "last", "-o", "csv"]);
    const [header, row] = csv.out.split("\r\n");
    expect(header).toBe("seq,at,sync_id,resource,id,kind,field,old_value,new_value");
    expect(row).toMatch(/^\d+,[^,]+,2,studies,pmid-1000,removed,,"\{""id"":""pmid-1000"",.*\}",$/);
  });
});

describe.skipIf(!hasSqlite())("items the library cannot keep as they are, and duplicates", () => {
  it("an id no path can name is kept in its table, its own answers skipped with one line, counted", async () => {
    lib.api.lists.peptides!.push({ ...lib.api.lists.peptides![0]!, id: ".." });
    const r = await pep(["sync", "peptides", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err.match(/^peptides: skipped the own answers of "\.\.": .*$/gm)).toHaveLength(1);
    expect(JSON.parse(r.out)).toMatchObject({ status: "complete", skipped_items: 1, items: 4 });
  });

  it("an id met on an earlier page: the first copy is kept, as online, and the sync says so", async () => {
    const studies = lib.api.lists.studies!;
    studies[150] = { ...studies[5]!, title: "A later copy" };
    const r = await pep(["sync", "studies", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(
      /^studies: skipped 1 duplicate item: its id came on an earlier page \(the first copy is kept, as online\)$/m,
    );
    expect(await sql("SELECT title, ord FROM studies WHERE id = 'pmid-1005'")).toEqual([{ title: "Study 5", ord: 5 }]);
    const offline = await pep(["--offline", "studies", "list", "--all", "-o", "ids"]);
    const online = await pep(["studies", "list", "--all", "-o", "ids"]);
    expect(offline.out).toBe(online.out);
  });
});

describe.skipIf(!hasSqlite())("a library is bound to the API it was synced from", () => {
  it("a sync from another base URL is refused (exit 2, no request for the data) unless --rebind", async () => {
    expect((await pep(["sync", "categories", "-q"])).code).toBe(0);
    const other = await startFakeApi();
    try {
      const refused = await pep(["sync", "categories"], { PEP_BASE_URL: other.base });
      expect(refused.code).toBe(2);
      expect(refused.err).toContain(`holds data synced from ${lib.api.base}; this sync is from ${other.base}`);
      expect(refused.err).toMatch(/--db <file>/);
      expect(refused.err).toMatch(/pep sync --rebind/);
      expect(other.log.filter((l) => l.path === "categories")).toHaveLength(0);
      const moved = await pep(["sync", "categories", "--rebind", "-q"], { PEP_BASE_URL: other.base });
      expect(moved.code, moved.err).toBe(0);
      expect((await pep(["sync", "categories", "-q"])).code).toBe(2);
    } finally {
      await other.close();
    }
  });

  it("--sandbox sync uses a library of its own: the real one stays as it was", async () => {
    expect((await pep(["sync", "categories", "-q"])).code).toBe(0);
    const before = await sql("SELECT id, item FROM categories ORDER BY id");
    const sandbox = await pep(["--sandbox", "sync", "categories", "-o", "json"]);
    expect(sandbox.code, sandbox.err).toBe(0);
    expect(JSON.parse(sandbox.out).library).toBe(
      path.join(lib.tmp.dir, "data", "library", "sandbox", "default.sqlite"),
    );
    expect(await sql("SELECT id, item FROM categories ORDER BY id")).toEqual(before);
    const read = await pep(["--sandbox", "sql", "SELECT COUNT(*) AS n FROM categories", "-o", "json"]);
    expect(JSON.parse(read.out)[0].n).toBeGreaterThan(1);
    // Into the real library only when asked by name, and then refused unless --rebind.
    const named = await pep([
      "--sandbox",
      "sync",
      "categories",
      "--db",
      path.join(lib.tmp.dir, "data", "library", "default.sqlite"),
    ]);
    expect(named.code).toBe(2);
    expect(named.err).toMatch(/this sync is from the built-in sandbox/);
  });
});
