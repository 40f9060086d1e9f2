/**
 * Hostile API text in the human formats, through the real executable: tables and cards
 * of peptides, studies and vendors whose every string carries CSI, OSC 8, OSC 52, BEL,
 * backspace, CR, C1 controls and bidi overrides print with none of them (only pep's own
 * colour codes and OSC 8 wrappers), still show the readable text around them, keep one
 * row a line, and never link to a URL that could break out of the OSC 8 sequence. Run
 * piped, then on a pseudo-terminal (colour, links, the next-cursor hint).
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { displayWidth } from "../helpers/formats.js";
import {
  expectInert,
  hasScript,
  HOSTILE_CURSOR,
  HOSTILE_URLS,
  linkTargets,
  spawnPepTty,
  startHostileApi,
} from "../helpers/hostile-api.js";
import { useLoopback } from "../helpers/suite.js";

const suite = useLoopback(() => startHostileApi(), "pep-hostile-");
const { tmp } = suite;
// Wide enough for each hostile value whole: its NUL shows as <U+0000>, seven characters more than it takes.
const COLUMNS = 220;

const env = () => ({
  ...tmp.env,
  PEP_BASE_URL: suite.api.baseUrl,
  PEP_API_KEY: "sk_test_hostile_4242",
  COLUMNS: String(COLUMNS),
});
const pep = (argv: readonly string[]) => inProcessPep([...argv, "-o", "table"], { env: env() });

/** Each tag shows with its readable start and end: the value was cleaned, not dropped. */
function expectTags(visible: string, tags: string[]): void {
  for (const tag of tags) {
    expect(visible, tag).toContain(`${tag} `);
    expect(visible, tag).toContain(`${tag}-END`);
  }
}

describe("tables, piped", () => {
  const cases: Array<[string, string[], string[]]> = [
    ["peptides list", ["peptides", "list"], ["PEPNAME0", "CATEGORY3", "LEVEL5"]],
    ["studies list", ["studies", "list"], ["STUDYTITLE0", "JOURNAL4"]],
    ["vendors list", ["vendors", "list"], ["VENDORNAME0", "PRODCAT2", "DISCLOSURE"]],
  ];
  it.each(cases)(
    "%s: exit 0, nothing that acts on a terminal, the text readable, one row a line",
    async (_name, argv, tags) => {
      const r = await pep(argv);
      expect(r.code, r.err).toBe(0);
      const out = expectInert(r.out, "stdout");
      expectInert(r.err, "stderr");
      expectTags(out, tags);
      expect(out).toContain("click");
      // six items, one line each under the header (the vendors' disclosure follows a blank line)
      const rows = out.split("\n\n")[0]!.trimEnd().split("\n");
      expect(rows).toHaveLength(1 + Object.keys(HOSTILE_URLS).length);
      for (const row of rows) expect(displayWidth(row)).toBeLessThanOrEqual(COLUMNS);
    },
  );
});

describe("cards, piped", () => {
  it("peptides get: every field, the unknown ones and an API key that is hostile too", async () => {
    const r = await pep(["peptides", "get", "bpc-157"]);
    expect(r.code, r.err).toBe(0);
    const out = expectInert(r.out, "stdout");
    expectInert(r.err, "stderr");
    expectTags(out, [
      "PEPNAME0",
      "ALIAS0",
      "SUMMARY0",
      "MECHANISM",
      "SAFETY",
      "SIDEEFFECT",
      "REFTITLE",
      "REFAUTHOR",
      "UNKNOWN0",
      "KEYVALUE0",
    ]);
    // the hostile key is a label: its readable part shows, its sequences do not
    expect(out).toMatch(/Zz key/i);
    // the URL that tried to close the link and open another prints as its harmless start
    expect(out).toContain("https://ok.test/a");
  });

  it("studies get: title, authors, journal, DOI, finding and citing profiles", async () => {
    const r = await pep(["studies", "get", "pmid-1000"]);
    expect(r.code, r.err).toBe(0);
    const out = expectInert(r.out, "stdout");
    expectTags(out, ["STUDYTITLE0", "AUTHOR0", "JOURNAL0", "FINDING", "CITEDBY", "STUDYUNKNOWN0"]);
    expect(out).toContain("10.1000/0");
  });

  it("vendors get: description, region, sourced shipping facts, sources and the disclosure", async () => {
    const r = await pep(["vendors", "get", "v0"]);
    expect(r.code, r.err).toBe(0);
    const out = expectInert(r.out, "stdout");
    expectInert(r.err, "stderr");
    expectTags(out, [
      "VENDORNAME0",
      "VENDORDESC0",
      "REGION0",
      "DEST",
      "SRCTYPE",
      "FREESHIP",
      "SOURCENAME",
      "DISCLOSURE",
      "VENDORKEY0",
    ]);
    // a javascript: URL is text, never a link
    expect(out).toContain("javascript:alert(document.domain)//ok.test");
  });

  it("a card fits the width, however the sequences were laid out", async () => {
    for (const argv of [
      ["peptides", "get", "x"],
      ["studies", "get", "pmid-1000"],
      ["vendors", "get", "v0"],
    ]) {
      const r = await inProcessPep([...argv, "-o", "table"], { env: { ...env(), COLUMNS: "60" } });
      expect(r.code, r.err).toBe(0);
      for (const line of expectInert(r.out).split("\n")) expect(displayWidth(line), line).toBeLessThanOrEqual(60);
    }
  });
});

describe.skipIf(!hasScript())("on a terminal: colour, OSC 8 links and notices", () => {
  it("peptides list: links only the plain URL; the ones that try to break out get no link", async () => {
    // Links on, as a terminal known to render them has them.
    const r = await spawnPepTty(["peptides", "list"], { ...env(), PEP_HYPERLINKS: "1" }, COLUMNS);
    expect(r.code, r.out).toBe(0);
    // pep's own sequences are there (colour on a terminal, the one safe link)
    expect(r.out).toMatch(/\x1b\[1m/);
    expect(linkTargets(r.out)).toEqual([HOSTILE_URLS.plain]);
    const out = expectInert(r.out, "terminal");
    expectTags(out, ["PEPNAME0", "PEPNAME5"]);
  });

  it("cards: the title links to its page only when that URL is plain http(s)", async () => {
    for (const argv of [
      ["peptides", "get", "x"],
      ["studies", "get", "pmid-1000"],
      ["vendors", "get", "v0"],
    ]) {
      const r = await spawnPepTty(argv, { ...env(), PEP_HYPERLINKS: "1" }, COLUMNS);
      expect(r.code, r.out).toBe(0);
      // breakout, C1 and javascript: URLs: no link at all; references and sources likewise
      expect(linkTargets(r.out), argv.join(" ")).toEqual([]);
      expectInert(r.out, argv.join(" "));
    }
  });

  it("the next-cursor hint quotes a hostile cursor so it prints inert and the shell reads it back exactly", async () => {
    const r = await spawnPepTty(["studies", "list", "--search", "cut", "--limit", "2"], env(), COLUMNS);
    expect(r.code, r.out).toBe(0);
    // the cursor is shown escaped (it must stay exact), so its payload is visible as text
    const out = expectInert(r.out, "terminal", { leaks: false });
    const hint = out.split("\n").find((l) => l.startsWith("to continue: pep studies list "));
    expect(hint, out).toBeDefined();
    const word = hint!.slice(hint!.lastIndexOf(" $'") + 1);
    // bash reads the word back as the very cursor the API sent, running nothing inside it
    const echoed = spawnSync("bash", ["-c", `printf '%s' ${word}`], { cwd: tmp.dir, encoding: "utf8" });
    expect(echoed.status).toBe(0);
    expect(echoed.stdout).toBe(`--cursor=${HOSTILE_CURSOR}`);
    expect(existsSync(path.join(tmp.dir, "pwned"))).toBe(false);
  });
});
