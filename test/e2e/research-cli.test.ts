/**
 * The research and study commands as a user meets them, run in-process through
 * `run(argv, deps)` against a loopback sandbox: the first-run experience of
 * `pep --sandbox peptides list`, a CI export of citations, and the exit codes a shell
 * would see.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { fetchAll, getJson } from "../helpers/direct.js";
import { readCitations, visible } from "../helpers/formats.js";
import { startSandboxCli, type SandboxCli } from "../helpers/sandbox-cli.js";

type Item = Record<string, unknown>;
let cli: SandboxCli;
let env: Record<string, string>;

beforeAll(async () => {
  cli = await startSandboxCli({ seed: 2 });
  env = { PEP_CONFIG_DIR: path.join(cli.dir, "config"), PEP_CACHE_DIR: path.join(cli.dir, "cache") };
});
afterAll(async () => {
  await cli?.close();
});

describe("pep, in-process, for research and studies", () => {
  it("`pep --sandbox peptides list -o table` prints a table of peptides and the synthetic-data notice", async () => {
    const r = await inProcessPep(["--sandbox", "peptides", "list", "-o", "table"], { env: { ...env, COLUMNS: "100" } });
    expect(r.code, r.err).toBe(0);
    const lines = visible(r.out)
      .split("\n")
      .filter((l) => l.trim() !== "");
    expect(lines.length).toBeGreaterThan(20);
    expect(lines[0]!.toLowerCase()).toMatch(/^id {2,}.*evidence/);
    expect(r.err).toMatch(/sandbox data, synthetic/);
  });

  it("piped, `pep --sandbox peptides list` prints JSON: 20 profiles", async () => {
    const r = await inProcessPep(["--sandbox", "peptides", "list"], { env });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out) as unknown[]).toHaveLength(20);
  });

  it("a CI job exports a peptide's citations to refs.bib", async () => {
    const peptide = String(((await getJson(cli.baseUrl, "/peptides", { limit: 1 })).body.data as Item[])[0]!.id);
    const cited = (await fetchAll(cli.baseUrl, "/studies", { peptide })) as Item[];
    const r = await inProcessPep(
      ["studies", "export", "--peptide", peptide, "-o", "bibtex", "--file", "refs.bib", "--base-url", cli.baseUrl],
      {
        env,
        cwd: cli.dir,
      },
    );
    expect(r.code, r.err).toBe(0);
    const entries = await readCitations(readFileSync(path.join(cli.dir, "refs.bib"), "utf8"), "bibtex");
    expect(entries.map((e) => e.title)).toEqual(cited.map((s) => s.title));
  });

  it("`pep search growth factor` takes the words as one query", async () => {
    const direct = await getJson(cli.baseUrl, "/search", { q: "growth factor" });
    const r = await inProcessPep(["search", "growth", "factor", "-o", "json", "--base-url", cli.baseUrl], { env });
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual(direct.body.data);
  });

  it("exit codes: 2 for a bad study id or year (nothing sent), 4 for an unknown peptide", async () => {
    const before = cli.requestCount();
    const badId = await inProcessPep(["studies", "get", "not-an-id", "--base-url", cli.baseUrl], { env });
    expect(badId.code).toBe(2);
    expect(badId.err).toMatch(/is not a study id/);
    const badYear = await inProcessPep(["studies", "list", "--year-from", "1899", "--base-url", cli.baseUrl], { env });
    expect(badYear.code).toBe(2);
    expect(badYear.err).toMatch(/--year-from/);
    expect(cli.requestCount()).toBe(before);
    const missing = await inProcessPep(
      ["peptides", "get", "no-such-peptide", "-o", "table", "--base-url", cli.baseUrl],
      {
        env,
      },
    );
    expect(missing.code).toBe(4);
    expect(missing.err).toMatch(/HTTP 404/);
    expect(missing.err).not.toMatch(/\n\s+at /);
  });

  it("help lists allowed values, defaults, examples and the research-only notice", async () => {
    const r = await inProcessPep(["peptides", "list", "--help"], { env });
    expect(r.code).toBe(0);
    expect(r.out).toContain("fat-loss, cognitive, muscle-recovery");
    expect(r.out).toContain("(default: 20)");
    expect(r.out).toContain("Examples:");
    expect(r.out).toContain("not medical advice");
  });
});
