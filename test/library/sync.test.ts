import { execFileSync } from "node:child_process";
import { statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runPep } from "../helpers/cli.js";
import { startPep } from "../helpers/live-pep.js";
import { hasSqlite, useLibraryApi } from "./helpers.js";

const lib = useLibraryApi("pep-sync-", { each: true });

const pep = (argv: string[], extra: Record<string, string> = {}) => runPep(argv, { env: { ...lib.env, ...extra } });
const file = () => path.join(lib.tmp.dir, "data", "library", "default.sqlite");
const py = (sql: string) =>
  execFileSync(
    "python3",
    [
      "-c",
      "import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); print(json.dumps(c.execute(sys.argv[2]).fetchall()))",
      file(),
      sql,
    ],
    {
      encoding: "utf8",
    },
  );

describe.skipIf(!hasSqlite())("pep sync into SQLite", () => {
  it("fills every resource, keeps each item's text as sent, its typed columns and the API's order", async () => {
    const r = await pep(["sync", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out);
    // One 304: the studies' first page asked again once their walk is done (the list did not move).
    expect(s).toMatchObject({ status: "complete", items: 258, added: 258, changed: 0, removed: 0, not_modified: 1 });
    expect(Object.keys(s)).toEqual(
      expect.arrayContaining([
        "resources",
        "items",
        "added",
        "changed",
        "removed",
        "requests",
        "not_modified",
        "seconds",
      ]),
    );
    expect(s.resources).toHaveLength(7);
    expect(statSync(file()).mode & 0o777).toBe(0o600);
    // Independent reader: Python's sqlite3.
    expect(JSON.parse(py("select count(*) from studies"))).toEqual([[250]]);
    expect(JSON.parse(py("select price, item from prices"))).toEqual([
      [
        "12.50",
        '{"id":"off_1","peptide":{"id":"pep-0","name":"Pep 0"},"price":12.50,"currency":"USD","in_stock":true}',
      ],
    ]);
    expect(JSON.parse(py("select id from studies order by ord limit 3"))).toEqual([
      ["pmid-1000"],
      ["pmid-1001"],
      ["pmid-1002"],
    ]);
    expect(
      JSON.parse(py("select evidence_level, evidence_preclinical_studies from peptides where id = 'pep-2'")),
    ).toEqual([["preclinical", 2]]);
    expect(JSON.parse(py("select in_stock, synthetic from prices"))).toEqual([[1, 0]]);
    // Details: 4 per peptide, 1 per vendor; the links from the cited studies.
    expect(JSON.parse(py("select resource, kind, count(*) from details group by 1, 2 order by 1, 2"))).toEqual([
      ["peptides", "profile", 3],
      ["peptides", "regulatory", 3],
      ["peptides", "research", 3],
      ["peptides", "studies", 3],
      ["vendors", "profile", 1],
    ]);
    // Every page of a peptide's cited studies (the server pages them by 50): has_more is followed.
    expect(JSON.parse(py("select count(*) from peptide_studies where peptide_id = 'pep-1'"))).toEqual([[83]]);
    expect(JSON.parse(py("select count(*) from study_cited_by where peptide_id = 'pep-1'"))).toEqual([[83]]);
    // The answers' meta, for --offline to print what online prints (request ids left out).
    expect(JSON.parse(py("select value from meta where key = 'list:prices'"))).toEqual([
      ['{"affiliate_disclosure":"Links may earn a commission."}'],
    ]);
    expect(JSON.parse(py("select count(*) from meta where key like 'detail:peptides:%'"))).toEqual([[4]]);
    const sync = JSON.parse(py("select status, api_version, requests, items from syncs"));
    expect(sync).toEqual([["complete", "v1", s.requests, 258]]);
  }, 60_000);

  it("a second sync of an unchanged API asks every page and detail with If-None-Match, gets 304s and changes nothing", async () => {
    expect((await pep(["sync"])).code).toBe(0);
    const before = py("select id, item, first_seen from studies order by id");
    lib.api.log.length = 0;
    const r = await pep(["sync", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    const s = JSON.parse(r.out);
    expect(s).toMatchObject({ added: 0, changed: 0, removed: 0, items: 258 });
    // A peptide's cited studies of more than one page are asked whole (the first page's
    // ETag does not cover the rest): here two pages for each of the three peptides.
    const whole = (l: { path: string }) => /^\/peptides\/[^/]+\/studies$/.test(l.path);
    expect(lib.api.log.filter(whole).map((l) => l.status)).toEqual(Array(6).fill(200));
    expect(s.not_modified).toBe(s.requests - 6);
    expect(lib.api.log.filter((l) => !whole(l)).every((l) => l.conditional && l.status === 304)).toBe(true);
    expect(lib.api.log.filter((l) => l.path === "studies")).toHaveLength(4);
    expect(py("select id, item, first_seen from studies order by id")).toBe(before);
    expect(JSON.parse(py("select count(*) from changes where sync_id = 2"))).toEqual([[0]]);
  });

  it("records what changed: added, changed (field, old, new) and removed, and pep changes tells it", async () => {
    expect((await pep(["sync", "studies", "peptides"])).code).toBe(0);
    const studies = lib.api.lists.studies!;
    studies[5] = { ...studies[5]!, evidence_classification: "human_controlled_trial" };
    studies.splice(10, 1); // pmid-1010 removed
    studies.push({ ...studies[0]!, id: "pmid-9999", title: "New" });
    lib.api.lists.peptides![1] = {
      ...lib.api.lists.peptides![1]!,
      evidence: { ...(lib.api.lists.peptides![1]!.evidence as object), level: "clinical-trial" },
    };
    const r = await pep(["sync", "studies", "peptides", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ added: 1, changed: 2, removed: 1 });
    const last = await pep(["changes", "--since", "last", "-o", "json"]);
    expect(last.code, last.err).toBe(0);
    const rows = JSON.parse(last.out) as Array<Record<string, unknown>>;
    const brief = rows.map((c) => [c.resource, c.id, c.kind, c.field, c.old_value, c.new_value]);
    expect(brief).toEqual(
      expect.arrayContaining([
        ["studies", "pmid-1005", "changed", "evidence_classification", "human_study", "human_controlled_trial"],
        ["studies", "pmid-9999", "added", null, null, null],
        ["peptides", "pep-1", "changed", "evidence.level", "preclinical", "clinical-trial"],
      ]),
    );
    const removed = rows.find((c) => c.kind === "removed");
    expect(removed).toMatchObject({ resource: "studies", id: "pmid-1010" });
    expect((removed!.old_value as Record<string, unknown>).title).toBe("Study 10");
    // Oldest first; filters; and the exit status a CI job reads.
    expect(rows.map((c) => c.seq)).toEqual([...rows.map((c) => c.seq as number)].sort((a, b) => a - b));
    const peptidesOnly = JSON.parse(
      (await pep(["changes", "--since", "last", "--resource", "peptides", "-o", "json"])).out,
    );
    expect(peptidesOnly.every((c: { resource: string }) => c.resource === "peptides")).toBe(true);
    expect((await pep(["changes", "--since", "last", "--exit-status", "-o", "json"])).code).toBe(10);
    expect((await pep(["sync", "studies", "peptides", "-q"])).code).toBe(0);
    const none = await pep(["changes", "--since", "last", "--exit-status", "-o", "json"]);
    expect([none.code, none.out.trim()]).toEqual([0, "[]"]);
    const csv = await pep(["changes", "-o", "csv"]);
    expect(csv.out.split("\r\n")[0]).toBe("seq,at,sync_id,resource,id,kind,field,old_value,new_value");
    expect(JSON.parse(py("select count(*) from studies where id = 'pmid-1010'"))).toEqual([[0]]);
  });

  it("a re-sync where some pages answer 304 and others come with a body keeps every item, in the API's order", async () => {
    expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
    const studies = lib.api.lists.studies!;
    studies[150] = { ...studies[150]!, title: "Changed" }; // the page at offset 100 only
    studies.push({ ...studies[0]!, id: "pmid-9998", title: "Appended" }); // the last page
    lib.api.log.length = 0;
    const r = await pep(["sync", "studies", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ items: 251, added: 1, changed: 1, removed: 0 });
    const asked = lib.api.log.filter((l) => l.path === "studies").map((l) => [l.cursor, l.status]);
    expect(asked).toEqual([
      [null, 304],
      ["100", 200],
      ["200", 200],
      [null, 304],
    ]);
    const ids = JSON.parse(py("select id from studies order by ord")).map((row: string[]) => row[0]);
    expect(ids).toEqual(studies.map((s) => s.id));
    expect(JSON.parse(py("select title from studies where id = 'pmid-1150'"))).toEqual([["Changed"]]);
    // Then nothing changes: every page a 304, the table as it was.
    const before = py("select id, ord, item, last_seen, last_sync from studies order by ord");
    const again = await pep(["sync", "studies", "-o", "json"]);
    expect(JSON.parse(again.out)).toMatchObject({ items: 251, added: 0, changed: 0, removed: 0, not_modified: 5 });
    expect(py("select id, ord, item, last_seen, last_sync from studies order by ord")).toBe(before);
  });

  it("a sync cut short by a server error keeps its pages; the same command goes on from where it stopped", async () => {
    lib.api.failPage.push({ path: "studies", offset: 200, times: 1 });
    const cut = await pep(["sync", "studies", "--retries", "0"]);
    expect(cut.code).toBe(6);
    expect(cut.err).toMatch(/run the same pep sync again to go on from where it stopped/);
    // The resume line is the same command, which pep sync takes (never a --cursor).
    expect(cut.err).toMatch(/^to resume: pep sync studies --retries 0$/m);
    expect(JSON.parse(py("select status from syncs"))).toEqual([["partial"]]);
    // Nothing half-done is visible: the walk is staged, the table still empty.
    expect(JSON.parse(py("select count(*) from studies"))).toEqual([[0]]);
    lib.api.log.length = 0;
    const again = await pep(["sync", "studies", "-o", "json"]);
    expect(again.code, again.err).toBe(0);
    // The last and the first kept pages are asked again (unchanged: 304s), then the walk goes on.
    expect(lib.api.log.filter((l) => l.path === "studies").map((l) => [l.cursor, l.status])).toEqual([
      ["100", 304],
      [null, 304],
      ["200", 200],
      [null, 304],
    ]);
    expect(JSON.parse(again.out)).toMatchObject({ items: 250, added: 250 });
    expect(JSON.parse(py("select count(*), min(ord), max(ord) from studies"))).toEqual([[250, 0, 249]]);
  });

  it("a sync whose connection is cut mid-walk goes on from that page when run again", async () => {
    expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
    lib.api.lists.studies![150] = { ...lib.api.lists.studies![150]!, title: "Changed meanwhile" };
    lib.api.failPage.push({ path: "studies", offset: 100, times: 1, cut: true });
    const cut = await pep(["sync", "studies", "--retries", "0"]);
    expect(cut.code).toBe(6);
    // The table is as the last whole walk left it: the change is not half applied.
    expect(JSON.parse(py("select title from studies where id = 'pmid-1150'"))).toEqual([["Study 150"]]);
    lib.api.log.length = 0;
    const again = await pep(["sync", "studies", "-o", "json"]);
    expect(again.code, again.err).toBe(0);
    // The one kept page is asked again (unchanged: a 304), then the walk goes on.
    expect(lib.api.log.filter((l) => l.path === "studies").map((l) => [l.cursor, l.status])).toEqual([
      [null, 304],
      ["100", 200],
      ["200", 304],
      [null, 304],
    ]);
    expect(JSON.parse(again.out)).toMatchObject({ changed: 1, added: 0, removed: 0, items: 250 });
    expect(JSON.parse(py("select title from studies where id = 'pmid-1150'"))).toEqual([["Changed meanwhile"]]);
  });

  it("a sync ended by SIGTERM mid-walk keeps the pages it met: the same command goes on after them", async () => {
    lib.api.delayMs = 400;
    const live = startPep(["sync", "studies"], { env: lib.env });
    const studiesAsked = () => lib.api.log.filter((l) => l.path === "studies").length;
    // The first page is answered (the log is written as a page is answered): end the run
    // while the second, 400 ms away, is on its way.
    for (let i = 0; i < 200 && studiesAsked() < 1; i++) await new Promise((r) => setTimeout(r, 10));
    expect(studiesAsked()).toBe(1);
    live.child.kill("SIGTERM");
    const ended = await live.exit();
    expect(ended.code, ended.err).toBe(143);
    expect(JSON.parse(py("select count(*) from studies"))).toEqual([[0]]);
    // The page the ended run asked is still answered (and logged) by the server: let it be.
    await new Promise((r) => setTimeout(r, 450));
    lib.api.delayMs = 0;
    lib.api.log.length = 0;
    const again = await pep(["sync", "studies", "-o", "json"]);
    expect(again.code, again.err).toBe(0);
    expect(lib.api.log.filter((l) => l.path === "studies").map((l) => l.cursor)).toEqual([null, "100", "200", null]);
    expect(JSON.parse(again.out)).toMatchObject({ items: 250, added: 250 });
    expect(JSON.parse(py("select count(*) from studies"))).toEqual([[250]]);
  });

  it("skips a keyed resource the key cannot read with one line, and one without a key, and still succeeds", async () => {
    lib.api.refused.add("vendors");
    const r = await pep(["sync", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(r.err).toMatch(/^skipped vendors: the key cannot read it \(HTTP 403: needs the vendors:read scope\)$/m);
    const s = JSON.parse(r.out);
    expect(s.skipped).toEqual([{ resource: "vendors", reason: expect.stringMatching(/HTTP 403/) }]);
    expect(s.resources).not.toContain("vendors");
    const anon = await pep(["sync", "--full", "-o", "json"], { PEP_API_KEY: "" });
    expect(anon.code, anon.err).toBe(0);
    expect(anon.err.match(/^skipped (vendors|products|prices): needs an API key/gm)).toHaveLength(3);
  });

  it("two syncs of one library at once: the second waits for the first, or with --no-wait is refused (exit 6)", async () => {
    const [a, b] = await Promise.all([pep(["sync", "studies", "-o", "json"]), pep(["sync", "studies", "-o", "json"])]);
    expect([a.code, b.code], a.err + b.err).toEqual([0, 0]);
    expect(`${a.err}${b.err}`).toMatch(/waiting for another pep sync/);
    lib.api.delayMs = 250;
    const first = pep(["sync", "studies", "--full"]); // page after page: it holds the library ~750 ms
    await new Promise((r) => setTimeout(r, 300));
    const [c, d] = await Promise.all([first, pep(["sync", "studies", "--no-wait"])]);
    expect(c.code).toBe(0);
    expect(d.code).toBe(6);
    expect(d.err).toMatch(/another pep sync \(process \d+\) is filling the library/);
    expect(JSON.parse(py("select count(*) from studies"))).toEqual([[250]]);
  });

  it("--full refetches every page without If-None-Match", async () => {
    expect((await pep(["sync", "categories"])).code).toBe(0);
    lib.api.log.length = 0;
    expect((await pep(["sync", "categories", "--full"])).code).toBe(0);
    expect(lib.api.log.filter((l) => l.path === "categories").map((l) => [l.conditional, l.status])).toEqual([
      [false, 200],
    ]);
  });

  it("refuses an unknown resource naming those it takes, before any request", async () => {
    const r = await pep(["sync", "stuff"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /unknown resource "stuff"; it takes: peptides, studies, vendors, products, prices, categories, research-areas/,
    );
    expect(lib.api.log).toHaveLength(0);
  });
});
