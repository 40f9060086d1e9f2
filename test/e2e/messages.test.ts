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
    expect(r.err).toMatch(/^hint: Did you mean `cognitive`\? \(`--category cognitive`\)$/m);
    expect(r.sent).toBe(0);
    const sort = await cli.pep(["peptides", "list", "--sort", "nmae"], { env: KEY });
    expect(sort.err).toMatch(/^hint: Did you mean `name`\? \(`--sort name`\)$/m);
  });

  it("a mistyped command gets the same line shape", async () => {
    const r = await cli.pep(["peptides", "lsit"], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^hint: Did you mean `list`\? \(`pep peptides list`\)$/m);
  });

  it("--fields says which names were wrong, with the closest valid ones", async () => {
    const r = await cli.pep(["peptides", "list", "--fields", "name,evidnce,nosuchthing"], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^error: --fields must be a comma-separated list of: .* \(not known: "evidnce", "nosuchthing"\)$/m,
    );
    expect(r.err).toMatch(/^hint: Did you mean `evidence` for `evidnce`\?$/m);
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

describe("enum values: every one checked before the request, case aside", () => {
  it("each enum flag of each command refuses a slip before any request, with the closest value", async () => {
    const cases: [string[], string, string][] = [
      [["peptides", "list", "--evidence-level", "clinical-trail"], "--evidence-level", "clinical-trial"],
      [["peptides", "list", "--regulatory-status", "withdrawm"], "--regulatory-status", "withdrawn"],
      [["studies", "list", "--sort", "oldset"], "--sort", "oldest"],
      [["studies", "export", "--sort", "titel", "-o", "csv"], "--sort", "title"],
      [["vendors", "list", "--product-category", "spray"], "--product-category", "sprays"],
      [["vendors", "list", "--sort", "ratings"], "--sort", "rating"],
    ];
    for (const [argv, flag, meant] of cases) {
      const r = await cli.pep(argv, { env: KEY });
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toMatch(new RegExp(`^error: ${flag} must be one of: `, "m"));
      expect(r.err).toContain(`hint: Did you mean \`${meant}\`? (\`${flag} ${meant}\`)`);
      expect(r.sent, argv.join(" ")).toBe(0);
    }
    const types = await cli.pep(["search", "sleep", "--types", "peptide"], { env: KEY });
    expect(types.code).toBe(2);
    expect(types.err).toContain("hint: Did you mean `peptides` for `peptide`?");
    expect(types.sent).toBe(0);
  });

  it("values match without regard to case, list members too", async () => {
    for (const argv of [
      ["peptides", "list", "--category", "Cognitive", "--evidence-level", "CLINICAL-TRIAL", "--sort", "Name"],
      ["studies", "list", "--evidence-classification", "Human_Study,HUMAN_CONTROLLED_TRIAL", "--sort", "Oldest"],
      ["vendors", "list", "--product-category", "Peptides", "--sort", "Best_Match"],
      ["search", "sleep", "--types", "Peptides,CONTENT"],
    ]) {
      const r = await cli.pep([...argv, "--limit", "1", "-o", "json"], { env: KEY });
      expect(r.code, `${argv.join(" ")}\n${r.err}`).toBe(0);
      expect(r.err).not.toContain("warning:");
    }
  });

  it("-o, PEP_OUTPUT, --auth-header and the completion shell: case aside, and a slip gets the closest", async () => {
    const upper = await cli.pep(["index", "-o", "JSON"]);
    expect(upper.code, upper.err).toBe(0);
    expect(JSON.parse(upper.out)).toBeTypeOf("object");
    const env = await cli.pep(["index"], { env: { PEP_OUTPUT: "Json" } });
    expect(env.code, env.err).toBe(0);
    expect(JSON.parse(env.out)).toBeTypeOf("object");
    const slip = await cli.pep(["index", "-o", "jsno"]);
    expect(slip.code).toBe(2);
    expect(slip.err).toMatch(/^error: --output must be one of: .* \(got "jsno"\)$/m);
    expect(slip.err).toMatch(/^hint: Did you mean `json`\?$/m);
    expect(slip.sent).toBe(0);
    const header = await cli.pep(["index", "--auth-header", "X-Api-Key", "-o", "json"]);
    expect(header.code, header.err).toBe(0);
    const bad = await cli.pep(["index", "--auth-header", "bearr"]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/^hint: Did you mean `bearer`\?$/m);
    const shell = await cli.pep(["completion", "ZSH"]);
    expect(shell.code, shell.err).toBe(0);
    expect(shell.out).toContain("compdef");
    const slipShell = await cli.pep(["completion", "bsh"]);
    expect(slipShell.code).toBe(2);
    expect(slipShell.err).toContain("hint: Did you mean `bash`? (`pep completion bash`)");
  });
});

describe("--fields: the names the spec lists, case aside", () => {
  it("ID,Name is id,name on the wire and in the header; a slip is refused with the name it likely means", async () => {
    const r = await cli.pep(["peptides", "list", "--fields", "ID,Name", "--limit", "2", "-o", "csv"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split("\r\n")[0]).toBe("id,name");
    expect(r.out.split("\r\n")[1]).toMatch(/^[a-z0-9-]+,\S/);
    const slip = await cli.pep(["peptides", "list", "--fields", "Nme"]);
    expect(slip.code).toBe(2);
    expect(slip.sent).toBe(0);
    expect(slip.err).toContain("hint: Did you mean `name` for `Nme`?");
  });
});

describe("--evidence-classification: checked before the request like every enum flag", () => {
  // The spec names the six classes (one identifier given); pep knows the six
  // identifiers, refuses anything else itself with the class the word likely means,
  // and sends nothing.
  it("a word for a class is refused with the class it likely means, exit 2, no request", async () => {
    const r = await cli.pep(["studies", "list", "--evidence-classification", "rct"], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.sent).toBe(0);
    expect(r.err).toContain(
      'error: --evidence-classification must be a comma-separated list of: regulatory_label, human_controlled_trial, human_study, secondary_report, animal_or_lab, in_vitro (not known: "rct")',
    );
    expect(r.err).toContain(
      "hint: Did you mean `human_controlled_trial` for `rct`? (`--evidence-classification human_controlled_trial`)",
    );
  });

  it("a slip gets the nearest class, each member of a list on its own; case aside, known values pass", async () => {
    const slip = await cli.pep(["studies", "list", "--evidence-classification", "human_studdy,in_vitro,animals"], {
      env: KEY,
    });
    expect(slip.code).toBe(2);
    expect(slip.sent).toBe(0);
    expect(slip.err).toContain('(not known: "human_studdy", "animals")');
    expect(slip.err).toContain("hint: Did you mean `human_study` for `human_studdy`?");
    expect(slip.err).toContain("hint: Did you mean `animal_or_lab` for `animals`?");
    const known = await cli.pep(["studies", "list", "--evidence-classification", "In_Vitro,HUMAN_STUDY", "-o", "json"]);
    expect(known.code, known.err).toBe(0);
    expect(known.err).not.toContain("error:");
    const classes = new Set(
      (JSON.parse(known.out) as { evidence_classification: string }[]).map((s) => s.evidence_classification),
    );
    expect([...classes].sort()).toEqual(["human_study", "in_vitro"]);
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
    expect(other.err).not.toMatch(/^hint: .*synthetic/m);
  });
});
