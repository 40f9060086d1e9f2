/**
 * Fuzzed argv for the study, vendor, price and product commands and `pep api`, with keys
 * of every scope, none, unknown and malformed: every run ends with a documented exit code
 * and a message, never an uncaught exception, and a value the CLI refuses sends nothing.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, it } from "vitest";
import {
  PRODUCT_CATEGORIES,
  STUDY_FIELDS,
  STUDY_SORTS,
  VENDOR_FIELDS,
  VENDOR_SORTS,
  EVIDENCE_CLASSIFICATIONS,
} from "../../src/api/enums.js";
import { getJson } from "../helpers/direct.js";
import {
  argvOf,
  codes,
  csvOf,
  enumOf,
  expectDocumented,
  garbage,
  GLOBALS,
  intAround,
  listFlags,
  params,
  ratings,
  startFuzzer,
  textUpTo,
  TIMEOUT,
  type CommandShape,
  type Fuzzer,
} from "./harness.js";

let fz: Fuzzer;
let studyIds: string[];
let vendorIds: string[];

beforeAll(async () => {
  fz = await startFuzzer();
  studyIds = ((await getJson(fz.cli.baseUrl, "/studies", { limit: 5 })).body.data as { id: string }[]).map((s) => s.id);
  const res = await fetch(`${fz.cli.baseUrl}/vendors?limit=4`, { headers: { authorization: "Bearer sbx_full_key" } });
  vendorIds = ((await res.json()) as { data: { id: string; slug: string }[] }).data.flatMap((v) => [v.id, v.slug]);
});
afterAll(() => fz.close());

/** Keys of every scope, none, an unknown one, one with a space (refused before any request). */
const keys = fc.constantFrom(
  "sbx_full_key",
  "sbx_full_key",
  "sbx_research_key",
  "sbx_vendors_key",
  "",
  "sbx_unknown_key",
  "bad key",
  " sbx_full_key ",
);

function studyIdArb(): fc.Arbitrary<string> {
  const digits = (min: number, max: number) => fc.integer({ min, max }).map((n) => "9".repeat(n));
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...studyIds) },
    { weight: 1, arbitrary: digits(1, 11) },
    { weight: 1, arbitrary: digits(1, 11).map((d) => `pmid-${d}`) },
    { weight: 1, arbitrary: digits(6, 10).map((d) => `NCT${d}`) },
    { weight: 1, arbitrary: fc.tuple(digits(2, 11), garbage).map(([d, g]) => `10.${d}/${g}`) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(
          fc.constantFrom(
            "https://doi.org/",
            "doi:",
            "doi: ",
            "https://pubmed.ncbi.nlm.nih.gov/",
            "https://clinicaltrials.gov/study/",
            "doi-",
            "nct-",
            "pmid:",
          ),
          garbage,
        )
        .map(([p, g]) => p + g),
    },
    { weight: 2, arbitrary: garbage },
  );
}

const vendorId = () =>
  fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...vendorIds) },
    { weight: 1, arbitrary: fc.constantFrom("no-such-vendor", "..", ".", "a/b", "x".repeat(201)) },
    { weight: 2, arbitrary: garbage },
  );

const pairs = fc.oneof(
  fc.constantFrom(
    "in_stock=true",
    "limit=5",
    "limit=0",
    "limit=101",
    "cursor=",
    "cursor=abc",
    "types=content",
    "api_key=x",
    "token=t",
    "=x",
    "x",
    "a=b=c",
    "q=",
    "peptide=x",
    "a b=c",
    "fields=id",
  ),
  fc.tuple(fc.constantFrom("a", "sort", "x_y", "a.b", "a[b]"), garbage).map(([k, v]) => `${k}=${v}`),
  garbage,
);

function shapes(): CommandShape[] {
  const studyFilters = [
    { name: "--peptide", values: textUpTo(200) },
    { name: "--evidence-classification", values: csvOf(EVIDENCE_CLASSIFICATIONS) },
    { name: "--year-from", values: intAround(1900, 2100) },
    { name: "--year-to", values: intAround(1900, 2100) },
    { name: "--search", values: textUpTo(200) },
    { name: "--sort", values: enumOf(STUDY_SORTS) },
    { name: "--fields", values: csvOf(STUDY_FIELDS) },
  ];
  const shipsTo = { name: "--ships-to", values: codes };
  const offer = [
    { name: "--peptide", values: textUpTo(200) },
    { name: "--form", values: textUpTo(80) },
    { name: "--currency", values: fc.oneof(fc.constantFrom("USD", "usd", "EUR", "US", "USDX", "U$D"), garbage) },
    { name: "--param", values: pairs },
    ...listFlags(),
  ];
  const apiPaths = fc.oneof(
    fc.constantFrom(
      "/",
      "peptides",
      "/v1/studies",
      "/vendors",
      "/prices",
      "/products",
      "/nosuch",
      "categories?limit=2",
      "/peptides?api_key=x",
      "/search?q=a",
      "/studies/pmid-1",
      "?",
      "#",
      "//x",
      "%zz",
      "/v1",
      "/v1/v1/peptides",
    ),
    fc.constantFrom(
      "http://127.0.0.1:1/v1/x",
      "ftp://127.0.0.1/x",
      "http://[::1",
      "http://u:p@127.0.0.1/x",
      "mailto:x@y",
    ),
    garbage,
  );
  return [
    { words: [["studies", "list"], ["studies"]], flags: [...studyFilters, ...listFlags()] },
    { words: [["studies", "export"]], flags: [...studyFilters, ...listFlags()] },
    { words: [["studies", "get"]], args: studyIdArb().map((id) => [id]), flags: [] },
    {
      words: [["vendors", "list"], ["vendors"]],
      flags: [
        { name: "--search", values: textUpTo(200) },
        { name: "--country", values: codes },
        shipsTo,
        { name: "--product-category", values: enumOf(PRODUCT_CATEGORIES) },
        { name: "--min-rating", values: ratings },
        { name: "--peptide", values: textUpTo(200) },
        { name: "--sort", values: enumOf(VENDOR_SORTS) },
        { name: "--fields", values: csvOf(VENDOR_FIELDS) },
        ...listFlags(),
      ],
    },
    { words: [["vendors", "get"]], args: vendorId().map((id) => [id]), flags: [shipsTo] },
    { words: [["vendors", "shipping"]], args: vendorId().map((id) => [id]), flags: [shipsTo] },
    { words: [["vendors", "compare"]], args: fc.array(vendorId(), { minLength: 0, maxLength: 6 }), flags: [shipsTo] },
    { words: [["prices"]], flags: [...offer, shipsTo] },
    { words: [["products"]], flags: offer },
    {
      words: [["api"]],
      args: apiPaths.map((p) => [p]),
      flags: [{ name: "-F", values: pairs }, { name: "--field", values: pairs }, { name: "--paginate" }],
    },
  ];
}

/**
 * The API judges an opaque cursor, a `--param` pair, anything `pep api` sends, and the
 * evidence classifications (the spec does not show their identifiers, so the CLI checks
 * only their form).
 */
const apiJudges = (argv: string[]) =>
  argv.includes("api") || argv.some((w) => /^--(cursor|param|evidence-classification)(=|$)/.test(w));

describe("fuzzed argv: studies, vendors, prices, products, api", () => {
  it(
    "end with a documented exit code and a message, and a refused value sends nothing",
    async () => {
      const all = shapes();
      const arb = fc.tuple(
        fc.constantFrom(...all.keys()).chain((i) => argvOf(all[i]!, GLOBALS)),
        keys,
      );
      await fc.assert(
        fc.asyncProperty(arb, async ([argv, key]) => {
          const r = await fz.run(argv, { env: { PEP_API_KEY: key } });
          expectDocumented(r, { apiJudges: apiJudges(argv) });
        }),
        params(100),
      );
    },
    TIMEOUT,
  );

  it(
    "without a key, a keyed command sends nothing",
    async () => {
      const keyed = shapes().filter((s) => ["vendors", "prices", "products"].includes(s.words[0]![0]!));
      const arb = fc.constantFrom(...keyed.keys()).chain((i) => argvOf(keyed[i]!, []));
      await fc.assert(
        fc.asyncProperty(arb, async (argv) => {
          const r = await fz.run(argv, { env: { PEP_API_KEY: "" } });
          expectDocumented(r, { apiJudges: apiJudges(argv) });
          if (r.sent > 0) throw new Error(`sent ${r.sent} request(s) without a key: ${JSON.stringify(argv)}\n${r.err}`);
        }),
        params(40),
      );
    },
    TIMEOUT,
  );
});
