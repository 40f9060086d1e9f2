/**
 * Tables that choose, on a real terminal (a pseudo-terminal from `script`) and data of
 * their own: long titles, long ids, wide CJK names, many currencies, more than a page.
 * At each width: every table line fits, every id is whole, no kept column is cut below
 * its minimum, and what was hidden is named once, with the --fields that shows it.
 */
import { describe, expect, it } from "vitest";
import type { Resource } from "../../src/core/command.js";
import { hasScript, spawnPepTty } from "../helpers/hostile-api.js";
import { envelope, sendJson, startServer, type Handler } from "../helpers/server.js";
import { useLoopback } from "../helpers/suite.js";
import { expectMinimums, tablesOf } from "../helpers/tables.js";
import { displayWidth } from "../helpers/formats.js";
import { visible } from "../helpers/terminal.js";

const title = (i: number) =>
  `A very long randomized, double-blind, placebo-controlled multicentre trial number ${i} of an investigational peptide in older adults with several conditions`;
const STUDIES = Array.from({ length: 130 }, (_, i) => ({
  id: i % 2 ? `doi-10.5555--a-long-identifier-of-study-${i}` : `pmid-${90000000 + i}`,
  title: i < 100 ? title(i) : `${title(i)}, continued on a second page with an even longer subtitle`,
  publication_year: 1990 + (i % 35),
  journal: "The International Journal of Extremely Verbose Placeholder Research, Series B",
  evidence_classification: ["human_controlled_trial", "animal_or_lab", "a_class_pep_does_not_know"][i % 3],
  url: `https://studies.example/${i}`,
}));
const VENDORS = Array.from({ length: 6 }, (_, i) => ({
  id: `vnd_${i}0a1b2c3d`,
  name: `株式会社ペプチド研究所サプライ第${i}号店 International Holdings`,
  country: "JP",
  rating: { average: 4.5, count: 1000 + i },
  product_categories: ["peptides", "sprays", "capsules", "other"],
}));
const OFFERS = Array.from({ length: 6 }, (_, i) => ({
  id: `off_${i}000000000`,
  vendor: { id: `vnd_${i}abcdefgh`, name: `Vendor With A Rather Long Trading Name ${i} Limited` },
  product_name: `Peptide-${i} lyophilized powder, research grade, ten vials of five`,
  form: "lyophilized-powder",
  price: "1000000.00000001",
  currency: "USD",
  last_seen_at: "2025-05-30T16:00:00Z",
  product_page_url: `https://vendor-${i}.example/p/a-product-path-${i}?ref=research&aff=x`,
}));

/** A list endpoint over `items`, 100 a page with an opaque cursor. */
const pages =
  (items: readonly { id: string }[]): Handler =>
  (req, res) => {
    const start = Number(req.query.get("cursor") ?? 0);
    const size = Math.min(Number(req.query.get("limit") ?? 20), 100);
    const next = start + size < items.length ? String(start + size) : null;
    sendJson(
      res,
      200,
      envelope(items.slice(start, start + size), { pagination: { next_cursor: next, has_more: next !== null } }),
    );
  };

const suite = useLoopback(
  () => startServer({ "/v1/studies": pages(STUDIES), "/v1/vendors": pages(VENDORS), "/v1/prices": pages(OFFERS) }),
  "pep-tables-pty-",
);

const CASES: ReadonlyArray<readonly [Resource, string[], readonly { id: string }[]]> = [
  ["study", ["studies", "list", "--limit", "130"], STUDIES],
  ["vendor", ["vendors", "list"], VENDORS],
  ["offer", ["prices"], OFFERS],
];

describe.skipIf(!hasScript)("tables on a terminal, with long and wide values", () => {
  for (const [resource, argv, items] of CASES) {
    it(`${argv.join(" ")} at 60, 80, 120 and 200 columns`, async () => {
      const env = { ...suite.tmp.env, PEP_BASE_URL: `${suite.api.url}/v1`, PEP_API_KEY: "sk_test_tables" };
      for (const columns of [60, 80, 120, 200]) {
        const r = await spawnPepTty(argv, env, columns);
        const label = `${argv.join(" ")} at ${columns}`;
        expect(r.code, r.out).toBe(0);
        // The spinner's frames, each erased by the next line (a terminal shows none of them).
        const text = visible(r.out)
          .replace(/\r/g, "")
          .replace(/\x1b\[\?2026h[^\n]*?\x1b\[0K(?:\x1b\[1G)?/g, "");
        const notes = text.split("\n").filter((l) => l.startsWith("note: "));
        const [table, ...others] = tablesOf(text);
        expect(others, label).toEqual([]);
        expect(table!.rows.length, label).toBe(items.length);
        for (const row of table!.rows) expect(displayWidth(row), `${label}: ${row}`).toBeLessThanOrEqual(columns);
        // Every id whole, first on its row.
        expect(table!.rows.map((row) => row.split(/\s+/)[0])).toEqual(items.map((item) => item.id));
        expectMinimums(table!, resource, label);
        // What was hidden is said once, after the table, as one note folded to the width,
        // naming the fields and how to show them.
        expect(notes.length, label).toBeLessThanOrEqual(1);
        if (notes.length === 1) {
          const folded = text.slice(text.indexOf(notes[0]!)).trimEnd().split("\n");
          for (const l of folded) expect(displayWidth(l), `${label}: ${l}`).toBeLessThanOrEqual(columns);
          expect(folded.join(" "), label).toMatch(
            /^note: .+ hidden for lack of width; --fields id,\S+ shows (it|them)/,
          );
        }
      }
      // Four runs of the real executable on a terminal: a bound for a loaded machine, not a timing.
    }, 120_000);
  }
});
