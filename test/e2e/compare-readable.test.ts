/**
 * `vendors compare` readable at 80 columns with 2, 3 and 4 sandbox vendors: each heading
 * once, no vendor's name repeated per row (short labels named once in a legend when the
 * names do not fit side by side), and about a screen and a half for three vendors.
 */
import { describe, expect, it } from "vitest";
import { visible } from "../helpers/terminal.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const cli = useSandboxCli();
const KEY = { PEP_API_KEY: "sbx_full_key" };
const IDS = ["vnd_9a826af2", "vnd_ef639d63", "vnd_d80adb24", "vnd_591ef5d7"];
const NAMES = ["Neskax Research Materials", "Jorvax Supply", "Orvora Sciences", "Covaeld Reagents"];

describe("vendors compare at 80 columns", () => {
  it.each([2, 3, 4])("%i vendors: each heading once, each name once, every line within 80", async (n) => {
    const r = await cli.pep(["vendors", "compare", ...IDS.slice(0, n), "--no-pager"], {
      env: KEY,
      tty: true,
      columns: 80,
    });
    expect(r.code, r.err).toBe(0);
    const out = visible(r.out);
    const lines = out.split("\n");
    for (const heading of ["Shipping", "Rating", "Catalog", "Sources", "Profile URL"])
      expect(
        lines.filter((l) => l.trim() === heading),
        heading,
      ).toHaveLength(1);
    for (const name of NAMES.slice(0, n)) expect(out.split(name).length - 1, name).toBe(1);
    for (const l of lines) expect(l.length, l).toBeLessThanOrEqual(80);
    // Every vendor's facts are there: its id, and a value of each group.
    for (const id of IDS.slice(0, n)) expect(out).toContain(id);
    if (n === 3) expect(lines.length).toBeLessThanOrEqual(62);
  });

  it("2 vendors whose fields all fit keep their names as column headings", async () => {
    const r = await cli.pep(["vendors", "compare", ...IDS.slice(0, 2), "--no-pager"], {
      env: KEY,
      tty: true,
      columns: 200,
    });
    expect(r.code, r.err).toBe(0);
    expect(visible(r.out).split("\n")[0]).toMatch(/^ +Neskax Research Materials +Jorvax Supply$/);
  });
});
