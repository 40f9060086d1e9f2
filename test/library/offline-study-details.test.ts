/**
 * `pep --offline studies get` over a library filled by `pep sync` itself, against the
 * sandbox: the same bytes as online in every format, for every id form, several ids and
 * `-` from standard input, once `--study-details` has kept the studies' own answers;
 * before that, exit 4 naming the flag. And an offline list's "to continue" line says
 * --offline when PEP_OFFLINE or the profile chose it. Needs node:sqlite: skipped on
 * Node 20 only.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runPep } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { hasSqlite } from "./helpers.js";

interface Study {
  id: string;
  pmid: string | null;
  doi: string | null;
  nct_id: string | null;
}

describe.skipIf(!hasSqlite())("--offline studies get over what pep sync kept", () => {
  const cli = useSandboxCli();
  let env: Record<string, string>;
  let studies: Study[] = [];

  beforeAll(async () => {
    env = { PEP_DATA_DIR: path.join(cli.dir, "data"), PEP_API_KEY: "sbx_full_key", COLUMNS: "160" };
    const sync = await cli.pep(["sync"], { env });
    expect(sync.code, sync.err).toBe(0);
    studies = JSON.parse((await cli.pep(["--offline", "studies", "list", "--all", "-o", "json"], { env })).out);
  }, 120_000);

  const withDoi = () => studies.find((s) => s.pmid && s.doi)!;
  const withNct = () => studies.find((s) => s.nct_id && !s.pmid)!;

  it("before --study-details: a listed study's own answer is exit 4 naming the flag; an unknown id, the hint to sync", async () => {
    const s = withDoi();
    const r = await cli.pep(["--offline", "studies", "get", s.pmid!], { env });
    expect(r.code).toBe(4);
    expect(r.sent).toBe(0);
    expect(r.err).toContain(`the library holds study "${s.id}" but not its own answer (GET /studies/{id})`);
    expect(r.err).toContain("hint: Run `pep sync studies --study-details` while online");
    expect(r.err).not.toContain("is not in the library");
    const unknown = await cli.pep(["--offline", "studies", "get", "pmid-12345"], { env });
    expect(unknown.code).toBe(4);
    expect(unknown.sent).toBe(0);
    expect(unknown.err).toContain('error: study "pmid-12345" is not in the library');
    expect(unknown.err).toContain("hint: Run `pep sync studies` while online to fetch it into the library");
    const bad = await cli.pep(["--offline", "studies", "get", "not a study"], { env });
    expect(bad.code).toBe(2);
  });

  it("after pep sync --study-details: the online bytes in json, table and the citation formats, for every id form", async () => {
    const sync = await cli.pep(["sync", "studies", "--study-details", "-o", "json"], { env });
    expect(sync.code, sync.err).toBe(0);
    const s = withDoi();
    const t = withNct();
    const forms = [
      s.id,
      s.pmid!,
      s.doi!,
      `doi:${s.doi}`,
      `https://doi.org/${s.doi}`,
      `https://pubmed.ncbi.nlm.nih.gov/${s.pmid}/`,
      t.id,
      t.nct_id!,
      t.nct_id!.toLowerCase(),
    ];
    for (const id of forms)
      for (const format of ["json", "table", "bibtex", "ris", "csl-json"]) {
        const argv = ["studies", "get", id, "-o", format];
        const online = await cli.pep(argv, { env });
        const offline = await cli.pep(["--offline", ...argv], { env });
        expect(online.code, online.err).toBe(0);
        expect(offline.code, `${argv.join(" ")}: ${offline.err}`).toBe(0);
        expect(offline.sent).toBe(0);
        expect(offline.out, argv.join(" ")).toBe(online.out);
      }
  }, 120_000);

  it("several ids, and - from standard input, answered as online (an id not in the library: exit 4 for it)", async () => {
    const ids = [withDoi().doi!, withNct().nct_id!, studies[5]!.id];
    for (const format of ["json", "ndjson", "bibtex"]) {
      const online = await cli.pep(["studies", "get", ...ids, "-o", format], { env });
      const offline = await cli.pep(["--offline", "studies", "get", ...ids, "-o", format], { env });
      expect(offline.code, offline.err).toBe(0);
      expect(offline.sent).toBe(0);
      expect(offline.out).toBe(online.out);
    }
    const stdin = `${ids.join("\n")}\n`;
    const fromStdin = await runPep(["--offline", "studies", "get", "-", "-o", "json", "--base-url", cli.baseUrl], {
      env: { ...env, PEP_CONFIG_DIR: path.join(cli.dir, "config") },
      stdin,
    });
    const online = await cli.pep(["studies", "get", ...ids, "-o", "json"], { env });
    expect(fromStdin.code, fromStdin.err).toBe(0);
    expect(fromStdin.out).toBe(online.out);
    // One id not in the library: the others printed as online, exit 4 as the API's 404.
    const both = ["studies", "get", ids[0]!, "pmid-12345", "-o", "json"];
    const mixedOnline = await cli.pep(both, { env });
    const mixed = await cli.pep(["--offline", ...both], { env });
    expect(mixedOnline.code).toBe(4);
    expect(mixed.code).toBe(4);
    expect(mixed.out).toBe(mixedOnline.out);
    expect(mixed.err).toContain('study \\"pmid-12345\\" is not in the library');
  }, 60_000);

  it("a list's to-continue line says --offline when PEP_OFFLINE chose it, and that command goes on offline", async () => {
    const offEnv = { ...env, PEP_OFFLINE: "1" };
    const first = await cli.pep(["studies", "list", "--limit", "5", "-o", "json"], { env: offEnv });
    expect(first.code, first.err).toBe(0);
    expect(first.sent).toBe(0);
    const line = first.err.split("\n").find((l) => l.startsWith("to continue: "));
    // (The test's runs end with --base-url <sandbox>.)
    expect(line).toMatch(/^to continue: pep --offline studies list --limit 5 -o json --base-url \S+ '?--cursor=\S+'?$/);
    // The line as printed, run without PEP_OFFLINE: it still reads the library.
    const words = line!
      .replace(/^to continue: pep /, "")
      .replace(/ --base-url \S+/, "")
      .split(" ")
      .map((w) => w.replace(/^'(.*)'$/, "$1"));
    const next = await cli.pep(words, { env });
    expect(next.code, next.err).toBe(0);
    expect(next.sent).toBe(0);
    const online = await cli.pep(["studies", "list", "--limit", "10", "-o", "json"], { env });
    expect(JSON.parse(next.out)).toEqual(JSON.parse(online.out).slice(5));
    // Given as --offline already: said once.
    const given = await cli.pep(["--offline", "studies", "list", "--limit", "5"], { env });
    expect(given.err).toMatch(/to continue: pep --offline studies list --limit 5 --base-url \S+ '?--cursor=/);
    // The profile's offline key, the same.
    const cfg = { ...env, PEP_CONFIG_DIR: path.join(cli.dir, "cfg-offline") };
    expect((await runPep(["config", "set", "offline", "true"], { env: cfg })).code).toBe(0);
    const byProfile = await cli.pep(["studies", "list", "--limit", "5"], { env: cfg });
    expect(byProfile.code, byProfile.err).toBe(0);
    expect(byProfile.sent).toBe(0);
    expect(byProfile.err).toMatch(/to continue: pep --offline studies list --limit 5 --base-url \S+ '?--cursor=/);
  });
});
