/**
 * A study cited by several of the peptides asked about is printed once, where it first
 * comes, in every format (its BibTeX key is not made twice).
 */
import { describe, expect, it } from "vitest";
import { parseCsv, parseNdjson } from "../helpers/formats.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const cli = useSandboxCli();

describe("peptides studies <slug…>: each study once", () => {
  it("keeps the first position of each study, in json, ndjson, csv and bibtex", async () => {
    const slugs = (
      JSON.parse((await cli.pep(["peptides", "list", "--limit", "12", "-o", "json"])).out) as Array<{ id: string }>
    ).map((p) => p.id);
    // What each slug's list holds, in turn: the union in first-seen order is what the batch prints.
    const expected: string[] = [];
    let total = 0;
    for (const slug of slugs) {
      const one = JSON.parse((await cli.pep(["peptides", "studies", slug, "-o", "json"])).out) as Array<{ id: string }>;
      total += one.length;
      for (const s of one) if (!expected.includes(s.id)) expected.push(s.id);
    }
    // The sandbox's data has studies that several of these peptides cite.
    expect(total).toBeGreaterThan(expected.length);

    const json = await cli.pep(["peptides", "studies", ...slugs, "-o", "json"]);
    expect(json.code, json.err).toBe(0);
    expect((JSON.parse(json.out) as Array<{ id: string }>).map((s) => s.id)).toEqual(expected);
    const ndjson = await cli.pep(["peptides", "studies", ...slugs, "-o", "ndjson"]);
    expect((parseNdjson(ndjson.out) as Array<{ id: string }>).map((s) => s.id)).toEqual(expected);
    const csv = await cli.pep(["peptides", "studies", ...slugs, "-o", "csv"]);
    expect(parseCsv(csv.out).map((r) => r.id)).toEqual(expected);
    const bib = await cli.pep(["peptides", "studies", ...slugs, "-o", "bibtex"]);
    const keys = [...bib.out.matchAll(/^@\w+\{([^,]+),/gm)].map((m) => m[1]);
    expect(keys).toHaveLength(expected.length);
    expect(new Set(keys).size).toBe(keys.length);
    // Looking the same study up twice prints it once too.
    const twice = await cli.pep(["studies", "get", expected[0]!, expected[1]!, expected[0]!, "-o", "json"]);
    expect((JSON.parse(twice.out) as Array<{ id: string }>).map((s) => s.id)).toEqual([expected[0], expected[1]]);
  });
});
