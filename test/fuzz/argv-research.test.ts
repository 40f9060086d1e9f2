/**
 * Fuzzed argv for the research commands (index, health, peptides list|get|studies|
 * research|regulatory, categories, research-areas/areas, search): every run ends with a
 * documented exit code and a message, never an uncaught exception, and a refused value
 * sends nothing.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  CATEGORIES,
  EVIDENCE_LEVELS,
  PEPTIDE_FIELDS,
  PEPTIDE_SORTS,
  REGULATORY_STATUSES,
  SEARCH_TYPES,
} from "../../src/api/enums.js";
import { getJson } from "../helpers/direct.js";
import {
  argvOf,
  argvSafe,
  csvOf,
  cursors,
  enumOf,
  expectDocumented,
  garbage,
  GLOBALS,
  intAround,
  listFlags,
  params,
  startFuzzer,
  textUpTo,
  TIMEOUT,
  type CommandShape,
  type Fuzzer,
} from "./harness.js";

let fz: Fuzzer;
let slugs: fc.Arbitrary<string>;

beforeAll(async () => {
  fz = await startFuzzer();
  const { body } = await getJson(fz.cli.baseUrl, "/peptides", { limit: 5 });
  const known = (body.data as { id: string; name: string }[]).flatMap((p) => [p.id, p.name, p.id.toUpperCase()]);
  slugs = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...known) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        "no-such-peptide",
        "a/b",
        "a?b=c",
        "a#b",
        "%2e%2e",
        "..",
        ".",
        "./x",
        "x/..",
        "x".repeat(200),
        "x".repeat(201),
      ),
    },
    { weight: 2, arbitrary: garbage },
  );
});
afterAll(() => fz.close());

const fields = { name: "--fields", values: csvOf(PEPTIDE_FIELDS) };

function shapes(): CommandShape[] {
  const slugArg = slugs.map((s) => [s]);
  return [
    { words: [["index"]], flags: [] },
    { words: [["health"]], flags: [] },
    {
      words: [["peptides", "list"], ["peptides"]],
      flags: [
        { name: "--search", values: textUpTo(200) },
        { name: "--category", values: enumOf(CATEGORIES) },
        { name: "--research-area", values: textUpTo(80) },
        { name: "--evidence-level", values: enumOf(EVIDENCE_LEVELS) },
        { name: "--regulatory-status", values: enumOf(REGULATORY_STATUSES) },
        { name: "--sort", values: enumOf(PEPTIDE_SORTS) },
        fields,
        ...listFlags(),
      ],
    },
    ...["get", "research", "regulatory"].map(
      (verb): CommandShape => ({ words: [["peptides", verb]], args: slugArg, flags: [] }),
    ),
    { words: [["peptides", "studies"]], args: slugArg, flags: listFlags() },
    { words: [["categories"]], flags: listFlags() },
    { words: [["research-areas"], ["areas"]], flags: [{ name: "--search", values: textUpTo(80) }, ...listFlags()] },
    {
      words: [["search"]],
      args: fc.array(fc.oneof(textUpTo(200), garbage), { minLength: 0, maxLength: 3 }),
      flags: [
        { name: "--types", values: csvOf(SEARCH_TYPES) },
        { name: "--limit", values: intAround(1, 25) },
      ],
    },
  ];
}

/** Whether the API may be the one to refuse a value of this argv (an opaque cursor). */
const apiJudges = (argv: string[]) => argv.some((w) => w === "--cursor" || w.startsWith("--cursor="));

describe("fuzzed argv: research commands", () => {
  it(
    "end with a documented exit code and a message, and a refused value sends nothing",
    async () => {
      const all = shapes();
      const arb = fc.constantFrom(...all.keys()).chain((i) => argvOf(all[i]!, GLOBALS));
      await fc.assert(
        fc.asyncProperty(arb, async (argv) => {
          const r = await fz.run(argv);
          expectDocumented(r, { apiJudges: apiJudges(argv) });
        }),
        params(100),
      );
    },
    TIMEOUT,
  );

  it(
    "valid list flags alone never exit 2",
    async () => {
      // Only values the spec accepts: the run must reach the API and succeed.
      const arb = fc.record({
        category: fc.option(fc.constantFrom(...CATEGORIES), { nil: undefined }),
        level: fc.option(fc.constantFrom(...EVIDENCE_LEVELS), { nil: undefined }),
        status: fc.option(fc.constantFrom(...REGULATORY_STATUSES), { nil: undefined }),
        sort: fc.option(fc.constantFrom(...PEPTIDE_SORTS), { nil: undefined }),
        search: fc.option(
          fc
            .string({ minLength: 1, maxLength: 200 })
            .filter((s) => s.trim() !== "" && argvSafe(s) && !s.startsWith("-")),
          { nil: undefined },
        ),
        fields: fc.option(fc.subarray([...PEPTIDE_FIELDS], { minLength: 1 }), { nil: undefined }),
        limit: fc.option(fc.integer({ min: 1, max: 300 }), { nil: undefined }),
        pageSize: fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }),
      });
      await fc.assert(
        fc.asyncProperty(arb, async (o) => {
          const argv = ["peptides", "list", "-o", "ndjson"];
          if (o.category) argv.push("--category", o.category);
          if (o.level) argv.push("--evidence-level", o.level);
          if (o.status) argv.push("--regulatory-status", o.status);
          if (o.sort) argv.push("--sort", o.sort);
          if (o.search) argv.push(`--search=${o.search}`);
          if (o.fields) argv.push("--fields", o.fields.join(","));
          if (o.limit) argv.push("--limit", String(o.limit));
          if (o.pageSize) argv.push("--page-size", String(o.pageSize));
          const r = await fz.run(argv);
          expectDocumented(r);
          if (r.code !== 0) throw new Error(`valid flags refused:\n${r.err}\n${JSON.stringify(argv)}`);
          const lines = r.out.split("\n").filter(Boolean);
          if (lines.length > (o.limit ?? 20)) throw new Error(`more than --limit items: ${lines.length}`);
        }),
        params(30),
      );
    },
    TIMEOUT,
  );
});

// Cursors are opaque; a made-up one is the API's to refuse (exit 2 with its 400), not a crash.
describe("fuzzed cursors", () => {
  it(
    "a made-up cursor ends documented",
    async () => {
      await fc.assert(
        fc.asyncProperty(cursors, fc.constantFrom("peptides", "categories", "areas"), async (c, cmd) => {
          expectDocumented(await fz.run([cmd, "--cursor", c]), { apiJudges: true });
        }),
        params(20),
      );
    },
    TIMEOUT,
  );
});
