/**
 * `--offline` answers from the library with the bytes the API's answers print: every
 * command it serves, in json, ndjson, csv, table and the citation formats, compared with
 * the same command online against the sandbox the library was filled from; and no request
 * reaches the server. Needs node:sqlite: skipped on Node 20 only.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { HAS_SQLITE, fillLibrary } from "../helpers/library-fill.js";
import { readManifest } from "../helpers/manifest.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

describe.skipIf(!HAS_SQLITE)("--offline: the same output as online", () => {
  const cli = useSandboxCli();
  let env: Record<string, string>;
  let synced: string;
  const ids = { peptide: "", alias: "", vendor: "", vendorSlug: "", study: "", pmid: "", category: "", level: "" };

  beforeAll(async () => {
    const dataDir = path.join(cli.dir, "data");
    synced = await fillLibrary(cli.baseUrl, dataDir);
    env = { PEP_DATA_DIR: dataDir, PEP_API_KEY: "sbx_full_key", COLUMNS: "160" };
    const peptides = JSON.parse((await cli.pep(["peptides", "list", "--all", "-o", "json"], { env })).out);
    const withStudies = peptides.find((p: { evidence: { human_studies: number } }) => p.evidence.human_studies > 2);
    ids.peptide = withStudies.id;
    ids.alias = peptides.find((p: { also_known_as: string[] }) => p.also_known_as.length > 0).also_known_as[0];
    ids.category = withStudies.categories[0];
    ids.level = withStudies.evidence.level;
    const vendors = JSON.parse((await cli.pep(["vendors", "list", "-o", "json"], { env })).out);
    ids.vendor = vendors[0].id;
    ids.vendorSlug = vendors[1].slug;
    const studies = JSON.parse((await cli.pep(["studies", "list", "--all", "-o", "json"], { env })).out);
    const withPmid = studies.find((s: { pmid: string | null }) => s.pmid);
    ids.study = studies.find((s: { doi: string | null }) => s.doi).id;
    ids.pmid = withPmid.pmid;
  }, 120_000);

  const same = async (argv: string[]) => {
    const online = await cli.pep(argv, { env });
    const offline = await cli.pep(["--offline", ...argv], { env });
    expect(online.code, online.err).toBe(0);
    expect(offline.err).not.toMatch(/error/);
    expect(offline.code).toBe(0);
    expect(offline.sent).toBe(0);
    expect(offline.out).toBe(online.out);
    expect(offline.out.length).toBeGreaterThan(0);
    return offline;
  };

  const commands = (): string[][] => [
    ["peptides", "list"],
    ["peptides", "list", "--all"],
    ["peptides", "list", "--category", ids.category, "--evidence-level", ids.level],
    ["peptides", "list", "--sort", "name", "--limit", "7"],
    ["peptides", "get", ids.peptide],
    ["peptides", "get", ids.alias],
    ["peptides", "get", ids.peptide, ids.alias],
    ["peptides", "studies", ids.peptide],
    ["peptides", "research", ids.peptide],
    ["peptides", "regulatory", ids.peptide],
    ["studies", "list"],
    ["studies", "list", "--all", "--page-size", "37"],
    ["studies", "list", "--peptide", ids.peptide, "--all"],
    [
      "studies",
      "list",
      "--evidence-classification",
      "human_controlled_trial,in_vitro",
      "--year-from",
      "2010",
      "--year-to",
      "2020",
      "--limit",
      "30",
    ],
    ["studies", "get", ids.study],
    ["studies", "get", ids.pmid],
    ["studies", "get", `https://pubmed.ncbi.nlm.nih.gov/${ids.pmid}/`],
    ["vendors", "list"],
    ["vendors", "list", "--country", "US", "--min-rating", "3.5", "--all"],
    ["vendors", "get", ids.vendor],
    ["vendors", "get", ids.vendorSlug],
    ["categories"],
    ["research-areas", "--all"],
    ["products", "--all"],
    ["prices", "--limit", "50"],
    ["prices", "--peptide", ids.peptide, "--currency", "usd", "--all"],
    ["products", "--peptide", ids.peptide],
  ];

  for (const format of ["json", "ndjson", "csv", "table"]) {
    it(`every command it serves, -o ${format}`, async () => {
      for (const argv of commands()) {
        const isCard = ["get", "research", "regulatory"].includes(argv[1] ?? "");
        if (format === "csv" && isCard && argv[0] !== "studies") continue;
        await same([...argv, "-o", format]);
      }
    }, 120_000);
  }

  it("a peptide named as people type it (spaces, capitals) answers as online; an unknown name says how it was compared", async () => {
    const typed = ids.peptide.replace(/-/g, " ").toUpperCase();
    await same(["peptides", "get", typed, "-o", "json"]);
    const r = await cli.pep(["--offline", "peptides", "get", "no such peptide"], { env });
    expect(r.code).toBe(4);
    expect(r.err).toContain(
      'no peptide in the library is named "no such peptide" (its ids, names and aliases compared without regard to case, spaces, hyphens or accents)',
    );
  });

  it("browse prints the page of a record the library holds, as online", async () => {
    for (const argv of [
      ["browse", ids.peptide],
      ["browse", "vendor", ids.vendor],
    ]) {
      const r = await same([...argv, "--no-browser"]);
      expect(r.out).toMatch(/^https?:\/\/\S+\n$/);
    }
  });

  it("studies export in every citation format, and csv to a file", async () => {
    for (const format of ["bibtex", "ris", "csl-json", "csv", "ndjson"]) {
      const r = await same(["studies", "export", "--peptide", ids.peptide, "-o", format]);
      if (format === "bibtex") expect(r.out).toMatch(/synthetic/i);
    }
    await same(["studies", "export", "--evidence-classification", "human_study", "-o", "ris"]);
    await same(["studies", "get", ids.study, "-o", "bibtex"]);
  }, 120_000);

  it("--manifest names the library, its sync and the base URL it was synced from; the file is the online one", async () => {
    const { readFileSync } = await import("node:fs");
    const { createHash } = await import("node:crypto");
    const file = path.join(cli.dir, "offline-export.ris");
    const online = path.join(cli.dir, "online-export.ris");
    const argv = ["studies", "export", "--peptide", ids.peptide, "--manifest"];
    expect((await cli.pep([...argv, "--file", online], { env })).code).toBe(0);
    const r = await cli.pep(["--offline", ...argv, "--file", file], { env });
    expect(r.code, r.err).toBe(0);
    expect(r.sent).toBe(0);
    expect(readFileSync(file, "utf8")).toBe(readFileSync(online, "utf8"));
    const m = readManifest(file);
    expect(m).toMatchObject({
      source: "library",
      synthetic: true,
      base_url: cli.baseUrl,
      api_version: "v1",
      library: {
        sync_id: 1,
        synced_at: synced,
        location: "default.sqlite",
        // The walks that answered: the peptide's name resolved, then its studies.
        resources: { peptides: { sync_id: 1 }, studies: { sync_id: 1 } },
      },
      requests: [],
      sha256: createHash("sha256").update(readFileSync(file)).digest("hex"),
    });
    expect(m.items).toBeGreaterThan(0);
    expect(readManifest(online).source).toBe("sandbox");
  });

  it("tells the sync it answers from on stderr, keeps sandbox data marked synthetic, -q silences only the first", async () => {
    const r = await cli.pep(["--offline", "peptides", "list", "-o", "json"], { env });
    expect(r.err).toContain(`from the local library, synced ${synced}`);
    expect(r.err).toMatch(/sandbox data, synthetic/);
    const quiet = await cli.pep(["--offline", "-q", "peptides", "list", "-o", "json"], { env });
    expect(quiet.err).not.toContain("from the local library");
    expect(quiet.err).toMatch(/sandbox data, synthetic/);
  });

  it("PEP_OFFLINE=1 and the profile's offline key do what --offline does; PEP_OFFLINE=0 overrides the profile", async () => {
    const online = await cli.pep(["categories", "-o", "json"], { env });
    const byEnv = await cli.pep(["categories", "-o", "json"], { env: { ...env, PEP_OFFLINE: "1" } });
    expect(byEnv).toMatchObject({ code: 0, sent: 0, out: online.out });
    expect((await cli.pep(["config", "set", "offline", "true"], { env })).code).toBe(0);
    const byConfig = await cli.pep(["categories", "-o", "json"], { env });
    expect(byConfig).toMatchObject({ code: 0, sent: 0, out: online.out });
    const forced = await cli.pep(["categories", "-o", "json"], { env: { ...env, PEP_OFFLINE: "0" } });
    expect(forced.sent).toBeGreaterThan(0);
    // The profile's key leaves commands the library does not serve online; the flag refuses them.
    const health = await cli.pep(["health", "-o", "json"], { env });
    expect(health.code, health.err).toBe(0);
    expect(health.sent).toBeGreaterThan(0);
    expect((await cli.pep(["health"], { env: { ...env, PEP_OFFLINE: "1" } })).code).toBe(2);
    expect((await cli.pep(["config", "unset", "offline"], { env })).code).toBe(0);
    const bad = await cli.pep(["categories"], { env: { ...env, PEP_OFFLINE: "maybe" } });
    expect(bad.code).toBe(2);
  });

  it("pages with its own cursors: --limit then the cursor it printed goes on where the list stopped", async () => {
    const all = JSON.parse(
      (await cli.pep(["--offline", "studies", "list", "--limit", "45", "-o", "json"], { env })).out,
    );
    const first = await cli.pep(["--offline", "studies", "list", "--limit", "20", "-o", "json"], { env });
    const cursor = /--cursor=(\S+)/.exec(first.err)?.[1];
    expect(cursor).toMatch(/^lib1\./);
    const second = await cli.pep(
      ["--offline", "studies", "list", "--limit", "25", `--cursor=${cursor}`, "-o", "json"],
      {
        env,
      },
    );
    expect([...JSON.parse(first.out), ...JSON.parse(second.out)]).toEqual(all);
    const other = await cli.pep(["--offline", "studies", "list", "--peptide", ids.peptide, `--cursor=${cursor}`], {
      env,
    });
    expect(other.code).toBe(2);
    expect(other.err).toMatch(/--cursor: this cursor belongs to another list/);
    const api = await cli.pep(["--offline", "studies", "list", "--cursor=abc.def"], { env });
    expect(api.code).toBe(2);
  });

  it("refuses, exit 2 and nothing sent, what it cannot answer exactly, naming the flag or command", async () => {
    const cases: Array<[string[], RegExp]> = [
      [["search", "bpc"], /pep search: the library cannot answer this command/],
      [["peptides", "list", "--search", "bpc"], /--search/],
      [["peptides", "list", "--research-area", "sleep"], /--research-area/],
      [["peptides", "list", "--sort", "-name"], /--sort -name/],
      [["studies", "list", "--sort", "oldest"], /--sort oldest/],
      [["studies", "list", "--search", "trial"], /--search/],
      [["studies", "list", "--fields", "id,title"], /--fields/],
      [["vendors", "list", "--ships-to", "US"], /--ships-to/],
      [["vendors", "get", "x", "--ships-to", "US"], /--ships-to/],
      [["vendors", "compare", "a", "b"], /pep vendors compare/],
      [["vendors", "shipping", "a"], /pep vendors shipping/],
      [["prices", "--form", "capsules"], /--form/],
      [["prices", "--param", "a=b"], /--param/],
      [["products", "--currency", "USD"], /--currency/],
      [["research-areas", "--search", "sleep"], /--search/],
      [["api", "/peptides"], /pep api/],
      [["health"], /pep health/],
      [["index"], /pep index/],
    ];
    for (const [argv, message] of cases) {
      const r = await cli.pep(["--offline", ...argv], { env });
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.sent).toBe(0);
      expect(r.out).toBe("");
    }
  });

  it("an id the library does not hold is exit 4 with a hint to sync; in a batch the others still print", async () => {
    for (const argv of [
      ["peptides", "get", "no-such-peptide"],
      ["studies", "get", "pmid-1"],
      ["vendors", "get", "no-such-vendor"],
      ["studies", "list", "--peptide", "no-such-peptide"],
    ]) {
      const r = await cli.pep(["--offline", ...argv], { env });
      expect(r.code, argv.join(" ")).toBe(4);
      expect(r.err).toMatch(/not in the library|no (peptide|vendor) in the library is named/);
      expect(r.err).toMatch(/pep sync/);
      expect(r.sent).toBe(0);
    }
    const batch = await cli.pep(["--offline", "peptides", "get", ids.peptide, "nope", "-o", "json"], { env });
    expect(batch.code).toBe(4);
    expect(JSON.parse(batch.out)).toHaveLength(1);
  });

  it("a missing library is a usage error saying how to make one", async () => {
    const r = await cli.pep(["--offline", "categories"], { env: { ...env, PEP_DATA_DIR: path.join(cli.dir, "none") } });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/pep sync/);
    expect(r.sent).toBe(0);
  });
});

describe.skipIf(HAS_SQLITE)("--offline on a Node without node:sqlite", () => {
  it("says what to install (exit 2) and sends nothing; other commands are untouched", async () => {
    const { runPep, scratch } = await import("../helpers/cli.js");
    const tmp = scratch();
    try {
      const r = await runPep(["--offline", "categories"], { env: { ...tmp.env, PEP_DATA_DIR: tmp.dir } });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/Node\.js 22/);
      const help = await runPep(["categories", "--help"], { env: tmp.env });
      expect(help.code).toBe(0);
    } finally {
      tmp.cleanup();
    }
  });
});
