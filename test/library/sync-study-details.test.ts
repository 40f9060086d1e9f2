/**
 * `pep sync --study-details`: each study's own answer (GET /studies/{id}) kept in
 * `details` as kind `profile` of resource `studies`, a choice the library keeps until
 * `--no-study-details`; asked with If-None-Match on a re-sync, a cut-short run going on
 * where it stopped. Over a loopback API whose answers a test changes. Needs node:sqlite:
 * skipped on Node 20 only.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runPep } from "../helpers/cli.js";
import { hasSqlite, useLibraryApi } from "./helpers.js";

const lib = useLibraryApi("pep-sync-sd-", { each: true, more: { PEP_API_KEY: "k_test_12345678" } });

const pep = (argv: string[]) => runPep(argv, { env: lib.env });
const py = (sql: string): unknown =>
  JSON.parse(
    execFileSync(
      "python3",
      [
        "-c",
        "import sqlite3,sys,json; c=sqlite3.connect(sys.argv[1]); print(json.dumps(c.execute(sys.argv[2]).fetchall()))",
        path.join(lib.tmp.dir, "data", "library", "default.sqlite"),
        sql,
      ],
      { encoding: "utf8" },
    ),
  );
const studyAsks = () => lib.api.log.filter((l) => l.path.startsWith("/studies/"));

describe.skipIf(!hasSqlite())("pep sync --study-details", () => {
  it("without it, no study's own answer is asked or kept", async () => {
    const r = await pep(["sync", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(studyAsks()).toEqual([]);
    expect(py("select count(*) from details where resource = 'studies'")).toEqual([[0]]);
  });

  it("keeps every study's own answer as sent, and later syncs ask each with If-None-Match until --no-study-details", async () => {
    const first = await pep(["sync", "studies", "peptides", "--study-details", "-o", "json"]);
    expect(first.code, first.err).toBe(0);
    expect(studyAsks()).toHaveLength(250);
    expect(py("select count(*), min(kind), max(kind) from details where resource = 'studies'")).toEqual([
      [250, "profile", "profile"],
    ]);
    const [[body]] = py("select body from details where resource = 'studies' and id = 'pmid-1004'") as [[string]];
    expect(JSON.parse(body)).toMatchObject({ id: "pmid-1004", cited_by: [{ id: "pep-1", name: "Pep 1" }] });
    expect(py("select value from meta where key = 'study-details'")).toEqual([["all"]]);

    // The choice is the library's: a plain sync keeps it, each answer a 304 when unchanged.
    lib.api.log.length = 0;
    lib.api.lists.studies![4] = { ...lib.api.lists.studies![4]!, title: "Retitled" };
    const again = await pep(["sync", "studies", "-o", "json"]);
    expect(again.code, again.err).toBe(0);
    expect(studyAsks()).toHaveLength(250);
    expect(studyAsks().every((l) => l.conditional)).toBe(true);
    expect(studyAsks().filter((l) => l.status === 200)).toEqual([
      { path: "/studies/pmid-1004", cursor: null, conditional: true, status: 200 },
    ]);
    expect(py("select field, old_value, new_value from changes where sync_id = 2 and field like 'profile/%'")).toEqual([
      ["profile/title", '"Study 4"', '"Retitled"'],
    ]);

    // --no-study-details: none asked, those kept dropped; and so on later syncs.
    lib.api.log.length = 0;
    const off = await pep(["sync", "studies", "--no-study-details", "-o", "json"]);
    expect(off.code, off.err).toBe(0);
    expect(studyAsks()).toEqual([]);
    expect(py("select count(*) from details where resource = 'studies'")).toEqual([[0]]);
    expect(py("select count(*) from meta where key = 'study-details'")).toEqual([[0]]);
    expect((await pep(["sync", "studies", "-q"])).code).toBe(0);
    expect(studyAsks()).toEqual([]);
  });

  it("a sync cut short among the study answers goes on from where it stopped", async () => {
    // One worker fails at the 100th study; the others finish what they hold and stop.
    lib.api.failDetail.push({ path: "/studies/pmid-1100", times: 1 });
    const cut = await pep(["sync", "studies", "--study-details", "--retries", "0"]);
    expect(cut.code).toBe(6);
    expect(cut.err).toMatch(/run the same pep sync again to go on from where it stopped/);
    const [[kept]] = py("select count(*) from details where resource = 'studies'") as [[number]];
    expect(kept).toBeGreaterThanOrEqual(100);
    expect(kept).toBeLessThan(250);
    lib.api.log.length = 0;
    const again = await pep(["sync", "studies", "-o", "json"]);
    expect(again.code, again.err).toBe(0);
    // Only the answers the cut run did not write are asked again, pmid-1100 among them.
    expect(studyAsks()).toHaveLength(250 - kept);
    expect(studyAsks().map((l) => l.path)).toContain("/studies/pmid-1100");
    expect(py("select count(*) from details where resource = 'studies'")).toEqual([[250]]);
    // --full asks every one again, whole.
    lib.api.log.length = 0;
    expect((await pep(["sync", "studies", "--full", "-q"])).code).toBe(0);
    expect(studyAsks()).toHaveLength(250);
    expect(studyAsks().some((l) => l.conditional)).toBe(false);
  });
});
