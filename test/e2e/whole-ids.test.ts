/**
 * Identifiers are never cut: at 60 columns every list command's table shows each item's
 * whole id (what `get` takes), other columns shrinking or hiding first; a URL column is
 * shown whole or hidden with the hidden-columns note, never cut.
 */
import { describe, expect, it } from "vitest";
import { useSandboxCli } from "../helpers/sandbox-cli.js";
import { visible } from "../helpers/terminal.js";

const cli = useSandboxCli();
const KEY = { PEP_API_KEY: "sbx_full_key" };

describe("whole ids at 60 columns", () => {
  it.each([
    ["peptides", "list"],
    ["studies", "list"],
    ["vendors", "list"],
    ["categories"],
    ["research-areas"],
    ["prices"],
    ["peptides", "studies", "__first_peptide__"],
  ])("pep %s …", async (...words) => {
    let argv = words.filter((w): w is string => typeof w === "string");
    if (argv.includes("__first_peptide__")) {
      const first = JSON.parse((await cli.pep(["peptides", "list", "--limit", "1", "-o", "json"], { env: KEY })).out);
      argv = argv.map((w) => (w === "__first_peptide__" ? first[0].id : w));
    }
    const json = await cli.pep([...argv, "--limit", "10", "-o", "json"], { env: KEY });
    const ids = (JSON.parse(json.out) as Array<{ id: string }>).map((i) => i.id);
    expect(ids.length).toBeGreaterThan(0);
    const r = await cli.pep([...argv, "--limit", "10"], { env: KEY, tty: true, columns: 60 });
    expect(r.code, r.err).toBe(0);
    const lines = visible(r.out).split("\n");
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(60);
    // The rows: from under the header to the first blank line (a disclosure may follow),
    // each row's first line (a wrapped or stacked title's lines start with spaces).
    const end = lines.indexOf("", 1);
    const body = lines.slice(1, end === -1 ? undefined : end).filter((l) => !l.startsWith(" "));
    expect(body.map((l) => l.split(/\s+/)[0])).toEqual(ids);
  });

  it("an offer's vendor id is whole beside the offer's at 60 and 80 columns", async () => {
    const offers = JSON.parse((await cli.pep(["prices", "--limit", "5", "-o", "json"], { env: KEY })).out) as Array<{
      id: string;
      vendor: { id: string };
    }>;
    for (const columns of [60, 80]) {
      const r = await cli.pep(["prices", "--limit", "5"], { env: KEY, tty: true, columns });
      // A row's first line (a long vendor or product name wraps onto lines starting with spaces).
      const rows = visible(r.out)
        .split("\n")
        .filter((l) => l !== "" && !l.startsWith(" "))
        .slice(1, offers.length + 1);
      expect(rows.map((l) => l.split(/\s+/).slice(0, 2))).toEqual(offers.map((o) => [o.id, o.vendor.id]));
    }
  });

  it("a URL column is whole or hidden with the note, never cut", async () => {
    const r = await cli.pep(["prices", "--limit", "3"], { env: KEY, tty: true, columns: 60 });
    expect(r.code, r.err).toBe(0);
    expect(visible(r.out)).not.toMatch(/https?:\/\/\S*…/);
    // One note after the table, folded to the width: read unfolded.
    expect(r.err.replace(/\n(?!note: )/g, " ")).toMatch(
      /^note: .*product_page_url hidden for lack of width; --fields id,.*product_page_url shows them/m,
    );
    const wide = await cli.pep(["prices", "--limit", "3"], { env: KEY, tty: true, columns: 400 });
    expect(visible(wide.out)).toMatch(/https:\/\/\S+\?ref=\S+/);
  });
});
