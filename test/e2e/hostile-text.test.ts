/**
 * Hostile text where it used to slip through, in-process against a loopback API:
 * - `--jq` off a terminal writes C1 controls, DEL, bidi overrides and line separators as
 *   `\uXXXX` escapes, as `-o json` does (the value is the same once parsed);
 * - a TSV or CSV header cell is cleaned before its formula guard, so `"\x07=F()"` becomes
 *   `'=F()`, never a live `=F()`;
 * - zero-width characters in a name or id show in tables, cards and error lines
 *   (`<U+200B>`), and an id shows its bidi controls too (elsewhere they are removed, so
 *   nothing is reordered): what is copied from the screen is what the API holds.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { parseTsv } from "../helpers/formats.js";
import { OWN_SEQUENCES, UNSAFE_HUMAN } from "../helpers/hostile-api.js";
import { envelope, errorBody, sendJson, startServer, type TestServer } from "../helpers/server.js";

/** Characters `-o json` escapes that jq writes raw: C1 CSI, DEL, a bidi override, an isolate, a line separator. */
const RAW_IN_JQ = "\u009b2J\u007f\u202e\u2066\u2028";
const ID = "bpc\u200b-1\u202e57";
const NAME = "BPC\u200d\u202e751-";
const PEPTIDE = {
  id: ID,
  name: NAME,
  also_known_as: ["Body\u2060Protection\ufeffCompound"],
  summary: `summary ${RAW_IN_JQ} end`,
  categories: ["healing"],
};
const FORMULA_KEY = "\x07=F()";

let api: TestServer;
let tmp: ReturnType<typeof scratch>;
beforeAll(async () => {
  tmp = scratch("pep-hostile-text-");
  const page = (items: unknown[]) => envelope(items, { pagination: { next_cursor: null, has_more: false } });
  api = await startServer({
    "/v1/peptides": (_req, res) => sendJson(res, 200, page([PEPTIDE])),
    [`/v1/peptides/${encodeURIComponent(ID)}`]: (_req, res) => sendJson(res, 200, envelope(PEPTIDE)),
    "/v1/peptides/missing": (_req, res) =>
      sendJson(res, 404, errorBody("not_found", `no peptide matches '${ID}'`, "req_\u200bx")),
    "/v1/formula": (_req, res) => sendJson(res, 200, envelope([{ [FORMULA_KEY]: "\x07=G()", id: "a" }])),
  });
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

const pep = (argv: readonly string[], tty = false) =>
  runPep(argv, { env: { ...tmp.env, PEP_BASE_URL: `${api.url}/v1`, COLUMNS: "120" }, tty, columns: 120 });

describe("--jq off a terminal escapes what -o json escapes", () => {
  it.each([
    ["a list, whole", ["peptides", "list", "--jq", ".[0].summary"]],
    ["a list, per item", ["peptides", "list", "-o", "ndjson", "--jq", ".summary"]],
    ["pep api", ["api", "/peptides", "--jq", ".data[0]"]],
  ])("%s: no raw C1, DEL, bidi or line separator; the value parses back exactly", async (_name, argv) => {
    const r = await pep(argv);
    expect(r.code, r.err).toBe(0);
    expect(UNSAFE_HUMAN.test(r.out.replace(/\n/g, "")), JSON.stringify(r.out)).toBe(false);
    expect(r.out).toContain("\\u009b2J");
    expect(r.out).toContain("\\u202e");
    const value = JSON.parse(r.out) as unknown;
    const summary = typeof value === "string" ? value : (value as { summary: string }).summary;
    expect(summary).toBe(PEPTIDE.summary);
  });

  it("the json it escapes is the json -o json prints", async () => {
    const viaJq = await pep(["peptides", "list", "--jq", "."]);
    const plain = await pep(["peptides", "list", "-o", "json"]);
    expect(JSON.parse(viaJq.out)).toEqual(JSON.parse(plain.out));
    expect(plain.out).toContain("\\u009b2J");
  });
});

describe("a header cell is cleaned before its formula guard", () => {
  it("tsv: '\\x07=F()' becomes '=F() behind a quote", async () => {
    const r = await pep(["api", "/formula", "-o", "tsv"]);
    expect(r.code, r.err).toBe(0);
    const header = r.out.split("\n")[0]!.split("\t");
    expect(header[0]).toBe("'=F()");
    expect(parseTsv(r.out)[0]!["'=F()"]).toBe("'=G()");
  });

  it("csv: the same", async () => {
    const r = await pep(["api", "/formula", "-o", "csv"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.split("\r\n")[0]!.split(",")[0]).toBe("'=F()");
  });
});

describe("invisible characters in ids and names show in human output", () => {
  const shown = (raw: string) => {
    const text = raw.replace(OWN_SEQUENCES, "");
    expect(UNSAFE_HUMAN.test(text), JSON.stringify(text)).toBe(false);
    expect(text).not.toMatch(/[\u200b-\u200f\u2060-\u2064\ufeff]/);
    return text;
  };

  it.each([false, true])("a table (terminal: %s)", async (tty) => {
    const r = await pep(["peptides", "list", "-o", "table"], tty);
    expect(r.code, r.err).toBe(0);
    const out = shown(r.out);
    expect(out).toContain("bpc<U+200B>-1<U+202E>57");
    // A name shows its bidi control as an id does (removed, it would leave a look-alike).
    expect(out).toContain("BPC<U+200D><U+202E>751-");
    expect(out).not.toMatch(/bpc-157/);
  });

  it("a card", async () => {
    const r = await pep(["peptides", "get", ID, "-o", "table"]);
    expect(r.code, r.err).toBe(0);
    const out = shown(r.out);
    expect(out).toContain("bpc<U+200B>-1<U+202E>57");
    expect(out).toContain("BPC<U+200D><U+202E>751-");
    expect(out).toContain("Body<U+2060>Protection<U+FEFF>Compound");
  });

  it("an error line names the id as it is", async () => {
    const r = await pep(["peptides", "get", "missing", "-o", "table"]);
    expect(r.code).toBe(4);
    expect(shown(r.err)).toContain("no peptide matches 'bpc<U+200B>-1<U+202E>57'");
  });

  it("-o json keeps the characters (escaped or not, the value is exact)", async () => {
    const r = await pep(["peptides", "list", "-o", "json"]);
    expect((JSON.parse(r.out) as Array<{ id: string; name: string }>)[0]).toMatchObject({ id: ID, name: NAME });
  });
});

describe("a batch's failed id", () => {
  it("is named with its invisible and bidi characters shown", async () => {
    const r = await pep(["peptides", "get", "x\u200by\u202ez", ID, "-o", "table"]);
    expect(r.code).toBe(4);
    const line = r.err.split("\n").find((l) => l.startsWith("error: "));
    expect(line).toMatch(/^error: x<U\+200B>y<U\+202E>z: /);
  });
});
