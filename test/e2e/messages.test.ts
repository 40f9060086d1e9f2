/**
 * Messages of one voice: every bad value names the flag (never the API's parameter),
 * says what it accepts and what it got, and a slip of a valid name gets the same "did you
 * mean" line as a mistyped command. Against the sandbox, in process; nothing is sent.
 */
import { describe, expect, it } from "vitest";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const cli = useSandboxCli();
const KEY = { PEP_API_KEY: "sbx_full_key" };

describe("bad values", () => {
  it("an enum value: the accepted values, what was typed, and the closest one", async () => {
    const r = await cli.pep(["peptides", "list", "--category", "cognitve"], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: --category must be one of: .*cognitive.* \(got "cognitve"\)$/m);
    expect(r.err).toMatch(/^hint: did you mean 'cognitive'\? \(--category cognitive\)$/m);
    expect(r.sent).toBe(0);
    const sort = await cli.pep(["peptides", "list", "--sort", "nmae"], { env: KEY });
    expect(sort.err).toMatch(/^hint: did you mean 'name'\? \(--sort name\)$/m);
  });

  it("a mistyped command gets the same line shape", async () => {
    const r = await cli.pep(["peptides", "lsit"], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^hint: did you mean 'list'\? \(pep peptides list\)$/m);
  });

  it("--fields says which names were wrong, with the closest valid ones", async () => {
    const r = await cli.pep(["peptides", "list", "--fields", "name,evidnce,nosuchthing"], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^error: --fields must be a comma-separated list of: .* \(not known: "evidnce", "nosuchthing"\)$/m,
    );
    expect(r.err).toMatch(/^hint: did you mean 'evidence' for 'evidnce'\?$/m);
    expect(r.err).not.toContain("for 'nosuchthing'");
    expect(r.sent).toBe(0);
  });

  it("names flags, not the API's parameters, also inside the message", async () => {
    const r = await cli.pep(["studies", "list", "--year-from", "2020", "--year-to", "2010"], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: --year-from must not be later than --year-to \(got "2020"\)$/m);
    expect(r.err).not.toMatch(/year_to|year_from/);
  });

  it("every bad number says what it got", async () => {
    const r = await cli.pep(["vendors", "list", "--min-rating", "9"], { env: KEY });
    expect(r.err).toMatch(/^error: --min-rating must be a number from 0 to 5 \(got "9"\)$/m);
  });
});

describe("the sandbox's names", () => {
  it("a 404 in sandbox mode says its data is synthetic and how to list its names", async () => {
    const { runPep } = await import("../helpers/cli.js");
    const r = await runPep(["--sandbox", "peptides", "get", "bpc-157"], {
      env: { PEP_CONFIG_DIR: `${cli.dir}/c`, PEP_CACHE_DIR: `${cli.dir}/k` },
    });
    expect(r.code).toBe(4);
    expect(r.err).toMatch(/^hint: the sandbox's data is synthetic: .*`pep --sandbox peptides list`/m);
    // Against any other API a 404 is only the API's message.
    const other = await cli.pep(["peptides", "get", "bpc-157"], { env: KEY });
    expect(other.code).toBe(4);
    expect(other.err).not.toContain("synthetic");
  });
});
