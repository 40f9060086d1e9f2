/** What a newcomer meets first: the missing base URL named before the missing key, and flag values in any case. */
import { describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const cli = useSandboxCli();

describe("first steps", () => {
  it("with no base URL and no key, a keyed command names the base URL first (exit 2), not the key", async () => {
    const tmp = scratch("pep-first-");
    try {
      const r = await runPep(["vendors", "list"], { env: tmp.env });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^error: no API base URL is configured$/m);
      expect(r.err).not.toMatch(/API key/);
    } finally {
      tmp.cleanup();
    }
  });

  it("an enum flag's value is matched without regard to case and sent as the API spells it", async () => {
    const lower = await cli.pep(["peptides", "list", "--category", "cognitive", "-o", "json"]);
    const upper = await cli.pep(["peptides", "list", "--category", "Cognitive", "-o", "json"]);
    expect(upper.code, upper.err).toBe(0);
    expect(upper.out).toBe(lower.out);
    const near = await cli.pep(["peptides", "list", "--category", "cognitiv"]);
    expect(near.code).toBe(2);
    expect(near.err).toContain("Did you mean `cognitive`?");
    expect(near.sent).toBe(0);
  });
});

describe("-o ids", () => {
  it("prints one id a line for lists, batches and items, ready for the next command's -", async () => {
    const json = JSON.parse((await cli.pep(["peptides", "list", "--limit", "3", "-o", "json"])).out) as Array<{
      id: string;
    }>;
    const ids = await cli.pep(["peptides", "list", "--limit", "3", "-o", "ids"]);
    expect(ids.code, ids.err).toBe(0);
    expect(ids.out).toBe(json.map((p) => `${p.id}\n`).join(""));
    const one = await cli.pep(["peptides", "get", json[0]!.id, "-o", "ids"]);
    expect(one.out).toBe(`${json[0]!.id}\n`);
    const studies = await cli.pep(["peptides", "studies", json[0]!.id, json[1]!.id, "-o", "ids"]);
    const lines = studies.out.trim().split("\n");
    expect(lines.every((l) => /^pmid-\d+$|^doi-|^nct-/.test(l))).toBe(true);
    expect(new Set(lines).size).toBe(lines.length);
  });

  it("search: the hits' ids in the order of its CSV rows, profiles first; --types peptides for ids get takes", async () => {
    const csv = await cli.pep(["search", "insulin", "-o", "csv"]);
    const rows = csv.out.trim().split("\r\n").slice(1);
    const ids = await cli.pep(["search", "insulin", "-o", "ids"]);
    expect(ids.code, ids.err).toBe(0);
    expect(ids.out.trim().split("\n")).toEqual(rows.map((r) => r.split(",")[1]));
    const kinds = rows.map((r) => r.split(",")[0]);
    expect(new Set(kinds)).toEqual(new Set(["peptide", "content"]));
    const peptides = await cli.pep(["search", "insulin", "--types", "peptides", "-o", "ids"]);
    expect(peptides.out.trim().split("\n")).toEqual(
      rows.filter((r) => r.startsWith("peptide,")).map((r) => r.split(",")[1]),
    );
    const none = await cli.pep(["search", "zzzqqqxx", "-o", "ids"]);
    expect(none.code, none.err).toBe(0);
    expect(none.out).toBe("");
  });

  it("refuses what has no id, naming the format to use", async () => {
    const r = await cli.pep(["config", "list", "-o", "ids"]);
    expect(r.code).toBe(2);
    expect(r.err).toContain("-o ids: what this command prints has no id");
  });
});

describe("pep health -q", () => {
  it("prints nothing: the exit status is the answer", async () => {
    const r = await cli.pep(["health", "-q"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("");
    const loud = await cli.pep(["health", "-o", "json"]);
    expect(JSON.parse(loud.out)).toHaveProperty("status");
  });
});

describe("one voice for commander's errors", () => {
  it("tells them as error: and hint: lines, and --fields with no value lists the fields", async () => {
    const slip = await cli.pep(["peptides", "lisst"]);
    expect(slip.code).toBe(2);
    expect(slip.err).toMatch(/^error: unknown command 'lisst' for 'pep peptides'$/m);
    expect(slip.err).toMatch(/^hint: Did you mean `list`\?/m);
    // --fields last, with nothing after it (the harness adds --base-url at the end).
    const fields = await runPep(["--base-url", cli.baseUrl, "peptides", "list", "--fields"]);
    expect(fields.code).toBe(2);
    expect(fields.err).toMatch(/^error: option '--fields <a,b,c>' argument missing$/m);
    expect(fields.err).toMatch(/^hint: --fields takes, comma-separated: id, name, .*evidence/m);
    expect(fields.err).toContain("hint: Run `pep peptides list --help` for usage.");
    expect(
      fields.err
        .split("\n")
        .filter((l) => l !== "")
        .every((l) => /^(error|hint): /.test(l)),
    ).toBe(true);
  });
});
