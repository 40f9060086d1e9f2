/**
 * `--offline` over a library made by `pep sync` itself (not a test helper): the commands
 * print the online bytes in json, ndjson, csv, table (the affiliate disclosure too, from
 * the meta the sync keeps) and the citation formats, stderr's disclosure included; what
 * the sync does not keep unless asked (a study's own answer: --study-details) is exit 4,
 * naming the flag (test/library/offline-study-details.test.ts: once kept). Needs node:sqlite:
 * skipped on Node 20 only.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { hasSqlite } from "./helpers.js";

describe.skipIf(!hasSqlite())("--offline over what pep sync kept", () => {
  const cli = useSandboxCli();
  let env: Record<string, string>;
  let peptide = "";
  let vendor = "";

  beforeAll(async () => {
    env = { PEP_DATA_DIR: path.join(cli.dir, "data"), PEP_API_KEY: "sbx_full_key", COLUMNS: "160" };
    const sync = await cli.pep(["sync"], { env });
    expect(sync.code, sync.err).toBe(0);
    const list = JSON.parse((await cli.pep(["--offline", "peptides", "list", "-o", "json"], { env })).out);
    peptide = list[3].id;
    vendor = JSON.parse((await cli.pep(["--offline", "vendors", "list", "-o", "json"], { env })).out)[2].slug;
  }, 120_000);

  const same = async (argv: string[]) => {
    const online = await cli.pep(argv, { env });
    const offline = await cli.pep(["--offline", ...argv], { env });
    expect(online.code, online.err).toBe(0);
    expect(offline.code, `${argv.join(" ")}: ${offline.err}`).toBe(0);
    expect(offline.sent).toBe(0);
    expect(offline.out, argv.join(" ")).toBe(online.out);
  };

  it("the same bytes in json, ndjson and csv for every list and get the sync keeps", async () => {
    for (const format of ["json", "ndjson", "csv"])
      for (const argv of [
        ["peptides", "list", "--all"],
        ["peptides", "get", peptide],
        ["peptides", "studies", peptide],
        ["peptides", "research", peptide],
        ["peptides", "regulatory", peptide],
        ["studies", "list", "--peptide", peptide],
        ["studies", "list", "--all", "--evidence-classification", "human_study,animal_or_lab"],
        ["vendors", "list", "--all"],
        ["vendors", "get", vendor],
        ["categories"],
        ["research-areas", "--all"],
        ["products", "--all"],
        ["prices", "--all"],
      ]) {
        const card = ["get", "research", "regulatory"].includes(argv[1] ?? "");
        if (format === "csv" && card) continue;
        await same([...argv, "-o", format]);
      }
  }, 120_000);

  it("tables and citations too, the affiliate disclosure kept with the answers' meta", async () => {
    for (const argv of [
      ["vendors", "list", "-o", "table"],
      ["vendors", "get", vendor, "-o", "table"],
      ["prices", "--limit", "30", "-o", "table"],
      ["peptides", "list", "-o", "table"],
      ["peptides", "get", peptide, "-o", "table"],
      ["studies", "list", "-o", "table"],
      ["categories", "-o", "table"],
      ["studies", "export", "--peptide", peptide, "-o", "bibtex"],
      ["studies", "export", "--peptide", peptide, "-o", "ris"],
      ["studies", "export", "--peptide", peptide, "-o", "csl-json"],
    ])
      await same(argv);
    // With a machine format the disclosure goes to stderr, as online.
    const online = await cli.pep(["prices", "-o", "json"], { env });
    const offline = await cli.pep(["--offline", "prices", "-o", "json"], { env });
    const disclosure = (err: string) => err.split("\n").filter((l) => /affiliate links/.test(l));
    expect(disclosure(offline.err)).toEqual(disclosure(online.err));
    expect(disclosure(offline.err)).toHaveLength(1);
  }, 60_000);

  it("a study's own answer, which the sync keeps only with --study-details, is exit 4 naming the flag", async () => {
    const studies = JSON.parse((await cli.pep(["--offline", "studies", "list", "-o", "json"], { env })).out);
    const study = studies.find((s: { pmid: string | null }) => s.pmid);
    const r = await cli.pep(["--offline", "studies", "get", study.pmid], { env });
    expect(r.code).toBe(4);
    expect(r.err).toContain(`the library holds study "pmid-${study.pmid}" but not its own answer (GET /studies/{id})`);
    expect(r.err).toContain("`pep sync studies --study-details`");
    expect(r.sent).toBe(0);
  });
});
