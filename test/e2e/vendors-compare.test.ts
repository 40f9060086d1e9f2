/**
 * `vendors compare` at a terminal of 60, 80, 120 and 200 columns, against a loopback API
 * whose vendors trip layouts (test/helpers/compare-api.ts): nothing is ever cut (names,
 * links and long terms read whole), side by side only when everything fits, otherwise
 * one field after another; no line for a question not asked; labels that say each word
 * once; missing fields, nulls and fields the spec never names all shown.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isBuilt, runPep, scratch } from "../helpers/cli.js";
import {
  LONG_NAME,
  LONG_PROFILE_URL,
  LONG_SITE_URL,
  LONG_TERMS,
  POLICY_URL,
  startCompareApi,
  VENDORS,
} from "../helpers/compare-api.js";
import { hasScript, spawnPepTty } from "../helpers/hostile-api.js";
import type { TestServer } from "../helpers/server.js";
import { visible } from "../helpers/terminal.js";

let api: TestServer;
const tmp = scratch("pep-compare-");
beforeAll(async () => {
  api = await startCompareApi();
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

const env = () => ({ ...tmp.env, PEP_API_KEY: "sk_test_compare_4242", NO_COLOR: "1" });
const MIXED = ["vnd_long", "vnd_sparse", "vnd_odd", "vnd_plain"];
const SHORT = ["v1", "v2"];
const WIDTHS = [60, 80, 120, 200] as const;

async function compare(ids: readonly string[], columns: number, extra: readonly string[] = []): Promise<string[]> {
  const argv = ["vendors", "compare", ...ids, ...extra, "--base-url", `${api.url}/v1`, "--no-pager"];
  const r = await runPep(argv, { env: env(), tty: true, columns });
  expect(r.code, r.err).toBe(0);
  return visible(r.out).split("\n");
}

/** Whether a line shows two vendors side by side (their names in one header line). */
const sideBySide = (lines: readonly string[], a: string, b: string) =>
  lines.some((l) => l.includes(a) && l.includes(b) && l.indexOf(a) < l.indexOf(b));

/** Every line within the width, but one that keeps a link longer than the room whole. */
function expectWithin(lines: readonly string[], columns: number): void {
  for (const line of lines) {
    if (line.length <= columns) continue;
    const url = /https?:\/\/\S+/.exec(line)?.[0] ?? "";
    expect(line, `wider than ${columns}`).toMatch(/https?:\/\//);
    expect(line.trim().length - url.length, `only a long link passes ${columns}: ${line}`).toBeLessThanOrEqual(90);
  }
}

/**
 * A vendor's value of a field, in either layout: side by side, the text under the
 * vendor's name in the field's row; stacked, the text beside (or under) the vendor's name
 * under the field's label.
 */
/**
 * Under short labels (A, B, …) the legend comes first: the rows after it, and the label
 * that stands for `vendor`; else the lines and the vendor's name.
 */
function withLegend(all: readonly string[], vendor: string): { lines: readonly string[]; key: string } {
  if (!/^A {2}\S/.test(all[0] ?? "")) return { lines: all, key: vendor };
  const at = all.findIndex((l) => /^ +A(\s|$)/.test(l));
  const legend = all.slice(0, at).join("   ");
  const name = vendor.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(`([A-H]) {2}${name}(?: {3}|$)`).exec(legend);
  return { lines: all.slice(at), key: m?.[1] ?? vendor };
}

function vendorValue(all: readonly string[], label: string, name: string): string | undefined {
  const { lines, key: vendor } = withLegend(all, name);
  // Side by side the first line is the names' row, its label column empty.
  const header = lines[0]!;
  if (/^ +\S/.test(header) && header.includes(vendor)) {
    const row = lines.find((l) => l.trim().startsWith(`${label}  `));
    if (row === undefined && lines.some((l) => l.trim() === label)) return stackedValueOf(lines, label, vendor);
    const col = header.search(new RegExp(`(?<=\\s)${vendor}(\\s|$)`));
    return row?.slice(col).split(/ {2,}/)[0]?.trim();
  }
  return stackedValueOf(lines, label, vendor);
}

/** A field stacked: its label on a line, then each vendor's value beside or under its heading. */
function stackedValueOf(lines: readonly string[], label: string, vendor: string): string | undefined {
  const at = lines.findIndex((l) => l.trim() === label);
  const indent = lines[at]!.search(/\S/);
  const block = lines.slice(at + 1);
  for (const [i, l] of block.entries()) {
    if (l.search(/\S/) <= indent) break;
    if (l.trim().startsWith(`${vendor}  `)) return l.trim().slice(vendor.length).trim();
    // A value under its vendor's name, indented below it.
    if (l.trim() === vendor) return block[i + 1]?.trim();
  }
  return undefined;
}

/** The text as read: lines joined, runs of spaces as one (a wrapped sentence reads whole). */
const prose = (lines: readonly string[]) =>
  lines
    .map((l) => l.trim())
    .join(" ")
    .replace(/\s+/g, " ");

describe("vendors compare at a terminal, with long, missing, null and unknown fields", () => {
  it.each(WIDTHS)("at %i columns nothing is cut: names, links and terms read whole", async (columns) => {
    const lines = await compare(MIXED, columns);
    expectWithin(lines, columns);
    expect(lines.join("\n")).not.toContain("…");
    // Each link whole on one line, so that it still works when copied.
    for (const url of [LONG_PROFILE_URL, LONG_SITE_URL, POLICY_URL, "https://ax.example.test/shipping"])
      expect(
        lines.some((l) => l.includes(url)),
        url,
      ).toBe(true);
    const text = prose(lines);
    expect(text).toContain(LONG_TERMS);
    expect(text).toContain(LONG_NAME);
    // The long terms never sit in a column: stacked, with the rest (narrow) or under the table (wide).
    expect(lines.map((l) => l.trim())).toContain("Conditions");
    expect(sideBySide(lines, "Odd Labs", "Plain Supply")).toBe(columns === 200);
  });

  it.each(WIDTHS)("at %i columns a field missing reads —, a null unknown, unknown fields as rows", async (columns) => {
    const lines = await compare(MIXED, columns);
    const text = prose(lines);
    for (const label of ["Certifications", "Lab tested", "Notes", "Payment", "Crypto only"])
      expect(
        lines.some((l) => l.trim() === label || l.trimStart().startsWith(`${label} `)),
        label,
      ).toBe(true);
    expect(text).toContain("ISO 9001, GMP");
    expect(text).toContain("Ships only on weekdays");
    expect(text).toContain("card, bank transfer");
    // Ax: no slug (missing), a null country, a null rating (each of its fields unknown).
    expect(vendorValue(lines, "Slug", "Ax")).toBe("—");
    expect(vendorValue(lines, "Country", "Ax")).toBe("unknown");
    expect(vendorValue(lines, "Average", "Ax")).toBe("unknown");
    expect(vendorValue(lines, "Average", "Plain Supply")).toBe("4.1");
    expect(vendorValue(lines, "Average", "Odd Labs")).toBe("—");
    expect(text).toContain("Next day (Royal Example Mail, 1 day)");
    expect(text).toContain("Economy (3-5 days)");
    expect(text).toContain("99.00 GBP");
  });

  it("labels say each word once, and a value carries no labels of its own", async () => {
    for (const columns of WIDTHS) {
      const text = (await compare(MIXED, columns)).join("\n");
      expect(text).not.toMatch(/Shipping free shipping|Shipping destinations|Shipping returns/i);
      expect(text).not.toMatch(/Coverage: |Available: |Accepted: /);
      expect(text).toMatch(/^ {2}Free shipping$/m);
      expect(text).toMatch(/^ {4}Threshold\b/m);
    }
  });

  it("no line for the destination when --ships-to was not given; its answers lead when it was", async () => {
    for (const columns of WIDTHS) {
      expect((await compare(SHORT, columns)).join("\n")).not.toMatch(/ships to/i);
      const asked = await compare(SHORT, columns, ["--ships-to", "us-ca"]);
      expect(asked.join("\n").match(/Ships to/g)).toHaveLength(1);
      // Labelled as the vendor's card labels it; the destination is the one typed.
      expect(asked[1]).toMatch(/^Ships to\s+yes\s+unknown$/);
    }
  });

  it("short values sit side by side at every width, one column per vendor", async () => {
    for (const columns of WIDTHS) {
      const lines = await compare(SHORT, columns);
      expect(lines.slice(0, 3)).toEqual([
        expect.stringMatching(/^ +Alpha +Beta$/),
        expect.stringMatching(/^ID +v1 +v2$/),
        expect.stringMatching(/^Country +US +DE$/),
      ]);
      // Columns line up: each vendor's values start under its name.
      const col = lines[0]!.indexOf("Beta");
      expect(lines.filter((l) => /^ {2}(Average|Count) /.test(l)).map((l) => l.search(/\S+$/))).toEqual([col, col]);
    }
  });

  it("a pair with long links is side by side only when the links fit; else they follow, whole", async () => {
    const wide = await compare(["vnd_plain", "vnd_odd"], 200);
    expect(sideBySide(wide, "Plain Supply", "Odd Labs")).toBe(true);
    const narrow = await compare(["vnd_plain", "vnd_odd"], 60);
    expectWithin(narrow, 60);
    expect(narrow.join("\n")).not.toContain("…");
  });

  it("json is the API's data, unchanged", async () => {
    const r = await runPep(["vendors", "compare", ...MIXED, "--base-url", `${api.url}/v1`, "-o", "json"], {
      env: env(),
    });
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as { vendors: unknown[] }).vendors).toEqual(MIXED.map((id) => VENDORS[id]));
  });
});

describe.skipIf(!hasScript() || !isBuilt())("vendors compare on a real terminal", () => {
  it.each(WIDTHS)("at %i columns: within the width, nothing cut", async (columns) => {
    const argv = ["vendors", "compare", ...MIXED, "--base-url", `${api.url}/v1`];
    const r = await spawnPepTty(argv, { ...env(), PEP_PAGER: "cat" }, columns);
    expect(r.code, r.out).toBe(0);
    const lines = visible(r.out).split(/\r?\n/);
    expectWithin(lines, columns);
    expect(r.out).not.toContain("…");
    expect(prose(lines)).toContain(LONG_TERMS);
    expect(lines.some((l) => l.includes(LONG_PROFILE_URL))).toBe(true);
  });
});
