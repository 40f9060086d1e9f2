/**
 * CSV and TSV cells: guarded for spreadsheets by default (a leading `'` before = + - @,
 * tab or CR; control characters removed), as the API sent them with --no-formula-guard
 * or the profile's `formula_guard false`, but never raw on a terminal.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { parseCsv } from "../helpers/formats.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

const ROWS = [
  { id: "pmid-1", title: '=HYPERLINK("http://x.example","click")', journal: "+1 Journal", doi: "-12.5" },
  { id: "pmid-2", title: "@SUM(A1)", journal: "plain\u0007bell", doi: "10.1/x" },
];

let api: TestServer;
const tmp = scratch("pep-guard-");

beforeAll(async () => {
  api = await startServer((_req, res) =>
    sendJson(res, 200, envelope(ROWS, { pagination: { has_more: false, next_cursor: null } })),
  );
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

const pep = (argv: string[], o: { tty?: boolean } = {}) =>
  runPep([...argv, "--base-url", `${api.url}/v1`, "--fields", "id,title,journal,doi"], { env: tmp.env, ...o });

describe("the formula guard of CSV and TSV", () => {
  it("guards by default: a leading ' before = + @, a plain number kept, control characters removed", async () => {
    const r = await pep(["studies", "list", "-o", "csv"]);
    expect(r.code, r.err).toBe(0);
    const rows = parseCsv(r.out);
    expect(rows.map((x) => x.title)).toEqual([`'=HYPERLINK("http://x.example","click")`, "'@SUM(A1)"]);
    expect(rows.map((x) => x.journal)).toEqual(["'+1 Journal", "plainbell"]);
    expect(rows[0]!.doi).toBe("-12.5");
  });

  it("--no-formula-guard writes the cells as the API sent them, in CSV and TSV", async () => {
    const csv = await pep(["studies", "list", "-o", "csv", "--no-formula-guard"]);
    const rows = parseCsv(csv.out);
    expect(rows.map((x) => x.title)).toEqual(ROWS.map((x) => x.title));
    expect(rows.map((x) => x.journal)).toEqual(ROWS.map((x) => x.journal));
    const tsv = await pep(["studies", "list", "-o", "tsv", "--no-formula-guard"]);
    expect(tsv.out.split("\n")[1]).toBe(`pmid-1\t${ROWS[0]!.title}\t+1 Journal\t-12.5`);
  });

  it("the profile's formula_guard false does the same; the flag is not needed then", async () => {
    const set = await runPep(["config", "set", "formula_guard", "false"], { env: tmp.env });
    expect(set.code, set.err).toBe(0);
    const r = await pep(["studies", "list", "-o", "csv"]);
    expect(parseCsv(r.out).map((x) => x.title)).toEqual(ROWS.map((x) => x.title));
    // On a terminal the cells are cleaned all the same: raw control characters never reach it.
    const tty = await pep(["studies", "list", "-o", "csv"], { tty: true });
    expect(tty.out).not.toContain("\u0007");
    const reset = await runPep(["config", "unset", "formula_guard"], { env: tmp.env });
    expect(reset.code, reset.err).toBe(0);
  });
});
