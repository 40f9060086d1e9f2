/**
 * Hostile API text through the rest of the human output, with the real executable: the
 * research summary, regulatory and cited-studies views of a peptide, vendor shipping and
 * the side-by-side comparison, offers and products with the affiliate disclosure, search
 * sections, categories, research areas, `pep api` and the hidden-columns note. Each
 * exits 0, prints nothing that acts on a terminal (piped, and on a pseudo-terminal with
 * colour and links), keeps the readable text and stays within the width. Prices are the
 * API's decimal strings, byte for byte, beside hostile currencies.
 */
import { describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { displayWidth, parseCsv, parseTsv } from "../helpers/formats.js";
import {
  expectInert,
  hasScript,
  HOSTILE_KEY,
  HOSTILE_URLS,
  linkTargets,
  spawnPepTty,
  startHostileApi,
} from "../helpers/hostile-api.js";
import { useLoopback } from "../helpers/suite.js";
import { OFFERS, PRICES, PRODUCTS, serveMore } from "../helpers/hostile-api-more.js";

const suite = useLoopback(() => startHostileApi(serveMore), "pep-hostile-more-");
const { tmp } = suite;
// Wide enough for every hostile value whole, offers with their and their vendor's ids included.
// Wide enough for each hostile value whole: its NUL shows as <U+0000>.
const COLUMNS = 200;

const env = (columns = COLUMNS) => ({
  ...tmp.env,
  PEP_BASE_URL: suite.api.baseUrl,
  PEP_API_KEY: "sk_test_hostile_4242",
  COLUMNS: String(columns),
});
const pep = (argv: readonly string[], columns = COLUMNS, format = "table") =>
  inProcessPep([...argv, "-o", format], { env: env(columns) });

/** Each tag shows with its readable start and end: the value was cleaned, not dropped. */
function expectTags(visible: string, tags: readonly string[], label: string): void {
  for (const tag of tags) {
    expect(visible, `${label}: ${tag}`).toMatch(new RegExp(`(^|[^A-Z])${tag} `));
    // Whole, or cut where a table cuts prose to keep the handle and the facts: said by an
    // ellipsis on its line.
    if (!visible.includes(`${tag}-END`)) expect(visible, `${label}: ${tag}-END`).toMatch(new RegExp(`${tag} [^\n]*…`));
  }
}

function expectWithin(visible: string, columns: number, label: string): void {
  for (const line of visible.split("\n")) expect(displayWidth(line), `${label}: ${line}`).toBeLessThanOrEqual(columns);
}

const DISCLOSED = ["DISCLOSURE"];
const CASES: Array<[name: string, argv: string[], tags: string[]]> = [
  [
    "peptides research",
    ["peptides", "research", "bpc-157"],
    [
      "RSPEPTIDE",
      "RSLEVEL",
      "MECHTARGET",
      "MECHSUMMARY",
      "CLINSUMMARY",
      "TRIALTITLE",
      "TRIALFINDING",
      "TRIALLABEL",
      "TRIALTWOTITLE",
      "HUMANSTUDYTITLE",
      "PRECLINSUMMARY",
      "ANIMALTITLE",
      "INVITROTITLE",
      "SECONDARYTITLE",
      "SAFETYSUMMARY",
      "ADVERSE",
      "INTERACTIONS",
      "LIMITATION",
      "GAP",
      "REFERENCETITLE",
      "RSKEY",
    ],
  ],
  [
    "peptides regulatory",
    ["peptides", "regulatory", "bpc-157"],
    ["RSPEPTIDE", "REGSTATUS", "FDASTATUS", "WADASTATUS", "AVAILABILITY", "DEVSTAGE", "REGKEY"],
  ],
  ["peptides studies", ["peptides", "studies", "bpc-157"], ["STUDYTITLE0", "STUDYTITLE2"]],
  [
    "vendors shipping",
    ["vendors", "shipping", "v0"],
    [
      "SHIPVENDOR",
      "COVERAGE0",
      "COUNTRY0",
      "DEST0SRC",
      "EXCLUDED0",
      "METHOD0",
      "CARRIER0",
      "DAYS0",
      "THRESHOLD0",
      "RETURNS0",
      "RET0SRC",
      "SHIPKEY",
      ...DISCLOSED,
    ],
  ],
  ["vendors compare", ["vendors", "compare", "v0", "v1"], ["CMPNAME0", "CMPNAME1", ...DISCLOSED]],
  ["prices", ["prices"], ["OFFERVENDOR0", "OFFERVENDOR2", ...DISCLOSED]],
  ["products", ["products"], ["PRODNAME0", "PRODNAME1", ...DISCLOSED]],
  ["search", ["search", "bpc"], ["SEARCHPEP0", "SEARCHPEP1", "CONTENTTITLE0", "CONTENTTITLE1"]],
  ["categories", ["categories"], ["CATNAME0", "CATNAME1"]],
  ["research-areas", ["research-areas"], ["AREANAME0", "AREANAME1"]],
];

describe("piped: exit 0, inert, the text readable, within the width", () => {
  it.each(CASES)("%s", async (name, argv, tags) => {
    const r = await pep(argv);
    expect(r.code, r.err).toBe(0);
    const out = expectInert(r.out, `${name} stdout`);
    const err = expectInert(r.err, `${name} stderr`);
    expectTags(out + err, tags, name);
    expectWithin(out, COLUMNS, name);
  });

  it.each(CASES)("%s at 60 columns", async (name, argv) => {
    const r = await pep(argv, 60);
    expect(r.code, r.err).toBe(0);
    expectWithin(expectInert(r.out, `${name} stdout`), 60, name);
    expectInert(r.err, `${name} stderr`);
  });
});

describe.skipIf(!hasScript())("on a terminal: colour and links", () => {
  it.each(CASES)("%s: inert, links only to plain http(s) URLs", async (name, argv, tags) => {
    const r = await spawnPepTty(argv, env(), COLUMNS);
    expect(r.code, r.out).toBe(0);
    for (const target of linkTargets(r.out)) expect(target, name).toBe(HOSTILE_URLS.plain);
    const out = expectInert(r.out, name);
    expectTags(out, tags, name);
    expectWithin(out, COLUMNS, name);
  });
});

describe("research summary in full", () => {
  it("every section is there, in order, each trial under human evidence", async () => {
    const r = await pep(["peptides", "research", "bpc-157"]);
    expect(r.code, r.err).toBe(0);
    const out = expectInert(r.out);
    const at = (tag: string) => out.indexOf(`${tag}-END`);
    const order = [
      "MECHSUMMARY",
      "TRIALTITLE",
      "TRIALTWOTITLE",
      "HUMANSTUDYTITLE",
      "ANIMALTITLE",
      "INVITROTITLE",
      "SAFETYSUMMARY",
      "LIMITATION",
      "GAP",
      "REFERENCETITLE",
    ];
    for (const tag of order) expect(at(tag), tag).toBeGreaterThan(-1);
    const clinical = out.indexOf("Clinical evidence");
    const preclinical = out.indexOf("Preclinical evidence");
    expect(clinical).toBeGreaterThan(-1);
    expect(at("TRIALTITLE")).toBeGreaterThan(clinical);
    expect(at("TRIALTWOTITLE")).toBeLessThan(preclinical);
    expect(at("ANIMALTITLE")).toBeGreaterThan(preclinical);
    // the URL that tries to break out of its link prints as its harmless start, unlinked
    expect(out).toContain("https://ok.test/a");
  });
});

describe("money: the API's decimal strings, byte for byte, beside hostile currencies", () => {
  it("table, wide and narrow: the amount whole, its currency after it", async () => {
    for (const columns of [COLUMNS, 60]) {
      const r = await pep(["prices"], columns);
      expect(r.code, r.err).toBe(0);
      const out = expectInert(r.out);
      PRICES.forEach((price, i) =>
        expect(out, `${columns}`).toMatch(new RegExp(`(^|\\s)${price.replace(/\./g, "\\.")} CUR${i}`, "m")),
      );
    }
  });

  it("csv and tsv", async () => {
    const csv = await pep(["prices"], COLUMNS, "csv");
    expect(csv.code, csv.err).toBe(0);
    expect(parseCsv(csv.out).map((row) => row.price)).toEqual([...PRICES]);
    for (const price of PRICES) expect(csv.out).toContain(`,${price},`);
    const tsv = await pep(["prices"], COLUMNS, "tsv");
    expect(tsv.code, tsv.err).toBe(0);
    expect(parseTsv(tsv.out).map((row) => row.price)).toEqual([...PRICES]);
  });

  it("products: price ranges keep their strings", async () => {
    const r = await pep(["products"]);
    expect(r.code, r.err).toBe(0);
    const out = expectInert(r.out);
    expect(out).toContain(PRICES[0]);
    expect(out).toContain(PRICES[1]);
    const csv = await pep(["products"], COLUMNS, "csv");
    expect(csv.code, csv.err).toBe(0);
    expect(csv.out).toContain(PRICES[1]);
  });
});

describe("the affiliate disclosure with -o json", () => {
  it.each([["prices"], ["products"]])(
    "%s: stdout is the data exactly, the disclosure inert on stderr",
    async (command) => {
      const r = await pep([command], COLUMNS, "json");
      expect(r.code, r.err).toBe(0);
      expect(JSON.parse(r.out)).toEqual(command === "prices" ? OFFERS : PRODUCTS);
      const err = expectInert(r.err, "stderr");
      expectTags(err, ["DISCLOSURE"], "stderr");
    },
  );
});

describe("pep api <path> -o table", () => {
  it.each([["/prices"], ["/peptides/x/research"], ["/vendors/compare?ids=a,b"]])(
    "%s: the body, inert, parses back exactly",
    async (path) => {
      const r = await pep(["api", path]);
      expect(r.code, r.err).toBe(0);
      // JSON writes the payload as \u escapes: visible as text, never acting on the terminal
      const out = expectInert(r.out, "stdout", { leaks: false });
      expectInert(r.err, "stderr");
      const body = JSON.parse(out) as { data: unknown };
      const served = await fetch(`${suite.api.baseUrl}${path}`, { headers: { authorization: "Bearer k" } }).then(
        (res) => res.json() as Promise<{ data: unknown }>,
      );
      expect(body.data).toEqual(served.data);
    },
  );

  it.skipIf(!hasScript())("on a terminal", async () => {
    const r = await spawnPepTty(["api", "/prices", "-o", "table"], env(), COLUMNS);
    expect(r.code, r.out).toBe(0);
    expectInert(r.out, "terminal", { leaks: false });
  });
});

describe("the hidden-columns note", () => {
  // the last columns are the ones dropped: the hostile key among them
  const fields = [
    "price",
    "currency",
    "product_name",
    "vendor.name",
    "form",
    "peptide.name",
    "id",
    "in_stock",
    HOSTILE_KEY,
  ].join(",");

  it("names hostile keys inert, piped", async () => {
    const r = await inProcessPep(["prices", "--fields", fields, "-o", "table"], { env: env(60) });
    expect(r.code, r.err).toBe(0);
    expectWithin(expectInert(r.out, "stdout"), 60, "table");
    const err = expectInert(r.err, "stderr");
    const note = err.split("\n").find((l) => l.startsWith("note: "));
    expect(note, err).toMatch(/hidden for lack of width/);
    expect(err).toContain("zz_key-END");
  });

  it.skipIf(!hasScript())("and on a terminal", async () => {
    const r = await spawnPepTty(["prices", "--fields", fields, "-o", "table"], env(60), 60);
    expect(r.code, r.out).toBe(0);
    const out = expectInert(r.out, "terminal");
    // After the table, one note folded to the width (a word longer than it keeps a line).
    const at = out.indexOf("\nnote: ");
    const note = out.slice(at + 1).trimEnd();
    expect(note.replace(/\n/g, " "), out).toMatch(/^note: .*zz_key-END hidden for lack of width; name fewer --fields/);
    expectWithin(out.slice(0, at), 60, "terminal");
  });
});
