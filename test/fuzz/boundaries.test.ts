/**
 * Every parameter constraint of the spec (and the CLI's own bounds) on both sides, in one
 * table: the value just inside reaches the API with the right query (seen in the `-v`
 * request log) and the sandbox answers; the value just outside exits 2, names the flag
 * and what it accepts, and sends nothing. Other files test some of these with their
 * command's features; this is the one place that lists them all.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  CATEGORIES,
  EVIDENCE_LEVELS,
  PEPTIDE_FIELDS,
  PEPTIDE_SORTS,
  PRODUCT_CATEGORIES,
  REGULATORY_STATUSES,
  STUDY_FIELDS,
  STUDY_SORTS,
  VENDOR_FIELDS,
  VENDOR_SORTS,
} from "../../src/api/enums.js";
import { describeRun, expectDocumented, startFuzzer, type Fuzzer } from "./harness.js";

let fz: Fuzzer;
let cursor: string;
let vendorIds: string[];

beforeAll(async () => {
  fz = await startFuzzer();
  const page = (await (await fetch(`${fz.cli.baseUrl}/peptides?limit=1`)).json()) as {
    pagination: { next_cursor: string };
  };
  cursor = page.pagination.next_cursor;
  const vendors = (await (
    await fetch(`${fz.cli.baseUrl}/vendors?limit=4`, { headers: { authorization: "Bearer sbx_full_key" } })
  ).json()) as { data: { id: string }[] };
  vendorIds = vendors.data.map((v) => v.id);
});
afterAll(() => fz.close());

const s = (n: number, c = "s") => c.repeat(n);
const KEYED = { PEP_API_KEY: "sbx_full_key" };

/** The URLs of the requests a `-v` run logged (`> GET <url>`). */
function requested(err: string): URL[] {
  return [...err.matchAll(/^> GET (\S+)/gm)].map((m) => new URL(m[1]!));
}

interface Inside {
  /** What the row shows. */
  name: string;
  argv: string[];
  /** Path the request goes to (relative to /v1), and query parameters it must carry. */
  path: string;
  query?: Record<string, string>;
  /** Exit code: 0, or 4 where the id is well formed but unknown to the sandbox. */
  code?: number;
}

interface Outside {
  name: string;
  argv: string[];
  /** Names the flag (or argument) and what it accepts. */
  message: RegExp;
}

const keyed = (argv: string[]) => argv[0] === "vendors" || argv[0] === "prices" || argv[0] === "products";

async function expectInside(row: Inside): Promise<void> {
  const r = await fz.run(["-v", "-o", "json", ...row.argv], { env: keyed(row.argv) ? KEYED : {} });
  expectDocumented(r);
  expect(r.code, describeRun(r)).toBe(row.code ?? 0);
  const first = requested(r.err)[0];
  expect(first, describeRun(r)).toBeDefined();
  expect(first!.pathname).toBe(`/v1${row.path}`);
  for (const [k, v] of Object.entries(row.query ?? {}))
    expect(first!.searchParams.get(k), `${k} in ${first!.href}`).toBe(v);
}

async function expectOutside(row: Outside): Promise<void> {
  const r = await fz.run(row.argv, { env: keyed(row.argv) ? KEYED : {} });
  expectDocumented(r);
  expect(r.code, describeRun(r)).toBe(2);
  expect(r.err).toMatch(row.message);
  expect(r.sent, describeRun(r)).toBe(0);
}

/**
 * Every value of an enum is accepted and sent, in any case (sent as the API spells it); a
 * near miss is refused listing them.
 */
function enumRows(
  argv: string[],
  flag: string,
  param: string,
  path: string,
  values: readonly string[],
): { inside: Inside[]; outside: Outside[] } {
  return {
    inside: [
      ...values.map((v) => ({ name: `${flag} ${v}`, argv: [...argv, flag, v], path, query: { [param]: v } })),
      {
        name: `${flag} in capitals`,
        argv: [...argv, flag, values[0]!.toUpperCase()],
        path,
        query: { [param]: values[0]! },
      },
    ],
    outside: [
      {
        name: `${flag} unknown`,
        argv: [...argv, flag, "no-such-value"],
        message: new RegExp(`${flag} must be one of: ${values.map(esc).join(", ")}`),
      },
    ],
  };
}

const esc = (v: string) => v.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const PAGE = /must be a whole number from 1 to 100/;

/** `--page-size` 1..100 and `--limit` ≥ 1 on a list command. */
function pagingRows(argv: string[], path: string, code = 0): { inside: Inside[]; outside: Outside[] } {
  return {
    inside: [
      { name: "--page-size 1", argv: [...argv, "--page-size", "1", "--limit", "1"], path, query: { limit: "1" }, code },
      {
        name: "--page-size 100",
        argv: [...argv, "--page-size", "100", "--limit", "100"],
        path,
        query: { limit: "100" },
        code,
      },
      { name: "--limit 1", argv: [...argv, "--limit", "1"], path, query: { limit: "1" }, code },
      { name: "--limit 101 asks pages of 100", argv: [...argv, "--limit", "101"], path, query: { limit: "100" }, code },
    ],
    outside: [
      { name: "--page-size 0", argv: [...argv, "--page-size", "0"], message: new RegExp(`--page-size ${PAGE.source}`) },
      {
        name: "--page-size 101",
        argv: [...argv, "--page-size", "101"],
        message: new RegExp(`--page-size ${PAGE.source}`),
      },
      { name: "--limit 0", argv: [...argv, "--limit", "0"], message: /--limit must be a whole number of 1 or more/ },
      { name: "--limit -1", argv: [...argv, "--limit=-1"], message: /--limit must be a whole number of 1 or more/ },
      {
        name: "--limit 1.5",
        argv: [...argv, "--limit", "1.5"],
        message: /--limit must be a whole number of 1 or more/,
      },
      { name: "--cursor empty", argv: [...argv, "--cursor", ""], message: /--cursor must not be empty/ },
    ],
  };
}

/** A text flag of 1 to `max` characters (`code` 4 where the text names a peptide the sandbox does not have). */
function textRows(
  argv: string[],
  flag: string,
  param: string,
  path: string,
  max: number,
  code = 0,
): { inside: Inside[]; outside: Outside[] } {
  return {
    inside: [
      { name: `${flag} of 1 character`, argv: [...argv, flag, "a"], path, query: { [param]: "a" }, code },
      { name: `${flag} of ${max} characters`, argv: [...argv, flag, s(max)], path, query: { [param]: s(max) }, code },
    ],
    outside: [
      { name: `${flag} empty`, argv: [...argv, flag, ""], message: new RegExp(`${flag} must not be empty`) },
      {
        name: `${flag} of ${max + 1} characters`,
        argv: [...argv, flag, s(max + 1)],
        message: new RegExp(`${flag} must be at most ${max} characters`),
      },
    ],
  };
}

/** `--fields`: each name of the resource's list alone and all together; an unknown one refused. */
function fieldRows(argv: string[], path: string, fields: readonly string[]): { inside: Inside[]; outside: Outside[] } {
  return {
    inside: [
      { name: "--fields id", argv: [...argv, "--fields", "id"], path, query: { fields: "id" } },
      {
        name: "--fields (all)",
        argv: [...argv, "--fields", fields.join(",")],
        path,
        query: { fields: fields.join(",") },
      },
    ],
    outside: [
      {
        name: "--fields unknown",
        argv: [...argv, "--fields", "id,no_such_field"],
        message: new RegExp(`--fields must be a comma-separated list of: ${fields.map(esc).join(", ")}`),
      },
      { name: "--fields empty", argv: [...argv, "--fields", ","], message: /--fields must name at least one field/ },
    ],
  };
}

const COUNTRY = /--country must be a two-letter country code \(ISO 3166-1 alpha-2\)/;
const SHIPS_TO = /--ships-to must be a two-letter country code, optionally with a subdivision \(US, US-CA\)/;

/** `--ships-to`: a country, or a country and a subdivision of 1 to 3 letters or digits. */
function shipsToRows(argv: string[], path: string): { inside: Inside[]; outside: Outside[] } {
  const ok = (v: string, sent: string): Inside => ({
    name: `--ships-to ${v}`,
    argv: [...argv, "--ships-to", v],
    path,
    query: { ships_to: sent },
  });
  const bad = (v: string): Outside => ({
    name: `--ships-to ${JSON.stringify(v)}`,
    argv: [...argv, `--ships-to=${v}`],
    message: SHIPS_TO,
  });
  return {
    inside: [ok("US", "US"), ok("us", "US"), ok("US-C", "US-C"), ok("us-ca", "US-CA"), ok("FR-751", "FR-751")],
    outside: [bad("U"), bad("USA"), bad("US-"), bad("US-CALI"), bad("US_CA"), bad("1A"), bad("")],
  };
}

/** Path ids and slugs: 1 to 200 characters, not "." or "..", which the URL would resolve away. */
function idRows(
  argv: string[],
  name: string,
  path: (id: string) => string,
  extra: string[] = [],
): { inside: Inside[]; outside: Outside[] } {
  return {
    inside: [
      { name: `<${name}> of 1 character`, argv: [...argv, "x", ...extra], path: path("x"), code: 4 },
      { name: `<${name}> of 200 characters`, argv: [...argv, s(200, "x"), ...extra], path: path(s(200, "x")), code: 4 },
      { name: `<${name}> with dots`, argv: [...argv, "...", ...extra], path: path("..."), code: 4 },
    ],
    outside: [
      { name: `<${name}> empty`, argv: [...argv, " ", ...extra], message: new RegExp(`<${name}> must not be empty`) },
      {
        name: `<${name}> of 201 characters`,
        argv: [...argv, s(201, "x"), ...extra],
        message: new RegExp(`<${name}> must be at most 200 characters`),
      },
      {
        name: `<${name}> ..`,
        argv: [...argv, "..", ...extra],
        message: new RegExp(`<${name}> must be an id, name or slug, not ".."`),
      },
      {
        name: `<${name}> .`,
        argv: [...argv, ".", ...extra],
        message: new RegExp(`<${name}> must be an id, name or slug, not "."`),
      },
    ],
  };
}

const YEAR = (flag: string) => new RegExp(`${flag} must be a whole number from 1900 to 2100`);

/** The filters of GET /studies, for `studies list` and `studies export`. */
function studyFilterRows(argv: string[]): { inside: Inside[]; outside: Outside[] } {
  const year = (flag: string, param: string) => ({
    inside: ["1900", "1901", "2099", "2100"].map(
      (y): Inside => ({ name: `${flag} ${y}`, argv: [...argv, flag, y], path: "/studies", query: { [param]: y } }),
    ),
    outside: ["1899", "2101", "2000.5", "0x76C", "2e3", "", " 2000", "-2000", "MMXX"].map(
      (y): Outside => ({ name: `${flag} ${JSON.stringify(y)}`, argv: [...argv, `${flag}=${y}`], message: YEAR(flag) }),
    ),
  });
  const from = year("--year-from", "year_from");
  const to = year("--year-to", "year_to");
  // Refused by pep's own list of the six (each member checked) before the schema's pattern.
  const cls = /--evidence-classification must be a comma-separated list of: regulatory_label, human_controlled_trial/;
  return {
    inside: [
      ...from.inside,
      ...to.inside,
      {
        name: "--year-from = --year-to",
        argv: [...argv, "--year-from", "2000", "--year-to", "2000"],
        path: "/studies",
        query: { year_from: "2000", year_to: "2000" },
      },
      {
        name: "--evidence-classification one",
        argv: [...argv, "--evidence-classification", "human_controlled_trial"],
        path: "/studies",
        query: { evidence_classification: "human_controlled_trial" },
      },
      {
        name: "--evidence-classification two",
        argv: [...argv, "--evidence-classification", "in_vitro,human_study"],
        path: "/studies",
        query: { evidence_classification: "in_vitro,human_study" },
      },
      ...textRows(argv, "--peptide", "peptide", "/studies", 200, 4).inside,
      ...textRows(argv, "--search", "search", "/studies", 200).inside,
      ...enumRows(argv, "--sort", "sort", "/studies", STUDY_SORTS).inside,
      ...fieldRows(argv, "/studies", STUDY_FIELDS).inside,
    ],
    outside: [
      ...from.outside,
      ...to.outside,
      {
        name: "--year-from after --year-to",
        argv: [...argv, "--year-from", "2001", "--year-to", "2000"],
        message: /--year-from must not be later than/,
      },
      ...["", "a,,b", ",a", "a,", "a b", "a;b"].map(
        (v): Outside => ({
          name: `--evidence-classification ${JSON.stringify(v)}`,
          argv: [...argv, `--evidence-classification=${v}`],
          message: cls,
        }),
      ),
      ...textRows(argv, "--peptide", "peptide", "/studies", 200).outside,
      ...textRows(argv, "--search", "search", "/studies", 200).outside,
      ...enumRows(argv, "--sort", "sort", "/studies", STUDY_SORTS).outside,
      ...fieldRows(argv, "/studies", STUDY_FIELDS).outside,
    ],
  };
}

function merge(...parts: { inside: Inside[]; outside: Outside[] }[]): { inside: Inside[]; outside: Outside[] } {
  return { inside: parts.flatMap((p) => p.inside), outside: parts.flatMap((p) => p.outside) };
}

const TABLES: Record<string, () => { inside: Inside[]; outside: Outside[] }> = {
  "peptides list": () => {
    const a = ["peptides", "list"];
    return merge(
      textRows(a, "--search", "search", "/peptides", 200),
      // A research area within the bounds is looked up first (/research-areas) and sent as
      // the area's name it names (test/e2e/research-peptides.test.ts): its outside rows only.
      { inside: [], outside: textRows(a, "--research-area", "research_area", "/peptides", 80).outside },
      enumRows(a, "--category", "category", "/peptides", CATEGORIES),
      enumRows(a, "--evidence-level", "evidence_level", "/peptides", EVIDENCE_LEVELS),
      enumRows(a, "--regulatory-status", "regulatory_status", "/peptides", REGULATORY_STATUSES),
      enumRows(a, "--sort", "sort", "/peptides", PEPTIDE_SORTS),
      fieldRows(a, "/peptides", PEPTIDE_FIELDS),
      pagingRows(a, "/peptides"),
      {
        inside: [
          { name: "--cursor from the API", argv: [...a, "--cursor", cursor], path: "/peptides", query: { cursor } },
        ],
        outside: [],
      },
    );
  },
  "peptides get|research|regulatory|studies": () =>
    merge(
      idRows(["peptides", "get"], "slug", (id) => `/peptides/${id}`),
      idRows(["peptides", "research"], "slug", (id) => `/peptides/${id}/research`),
      idRows(["peptides", "regulatory"], "slug", (id) => `/regulatory-status/${id}`),
      idRows(["peptides", "studies"], "slug", (id) => `/peptides/${id}/studies`),
      pagingRows(["peptides", "studies", "zz-no-such"], "/peptides/zz-no-such/studies", 4),
    ),
  categories: () => pagingRows(["categories"], "/categories"),
  "research-areas": () =>
    merge(
      textRows(["research-areas"], "--search", "search", "/research-areas", 80),
      pagingRows(["areas"], "/research-areas"),
    ),
  search: () => {
    const lim = /--limit must be a whole number from 1 to 25/;
    const types = /--types must be a comma-separated list of: peptides, content/;
    const q = /<query> must be at most 200 characters/;
    return {
      inside: [
        { name: "<query> of 1 character", argv: ["search", "q"], path: "/search", query: { q: "q" } },
        {
          name: "<query> of 200 characters",
          argv: ["search", s(200, "q")],
          path: "/search",
          query: { q: s(200, "q") },
        },
        {
          name: "<query> words joined to 200",
          argv: ["search", s(99, "q"), s(100, "q")],
          path: "/search",
          query: { q: `${s(99, "q")} ${s(100, "q")}` },
        },
        ...["1", "25"].map(
          (n): Inside => ({
            name: `--limit ${n}`,
            argv: ["search", "repair", "--limit", n],
            path: "/search",
            query: { limit: n },
          }),
        ),
        ...["peptides", "content", "peptides,content"].map(
          (t): Inside => ({
            name: `--types ${t}`,
            argv: ["search", "repair", "--types", t],
            path: "/search",
            query: { types: t },
          }),
        ),
      ],
      outside: [
        { name: "<query> empty", argv: ["search", ""], message: /<query> must not be empty/ },
        { name: "<query> of 201 characters", argv: ["search", s(201, "q")], message: q },
        { name: "<query> words joined to 201", argv: ["search", s(100, "q"), s(100, "q")], message: q },
        ...["0", "26", "-1", "1.5", "1e1", "0x19", "", " 5"].map(
          (n): Outside => ({
            name: `--limit ${JSON.stringify(n)}`,
            argv: ["search", "repair", `--limit=${n}`],
            message: lim,
          }),
        ),
        ...["vendors", "peptides,", ",content", "", "peptides,,content"].map(
          (t): Outside => ({
            name: `--types ${JSON.stringify(t)}`,
            argv: ["search", "repair", `--types=${t}`],
            message: types,
          }),
        ),
      ],
    };
  },
  "studies list": () => merge(studyFilterRows(["studies", "list"]), pagingRows(["studies", "list"], "/studies")),
  "studies export": () => {
    const t = studyFilterRows(["studies", "export", "--limit", "1"]);
    return {
      inside: t.inside.filter((r) => r.name.startsWith("--year")),
      outside: t.outside.filter((r) => r.name.startsWith("--year")),
    };
  },
  "studies get": () => {
    const ok = (v: string, id: string): Inside => ({
      name: `<id> ${v}`,
      argv: ["studies", "get", v],
      path: `/studies/${id}`,
      code: 4,
    });
    const bad = (v: string): Outside => ({
      name: `<id> ${v}`,
      argv: ["studies", "get", v],
      message: /<id> ".*" is not a study id\nhint: accepted: pmid-<number>; doi-/,
    });
    return {
      inside: [
        ok("1", "pmid-1"),
        ok("999999999", "pmid-999999999"),
        ok("pmid-999999999", "pmid-999999999"),
        ok("NCT00000000", "nct-NCT00000000"),
        ok("nct-NCT99999999", "nct-NCT99999999"),
        ok("10.1234/x", "doi-10.1234--x"),
        ok("10.123456789/x", "doi-10.123456789--x"),
        ok("doi-10.1234--x", "doi-10.1234--x"),
      ],
      outside: [
        "0",
        "pmid-0",
        "1000000000",
        "pmid-1000000000",
        "NCT1234567",
        "NCT123456789",
        "10.123/x",
        "10.1234567890/x",
        "10.1234/",
        "doi-10.1234",
        "nct-",
        "pmid-",
      ].map(bad),
    };
  },
  "vendors list": () => {
    const a = ["vendors", "list"];
    const rating = /--min-rating must be a number from 0 to 5/;
    return merge(
      textRows(a, "--search", "search", "/vendors", 200),
      textRows(a, "--peptide", "peptide", "/vendors", 200, 4),
      {
        inside: [
          { name: "--country US", argv: [...a, "--country", "US"], path: "/vendors", query: { country: "US" } },
          { name: "--country de", argv: [...a, "--country", "de"], path: "/vendors", query: { country: "DE" } },
          ...["0", "0.0", "2.5", "4.99", "5", "5.0"].map(
            (v): Inside => ({
              name: `--min-rating ${v}`,
              argv: [...a, "--min-rating", v],
              path: "/vendors",
              query: { min_rating: v },
            }),
          ),
        ],
        outside: [
          ...["U", "USA", "U1", "U-S", ""].map(
            (v): Outside => ({
              name: `--country ${JSON.stringify(v)}`,
              argv: [...a, `--country=${v}`],
              message: COUNTRY,
            }),
          ),
          ...["-0.1", "-1", "5.01", "5.1", "6", "NaN", "1e0", ""].map(
            (v): Outside => ({
              name: `--min-rating ${JSON.stringify(v)}`,
              argv: [...a, `--min-rating=${v}`],
              message: rating,
            }),
          ),
        ],
      },
      shipsToRows(a, "/vendors"),
      enumRows(a, "--product-category", "product_category", "/vendors", PRODUCT_CATEGORIES),
      enumRows(a, "--sort", "sort", "/vendors", VENDOR_SORTS),
      fieldRows(a, "/vendors", VENDOR_FIELDS),
      pagingRows(a, "/vendors"),
    );
  },
  "vendors get|shipping": () =>
    merge(
      idRows(["vendors", "get"], "id", (id) => `/vendors/${id}`),
      idRows(["vendors", "shipping"], "id", (id) => `/vendors/${id}/shipping`),
      shipsToRows(["vendors", "get", vendorIds[0]!], `/vendors/${vendorIds[0]!}`),
      shipsToRows(["vendors", "shipping", vendorIds[0]!], `/vendors/${vendorIds[0]!}/shipping`),
    ),
  "vendors compare": () => {
    const count = /compare needs 2 to 4 vendor ids or slugs/;
    return merge(
      {
        inside: [
          {
            name: "2 ids",
            argv: ["vendors", "compare", ...vendorIds.slice(0, 2)],
            path: "/vendors/compare",
            query: { ids: vendorIds.slice(0, 2).join(",") },
          },
          {
            name: "4 ids",
            argv: ["vendors", "compare", ...vendorIds.slice(0, 4)],
            path: "/vendors/compare",
            query: { ids: vendorIds.slice(0, 4).join(",") },
          },
          {
            name: "2 ids comma-separated",
            argv: ["vendors", "compare", vendorIds.slice(0, 2).join(",")],
            path: "/vendors/compare",
            query: { ids: vendorIds.slice(0, 2).join(",") },
          },
        ],
        outside: [
          { name: "1 id", argv: ["vendors", "compare", vendorIds[0]!], message: count },
          { name: "5 ids", argv: ["vendors", "compare", ...vendorIds.slice(0, 4), "fifth"], message: count },
          {
            name: "an empty id",
            argv: ["vendors", "compare", `${vendorIds[0]!},`, vendorIds[1]!],
            message: /<ids> must not hold an empty id/,
          },
          {
            name: "the same id twice",
            argv: ["vendors", "compare", vendorIds[0]!, vendorIds[0]!.toUpperCase()],
            message: /give 2 to 4 different vendors/,
          },
        ],
      },
      shipsToRows(["vendors", "compare", ...vendorIds.slice(0, 2)], "/vendors/compare"),
    );
  },
  "prices and products": () => {
    const currency = /--currency must be a three-letter currency code, such as USD/;
    const offers = (cmd: string) =>
      merge(
        textRows([cmd], "--peptide", "peptide", `/${cmd}`, 200, 4),
        textRows([cmd], "--form", "form", `/${cmd}`, 80),
        {
          inside: [
            {
              name: `${cmd} --currency USD`,
              argv: [cmd, "--currency", "USD"],
              path: `/${cmd}`,
              query: { currency: "USD" },
            },
            {
              name: `${cmd} --currency eur`,
              argv: [cmd, "--currency", "eur"],
              path: `/${cmd}`,
              query: { currency: "EUR" },
            },
          ],
          outside: ["US", "USDX", "U$D", "12€", ""].map(
            (v): Outside => ({
              name: `${cmd} --currency ${JSON.stringify(v)}`,
              argv: [cmd, `--currency=${v}`],
              message: currency,
            }),
          ),
        },
        pagingRows([cmd], `/${cmd}`),
      );
    return merge(offers("prices"), offers("products"), shipsToRows(["prices"], "/prices"));
  },
  "api --paginate": () => {
    const lim = /limit must be a whole number from 1 to 100 with --paginate/;
    return {
      inside: ["1", "100"].map(
        (n): Inside => ({
          name: `-F limit=${n}`,
          argv: ["api", "/categories", "--paginate", "-F", `limit=${n}`],
          path: "/categories",
          query: { limit: n },
        }),
      ),
      outside: ["0", "101", "-1", "1e1", "1.5", ""].map(
        (n): Outside => ({
          name: `-F limit=${JSON.stringify(n)}`,
          argv: ["api", "/categories", "--paginate", "-F", `limit=${n}`],
          message: n === "" ? /-F limit= needs a value|limit must be/ : lim,
        }),
      ),
    };
  },
  "global --timeout and --retries": () => {
    const timeout = /--timeout must be seconds per request, a number greater than 0 and at most 3600/;
    const retries = /--retries must be a whole number from 0 to 10/;
    return {
      inside: [
        { name: "--timeout 0.5", argv: ["health", "--timeout", "0.5"], path: "/health" },
        { name: "--timeout 3600", argv: ["health", "--timeout", "3600"], path: "/health" },
        { name: "--retries 0", argv: ["health", "--retries", "0"], path: "/health" },
        { name: "--retries 10", argv: ["health", "--retries", "10"], path: "/health" },
      ],
      outside: [
        ...["0", "-1", "3601", "NaN", "", "abc"].map(
          (v): Outside => ({
            name: `--timeout ${JSON.stringify(v)}`,
            argv: ["health", `--timeout=${v}`],
            message: timeout,
          }),
        ),
        ...["-1", "11", "1.5", "", "x"].map(
          (v): Outside => ({
            name: `--retries ${JSON.stringify(v)}`,
            argv: ["health", `--retries=${v}`],
            message: retries,
          }),
        ),
      ],
    };
  },
};

describe.each(Object.keys(TABLES))("boundaries: %s", (name) => {
  it("values just inside reach the API with the right query", async () => {
    const { inside } = TABLES[name]!();
    expect(inside.length).toBeGreaterThan(0);
    for (const row of inside) await expectInside(row);
  });
  it("values just outside exit 2 naming the flag and what it accepts, and send nothing", async () => {
    const { outside } = TABLES[name]!();
    expect(outside.length).toBeGreaterThan(0);
    for (const row of outside) await expectOutside(row);
  });
});
