/**
 * Did-you-mean everywhere: flags by meaning (other tools' spellings of -o), country names
 * and ISO-3 codes for the ISO-2 code, config keys, and the nearest names for a slug or a
 * vendor id the API does not know (asked of the API, as pep mcp asks). Each refused value
 * is refused before any request; a 404 gets its hint from one more request.
 */
import { describe, expect, it } from "vitest";
import { countryCode } from "../../src/api/countries.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const cli = useSandboxCli();
const KEY = { PEP_API_KEY: "sbx_full_key" };

describe("flags by meaning", () => {
  const cases: [string[], string][] = [
    [["peptides", "list", "--format", "csv"], "hint: Did you mean `-o csv`? (`--format` is `-o` in pep)"],
    [["peptides", "list", "--format=tsv"], "hint: Did you mean `-o tsv`? (`--format` is `-o` in pep)"],
    [["peptides", "list", "--json"], "hint: Did you mean `-o json`? (`--json` is `-o` in pep)"],
    [["studies", "list", "--csv"], "hint: Did you mean `-o csv`? (`--csv` is `-o` in pep)"],
    [["peptides", "list", "--api-key", "k"], "hint: Did you mean `--api-key-file <path|->`?"],
  ];
  it.each(cases)("%j: exit 2, the flag pep has for it, nothing sent", async (argv, hint) => {
    const r = await cli.pep(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(hint);
    expect(r.err).not.toContain("--sort");
    expect(r.sent).toBe(0);
  });
});

describe("values by meaning: the words people use, never an opposite", () => {
  const cases: [string[], string][] = [
    [["peptides", "list", "--evidence-level", "clinical"], "hint: Did you mean `clinical-trial`?"],
    [["peptides", "list", "--evidence-level", "trial"], "hint: Did you mean `clinical-trial`?"],
    [["peptides", "list", "--evidence-level", "approved"], "hint: Did you mean `fda-approved`?"],
    [
      ["peptides", "list", "--evidence-level", "human"],
      "hint: Did you mean `established-human`, `clinical-trial` or `limited-human`? (`--evidence-level established-human`)",
    ],
    [["peptides", "list", "--evidence-level", "Animal"], "hint: Did you mean `preclinical`?"],
    [["peptides", "list", "--regulatory-status", "banned"], "hint: Did you mean `withdrawn`?"],
    [["peptides", "list", "--category", "weight-loss"], "hint: Did you mean `fat-loss`?"],
    [["studies", "list", "--evidence-classification", "clinical"], "hint: Did you mean `human_controlled_trial`"],
    [["studies", "list", "--evidence-classification", "approved"], "hint: Did you mean `regulatory_label`"],
  ];
  it.each(cases)("%j: exit 2, the value meant, nothing sent", async (argv, hint) => {
    const r = await cli.pep(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(hint);
    expect(r.sent).toBe(0);
  });

  it("never offers the opposite of a word, by spelling", async () => {
    for (const word of ["clinical", "Clinical", "clinicals"]) {
      const r = await cli.pep(["peptides", "list", "--evidence-level", word]);
      expect(r.err).not.toContain("`preclinical`");
    }
  });
});

describe("unknown flags: the flag holding the word", () => {
  const cases: [string[], string][] = [
    [["peptides", "list", "--evidence", "x"], "hint: Did you mean `--evidence-level`?"],
    [["peptides", "list", "--level", "x"], "hint: Did you mean `--evidence-level`?"],
    [["studies", "list", "--evidence", "x"], "hint: Did you mean `--evidence-classification`?"],
    [["peptides", "list", "--research", "sleep"], "hint: Did you mean `--research-area` or `--search`?"],
    [["peptides", "list", "--limt", "3"], "hint: Did you mean `--limit`?"],
  ];
  it.each(cases)("%j: exit 2, the nearest flag, nothing sent", async (argv, hint) => {
    const r = await cli.pep(argv);
    expect(r.code).toBe(2);
    expect(r.err).toContain(hint);
    expect(r.sent).toBe(0);
  });
});

describe("countries: names and ISO-3 codes give the ISO-2 code", () => {
  it("knows names, ISO-3 codes and the names people type", () => {
    expect(countryCode("USA")).toBe("US");
    expect(countryCode("Germany")).toBe("DE");
    expect(countryCode("DEU")).toBe("DE");
    expect(countryCode("united kingdom")).toBe("GB");
    expect(countryCode("UK")).toBe("GB");
    expect(countryCode("Côte d’Ivoire")).toBe("CI");
    expect(countryCode("usa-ca")).toBe("US-CA");
    expect(countryCode("Atlantis")).toBeUndefined();
  });

  const cases: [string[], string][] = [
    [["vendors", "list", "--ships-to", "USA"], "hint: Did you mean `US`? (`--ships-to US`)"],
    [["vendors", "list", "--ships-to", "Germany"], "hint: Did you mean `DE`? (`--ships-to DE`)"],
    [["vendors", "list", "--country", "GBR"], "hint: Did you mean `GB`? (`--country GB`)"],
    [
      ["prices", "--peptide", "brevritarin-81", "--ships-to", "USA-CA"],
      "hint: Did you mean `US-CA`? (`--ships-to US-CA`)",
    ],
  ];
  it.each(cases)("%j: exit 2 with the code, nothing sent", async (argv, hint) => {
    const r = await cli.pep(argv, { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toContain(hint);
    expect(r.sent).toBe(0);
  });
});

describe("config keys", () => {
  it("a slip names the key; a word of another tool the key it means", async () => {
    const slip = await cli.pep(["config", "set", "timout", "5"]);
    expect(slip.code).toBe(2);
    expect(slip.err).toContain("hint: Did you mean `timeout`?");
    const meant = await cli.pep(["config", "get", "url"]);
    expect(meant.code).toBe(2);
    expect(meant.err).toContain("hint: Did you mean `base_url`?");
  });
});

describe("unknown slugs and vendor ids: the nearest names", () => {
  const cases: [string[], string][] = [
    [["prices", "--peptide", "brevritarin"], "prices --peptide brevritarin-81"],
    [["products", "--peptide", "brevritarin"], "products --peptide brevritarin-81"],
    [["vendors", "list", "--peptide", "brevritarin"], "vendors list --peptide brevritarin-81"],
    [["peptides", "get", "brevritarin"], "peptides get brevritarin-81"],
    [["vendors", "get", "neskax"], "vendors get neskax-research-materials"],
  ];
  it.each(cases)("%j: exit 4, and the command with the nearest name", async (argv, fixed) => {
    const r = await cli.pep(argv, { env: KEY });
    expect(r.code).toBe(4);
    const hint = r.err.split("\n").find((l) => l.startsWith("hint: Did you mean"));
    expect(hint, r.err).toContain(fixed);
    // The general word on the sandbox's names gives way to the names themselves.
    expect(r.err).not.toContain("the sandbox's data is synthetic");
  });

  it("a name like none: the 404 as it was, one request for the names", async () => {
    const r = await cli.pep(["prices", "--peptide", "zzzzzzzz"], { env: KEY });
    expect(r.code).toBe(4);
    expect(r.err).not.toContain("Did you mean");
    expect(r.sent).toBe(2);
  });
});
