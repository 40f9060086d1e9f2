/**
 * `--manifest`: `<file>.manifest.json` beside a finished `--file` export, saying what was
 * run (credentials masked), against what, when, what came back (request ids, ETags, the
 * item count) and what was written (size, SHA-256); never for a cut export, whose old
 * manifest stays as it was.
 */
import { createHash } from "node:crypto";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { manifestOf, maskedWords } from "../../src/output/manifest.js";
import { inProcessPep } from "../helpers/cli.js";
import { faults, pageBody, useFaultApi } from "../helpers/fault-api.js";
import { manifestErrors, readManifest } from "../helpers/manifest.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { sendJson } from "../helpers/server.js";

const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

describe("--manifest against the sandbox", () => {
  const cli = useSandboxCli();

  it("describes a finished export: command, source, versions, times, each page's request id and ETag, count, SHA-256", async () => {
    const dir = mkdtempSync(path.join(cli.dir, "m-"));
    const file = path.join(dir, "studies.csv");
    const r = await cli.pep(["studies", "export", "--page-size", "40", "--limit", "100", "--file", file, "--manifest"]);
    expect(r.code, r.err).toBe(0);
    const m = readManifest(file);
    expect(m).toMatchObject({
      manifest_version: 1,
      command: [
        "pep",
        "studies",
        "export",
        "--page-size",
        "40",
        "--limit",
        "100",
        "--file",
        "studies.csv",
        "--manifest",
        "--base-url",
        cli.baseUrl,
      ],
      file: "studies.csv",
      format: "csv",
      source: "sandbox",
      synthetic: true,
      base_url: cli.baseUrl,
      api_version: "v1",
      items: 100,
      bytes: statSync(file).size,
      sha256: sha256(file),
    });
    expect(m.pep_version).toMatch(/^\d+\.\d+\.\d+/);
    // The export's three pages as sent, then the manifest's own look at the index.
    expect(m.requests.map((r: { purpose: string }) => r.purpose)).toEqual(["answer", "answer", "answer", "index"]);
    expect(m.requests[0]).toMatchObject({ method: "GET", path: "/v1/studies", query: "limit=40" });
    expect(m.requests[1].query).toMatch(/^limit=40&cursor=\S+$/);
    for (const req of m.requests) {
      expect(req.request_id).toMatch(/\S/);
      expect(req.etag).toMatch(/^"/);
      expect(req).toMatchObject({ status: 200, from_cache: false });
    }
    expect(m.api).toEqual({ base_url: cli.baseUrl, name: "Peptide research API (sandbox)", version: "v1" });
    expect(m).toMatchObject({ resolved: [], duplicates_skipped: 0 });
    expect(Date.parse(m.started_at)).toBeLessThanOrEqual(Date.parse(m.finished_at));
    expect(m.library).toBeUndefined();
    expect(statSync(`${file}.manifest.json`).mode & 0o777).toBe(statSync(file).mode & 0o777);
    expect(readdirSync(dir).sort()).toEqual(["studies.csv", "studies.csv.manifest.json"]);
  });

  it("takes the export's mode, and an answer from the ETag cache is told as such", async () => {
    const dir = mkdtempSync(path.join(cli.dir, "m-"));
    const file = path.join(dir, "p.json");
    writeFileSync(file, "[]");
    chmodSync(file, 0o640);
    const argv = ["peptides", "get", "--file", file, "--manifest"];
    const ids = JSON.parse((await cli.pep(["peptides", "list", "--limit", "1", "-o", "json"])).out);
    expect((await cli.pep([...argv.slice(0, 2), ids[0].id, ...argv.slice(2)])).code).toBe(0);
    const again = await cli.pep([...argv.slice(0, 2), ids[0].id, ...argv.slice(2)]);
    expect(again.code, again.err).toBe(0);
    const m = readManifest(file);
    expect(m.requests[0]).toEqual(
      expect.objectContaining({ status: 304, from_cache: true, etag: expect.stringMatching(/^"/) }),
    );
    expect(m.resolved).toEqual([{ resource: "peptides", given: ids[0].id, id: ids[0].id, by: "api" }]);
    expect(m.items).toBe(1);
    expect(statSync(`${file}.manifest.json`).mode & 0o777).toBe(0o640);
  });

  it("needs --file and a regular file: exit 2 before any request", async () => {
    const alone = await cli.pep(["studies", "list", "--manifest"]);
    expect(alone.code).toBe(2);
    expect(alone.err).toMatch(/--manifest goes with --file/);
    expect(alone.sent).toBe(0);
    const device = await cli.pep(["studies", "list", "--file", "/dev/null", "--manifest"]);
    expect(device.code).toBe(2);
    expect(device.err).toMatch(/--manifest: \/dev\/null is not a regular file/);
    expect(device.sent).toBe(0);
  });
});

describe("--manifest when the export is cut short", () => {
  const suite = useFaultApi({ total: 7 });

  it("writes no manifest, and leaves an earlier one as it was", async () => {
    const dir = mkdtempSync(path.join(suite.tmp.dir, "cut-"));
    const argv = ["studies", "list", "-o", "csv", "--all", "--page-size", "2", "--file", "out.csv", "--manifest"];
    const run = () =>
      inProcessPep([...argv, "--base-url", suite.api.baseUrl, "--retries", "0"], { env: suite.tmp.env, cwd: dir });
    const ok = await run();
    expect(ok.code, ok.err).toBe(0);
    const before = readFileSync(path.join(dir, "out.csv.manifest.json"), "utf8");
    const m = readManifest(path.join(dir, "out.csv"));
    expect(m).toMatchObject({ source: "api", items: 7, synthetic: false, sha256: sha256(path.join(dir, "out.csv")) });
    // Seven items two a page: four pages, each with the request id the server sent (and
    // the index the manifest asked, which this server does not serve).
    expect(m.requests).toHaveLength(5);
    for (const req of m.requests) expect(req.request_id).toMatch(/^req_fault_\d+$/);
    expect(m.requests[4]).toMatchObject({ purpose: "index", path: "/v1/", status: 404 });
    expect(m.api).toEqual({ base_url: suite.api.baseUrl, name: null, version: null });

    suite.api.fault(suite.api.cursorAt(4), faults.status(503));
    const cut = await run();
    expect(cut.code).toBe(6);
    expect(readFileSync(path.join(dir, "out.csv.manifest.json"), "utf8")).toBe(before);
    expect(readdirSync(dir).filter((f) => f.includes("manifest"))).toEqual(["out.csv.manifest.json"]);

    // The same command finishes the export from its partial: the manifest counts the whole file.
    suite.api.heal();
    const finished = await run();
    expect(finished.code, finished.err).toBe(0);
    const after = readManifest(path.join(dir, "out.csv"));
    expect(after).toMatchObject({ items: 7, sha256: sha256(path.join(dir, "out.csv")) });
    // This run's requests: the first and last kept pages asked again (the resume's check
    // that the data still lines up), then the two pages that were missing, then the index.
    expect(after.requests.filter((r: { purpose: string }) => r.purpose === "answer")).toHaveLength(4);
  });
});

describe("--manifest against a loopback API", () => {
  const suite = useFaultApi({ total: 5 });

  it("agrees with the server's log: each request's path and query, the names resolved, the duplicates skipped", async () => {
    const dir = mkdtempSync(path.join(suite.tmp.dir, "log-"));
    // The second page repeats the first page's last item: the export skips it and says so.
    suite.api.fault(suite.api.cursorAt(2), (req, res) => {
      const body = pageBody(req, suite.api.items) as { data: unknown[] };
      sendJson(res, 200, { ...body, data: [suite.api.items[1], ...body.data] });
    });
    const before = suite.api.requests.length;
    const argv = ["studies", "export", "--peptide", "Body protection compound 157", "--page-size", "2", "-o", "json"];
    const r = await inProcessPep([...argv, "--file", "out.json", "--manifest", "--base-url", suite.api.baseUrl], {
      env: suite.tmp.env,
      cwd: dir,
    });
    expect(r.code, r.err).toBe(0);
    const m = readManifest(path.join(dir, "out.json"));
    const logged = suite.api.requests.slice(before);
    expect(m.requests.map((q: { path: string; query: string }) => `${q.path}${q.query ? `?${q.query}` : ""}`)).toEqual(
      logged.map((q) => q.url),
    );
    expect(m.requests.map((q: { purpose: string }) => q.purpose)).toEqual([
      "answer",
      "answer",
      "answer",
      "index",
      "resolve",
    ]);
    expect(m.requests[0].query).toBe("peptide=Body+protection+compound+157&limit=2");
    expect(m.resolved).toEqual([
      { resource: "peptides", given: "Body protection compound 157", id: "bpc-157", by: "api" },
    ]);
    expect(m).toMatchObject({ source: "api", synthetic: false, items: 5, duplicates_skipped: 1 });
    expect(r.err).toMatch(/skipped 1 duplicate item/);
  });
});

describe("the manifest's schema and masking", () => {
  const facts = {
    argv: ["api", "/studies"],
    file: "out.json",
    path: "/tmp/out.json",
    format: "json",
    source: "api" as const,
    baseUrl: "https://u:pw@api.example/v1",
    apiVersion: "v1",
    pepVersion: "1.2.3",
    synthetic: false,
    library: undefined,
    startedAt: new Date(0),
    finishedAt: new Date(1000),
    items: 1,
    pages: [
      {
        url: "https://api.example/v1/studies?api_key=abc123&limit=2",
        status: 200,
        requestId: "r1",
        etag: undefined,
        fromCache: false,
      },
    ],
  };

  it("a key in a request's query is masked, and the manifest fits the schema", () => {
    const m = manifestOf(facts, { sha256: "0".repeat(64), bytes: 2 });
    expect(m.requests[0]).toMatchObject({ path: "/v1/studies", query: "api_key=***&limit=2", purpose: "answer" });
    expect(m.base_url).toBe("https://u:***@api.example/v1");
    expect(JSON.stringify(m)).not.toContain("abc123");
    expect(manifestErrors(m)).toEqual([]);
  });

  it("the schema refuses an absolute path, a sync id as a string and a digest that is not one", () => {
    const m = manifestOf(
      {
        ...facts,
        library: { syncId: 3, syncedAt: "2026-01-01T00:00:00.000Z", location: "lib.sqlite", walks: [] },
      },
      { sha256: "0".repeat(64), bytes: 2 },
    );
    expect(manifestErrors(m)).toEqual([]);
    const bad = { ...m, file: "/home/me/out.json", sha256: "xyz", library: { ...m.library, sync_id: "3" } };
    expect(manifestErrors(bad).join("\n")).toMatch(/\/file[\s\S]*\/library\/sync_id[\s\S]*\/sha256/);
  });
});

describe("the command words in a manifest", () => {
  it("mask passwords in URLs and key-like parameter values, name local files alone, and keep the rest as typed", () => {
    expect(
      maskedWords([
        "studies",
        "export",
        "--proxy",
        "http://user:secret@proxy.example:3128",
        "--proxy=http://u:p@h:1",
        "--db",
        "postgres://pep:hunter2@db.example/lib",
        "--db=postgres://pep@db.example/lib?sslmode=require&password=hunter2",
        "--db",
        "postgres://pep:hun@ter2@db.example/lib",
        "--param",
        "api_key=abc123",
        "--param=token=xyz",
        "--param",
        "form=capsules",
        "--api-key-file",
        "/home/me/key.txt",
      ]),
    ).toEqual([
      "studies",
      "export",
      "--proxy",
      "http://user:***@proxy.example:3128",
      "--proxy=http://u:***@h:1",
      "--db",
      "postgres://pep:***@db.example/lib",
      "--db=postgres://pep@db.example/lib?sslmode=require&password=***",
      "--db",
      "postgres://pep:***@db.example/lib",
      "--param",
      "api_key=***",
      "--param=token=***",
      "--param",
      "form=capsules",
      "--api-key-file",
      "key.txt",
    ]);
  });
});
