/**
 * Property-based runs of `pep` over generated argv: the building blocks (values that are
 * valid, on a boundary or garbage; flags in `--flag value` and `--flag=value` form,
 * repeated, unknown; extra positionals), an in-process runner against a loopback sandbox
 * that counts requests, and the invariants every run must keep (docs/cli.md, "Exit codes").
 *
 * Seeded: `PEP_FUZZ_SEED` picks the seed (default fixed) and `PEP_FUZZ_RUNS` multiplies
 * the number of runs for a deeper search: `npm run fuzz` (a seed from the clock, printed,
 * 20 times the runs), or e.g. `PEP_FUZZ_SEED=424242 PEP_FUZZ_RUNS=50 npm run fuzz`.
 * A failure prints the seed, the path and the shrunk argv, so it reproduces.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import fc from "fast-check";
import { expect } from "vitest";
import { testIO } from "../../src/core/io.js";
import { run } from "../../src/cli/main.js";
import { startSandboxCli, type SandboxCli } from "../helpers/sandbox-cli.js";

/** A whole number from the environment; anything else stops the run rather than fuzz nothing. */
function knob(name: string, fallback: number): number {
  const raw = process.env[name] || String(fallback);
  if (!/^\d+$/.test(raw)) throw new Error(`${name} must be a whole number, not ${JSON.stringify(raw)}`);
  return Number(raw);
}
export const SEED = knob("PEP_FUZZ_SEED", 20240611);
const FACTOR = Math.max(1, knob("PEP_FUZZ_RUNS", 1));

/** Test timeout: the default, times the run factor of a deeper search. */
export const TIMEOUT = 20_000 * FACTOR;

/** fast-check parameters: a fixed seed and a modest number of runs (the suite stays fast). */
export function params(numRuns: number): fc.Parameters<unknown> {
  return {
    seed: SEED,
    numRuns: Math.round(numRuns * FACTOR),
    endOnFailure: false,
    interruptAfterTimeLimit: 60_000 * FACTOR,
  };
}

// ---------------------------------------------------------------------------------------
// Running pep

export interface FuzzRun {
  argv: string[];
  code: number;
  out: string;
  err: string;
  /** Requests the sandbox received during the run. */
  sent: number;
}

export interface Fuzzer {
  cli: SandboxCli;
  /** A scratch folder for --file targets, key files and config folders. */
  dir: string;
  /**
   * Runs `pep <argv>` in-process with the sandbox as `PEP_BASE_URL` (so a generated
   * `--base-url` still wins), no retries by default, and a config folder of its own when
   * `freshConfig` (commands that write the config).
   */
  run(
    argv: readonly string[],
    options?: {
      env?: Record<string, string>;
      stdin?: string;
      freshConfig?: boolean;
      configText?: string;
      signal?: AbortSignal;
    },
  ): Promise<FuzzRun & { configDir: string }>;
  close(): Promise<void>;
}

export async function startFuzzer(): Promise<Fuzzer> {
  const cli = await startSandboxCli({ limits: { anonymousPerMinute: 1_000_000 } });
  const dir = mkdtempSync(path.join(os.tmpdir(), "pep-fuzz-"));
  mkdirSync(path.join(dir, "out"));
  writeFileSync(path.join(dir, "key.txt"), "sbx_full_key\n");
  writeFileSync(path.join(dir, "bad-key.txt"), "\n\n  \n");
  let n = 0;
  return {
    cli,
    dir,
    async run(argv, o = {}) {
      const config = o.freshConfig ? path.join(dir, `config-${++n}`) : path.join(dir, "config");
      if (o.configText !== undefined) {
        mkdirSync(config, { recursive: true, mode: 0o700 });
        writeFileSync(path.join(config, "config.json"), o.configText, { mode: 0o600 });
      }
      const io = testIO({
        env: {
          PEP_CONFIG_DIR: config,
          PEP_CACHE_DIR: path.join(dir, "cache"),
          PEP_BASE_URL: cli.baseUrl,
          PEP_RETRIES: "0",
          ...o.env,
        },
        cwd: dir,
        ...(o.stdin !== undefined ? { stdin: o.stdin } : {}),
        ...(o.signal ? { signal: o.signal } : {}),
      });
      const before = cli.requestCount();
      const code = await run(argv, { io });
      return {
        argv: [...argv],
        code,
        out: io.out(),
        err: io.err(),
        sent: cli.requestCount() - before,
        configDir: config,
      };
    },
    async close() {
      await cli.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

// ---------------------------------------------------------------------------------------
// Invariants

export const DOCUMENTED_EXITS = [0, 2, 3, 4, 5, 6];
/** A JavaScript stack frame: `    at fn (file.js:1:2)` or `    at file.js:1:2`. */
const STACK_FRAME = /^\s+at\s.*(?::\d+:\d+\)?|\(native\)|<anonymous>\)?)$/m;
/** A raw error printed by something other than pep's own report (`TypeError: …`). */
const RAW_ERROR = /^(?:Uncaught )?[A-Z]\w*Error(?: \[\w+\])?: /m;

export function describeRun(r: FuzzRun): string {
  return `pep ${r.argv.map((w) => JSON.stringify(w)).join(" ")}\n  exit ${r.code}, ${r.sent} request(s)\n  stderr: ${r.err.slice(0, 600)}`;
}

/**
 * What every run keeps: a documented exit code (never 1), no stack trace or "unexpected
 * failure", a message on stderr whenever it fails, and an exit 2 that sent nothing, unless
 * the API itself refused the request with a 400 (docs/cli.md, "Exit codes"): a value the CLI
 * cannot judge (an opaque cursor, a `--param` pair, a `pep api` query, two ids that name
 * one vendor), and then stderr carries the API's 400. `apiJudges` is kept for callers
 * that say so; a 400 is accepted either way.
 */
export function expectDocumented(r: FuzzRun, _options: { apiJudges?: boolean } = {}): void {
  const where = describeRun(r);
  expect(DOCUMENTED_EXITS, where).toContain(r.code);
  expect(r.err, where).not.toMatch(/unexpected failure/i);
  expect(r.err, where).not.toMatch(STACK_FRAME);
  expect(r.err, where).not.toMatch(RAW_ERROR);
  if (r.code !== 0) expect(r.err.trim(), where).not.toBe("");
  else expect(r.err, where).not.toMatch(/^error:/m);
  if (r.code === 2 && r.sent > 0) {
    const apiRefused = /\(HTTP 400\b/.test(r.err) || /^\{"error":\{/m.test(r.err);
    expect(apiRefused, `exit 2 after a request that the API did not refuse with a 400:\n${where}`).toBe(true);
  }
}

// ---------------------------------------------------------------------------------------
// Values

/** argv cannot hold NUL, and the OS hands Node well-formed text. */
export const argvSafe = (s: string) => !s.includes("\u0000") && Buffer.from(s, "utf8").toString("utf8") === s;

/** Terminal controls, bidi overrides, zero-width and other characters that break naive code. */
export const NASTY = [
  "\u0007",
  "\u0008",
  "\r",
  "\n",
  "\t",
  "\u001b[2J",
  "\u001b]8;;http://x\u0007link\u001b]8;;\u0007",
  "\u001b]52;c;aGk=\u0007",
  "\u009b31m",
  "\u007f",
  "\u202e",
  "\u200b",
  "\ufeff",
  "😀",
  "e\u0301",
  "ǅ",
  "ﬀ",
  "İ",
  "١٢",
  "１２",
] as const;

const GARBAGE_CONSTANTS = [
  "",
  " ",
  "  \t ",
  "-",
  "--",
  "-1",
  "-0",
  "0",
  "00",
  "1.5",
  "1e3",
  "1e400",
  "0x10",
  "0b1",
  "1_000",
  "NaN",
  "Infinity",
  "-Infinity",
  "9".repeat(40),
  "null",
  "undefined",
  "true",
  "[]",
  "{}",
  "__proto__",
  "constructor",
  "toString",
  "%",
  "%zz",
  "%00",
  "?",
  "#",
  "&",
  "=",
  "a=b",
  "/",
  "..",
  ".",
  "../..",
  "a/b",
  ",",
  ",,",
  "a,,b",
  "a, b",
  "'",
  '"',
  "\\",
  "$(id)",
  "`id`",
  "--help",
  "-h",
  "--version",
  ...NASTY,
] as const;

/** Any text a user could type or paste: constants that break parsers, random unicode, long runs. */
export const garbage: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...GARBAGE_CONSTANTS) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 24 }).filter(argvSafe) },
  { weight: 1, arbitrary: fc.string({ unit: "grapheme", maxLength: 12 }) },
  {
    weight: 1,
    arbitrary: fc.array(fc.constantFrom(...NASTY, "a", "1", "-", ","), { maxLength: 8 }).map((a) => a.join("")),
  },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 9000 }).map((n) => "x".repeat(n)) },
  { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt()).map(String) },
);

/** Whole numbers around `min..max`: each bound and its neighbours, values inside, garbage. */
export function intAround(min: number, max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(min - 1, min, min + 1, max - 1, max, max + 1).map(String) },
    { weight: 2, arbitrary: fc.integer({ min, max }).map(String) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        ` ${min}`,
        `${max} `,
        `0${min}`,
        `${min}.0`,
        `${max}.5`,
        `+${max}`,
        `${min}e0`,
        String(2 ** 53 + 1),
      ),
    },
    { weight: 2, arbitrary: garbage },
  );
}

/** Members of an enum, in other cases, with spaces, and garbage. */
export function enumOf(values: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...values) },
    { weight: 1, arbitrary: fc.constantFrom(...values).map((v) => v.toUpperCase()) },
    { weight: 1, arbitrary: fc.constantFrom(...values).map((v) => ` ${v}`) },
    { weight: 2, arbitrary: garbage },
  );
}

/** Comma-separated lists of `values`: subsets, with spaces, doubled commas, an unknown member. */
export function csvOf(values: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.subarray([...values], { minLength: 1 }).map((a) => a.join(",")) },
    { weight: 1, arbitrary: fc.subarray([...values], { minLength: 1 }).map((a) => a.join(" , ")) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...values), garbage).map(([a, b]) => `${a},${b}`) },
    { weight: 1, arbitrary: fc.constantFrom(",", `${values[0]},`, `,${values[0]}`, `${values[0]},,${values[0]}`) },
    { weight: 2, arbitrary: garbage },
  );
}

/** Text around a maximum length: just inside, at, just past, unicode, empty, garbage. */
export function textUpTo(max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom("a", "zor", "tissue repair", "bpc-157", "é😀", "a\u0301") },
    { weight: 2, arbitrary: fc.constantFrom(max - 1, max, max + 1).map((n) => "s".repeat(n)) },
    { weight: 1, arbitrary: fc.constantFrom(max, max + 1).map((n) => "😀".repeat(Math.ceil(n / 2))) },
    { weight: 3, arbitrary: garbage },
  );
}

/** Country codes and destinations (`US`, `us-ca`) and near misses. */
export const codes: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("US", "us", "GB", "de", "US-CA", "us-ny", "GB-ENG", "DE-BY", "FR-75"),
  fc.constantFrom("U", "USA", "U1", "12", "US-", "US-CALI", "US_CA", "US CA", "-US", "ÜS", "ＵＳ", "us-c@"),
  garbage,
);

/** Ratings 0..5 and what is not one. */
export const ratings: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    "0",
    "5",
    "4.5",
    "4.50",
    "0.0",
    ".5",
    "5.",
    "5.0",
    "-0",
    "-0.1",
    "5.1",
    "5.01",
    "1e0",
    "0x3",
    "4,5",
    " 4 ",
  ),
  fc.double({ min: -1, max: 6, noNaN: true }).map(String),
  garbage,
);

/** Cursors: empty, long, malformed, and ones that look real. */
export const cursors: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom("", " ", "abc", "eyJvIjoxfQ", "x".repeat(2048), "x".repeat(2049)),
  fc.base64String({ maxLength: 40 }),
  garbage,
);

// ---------------------------------------------------------------------------------------
// argv

export interface FlagSpec {
  /** `--limit`, `-o`, `--all`. */
  name: string;
  /** Values of a flag that takes one; a boolean flag has none. */
  values?: fc.Arbitrary<string>;
}

export interface CommandShape {
  /** Words that name the command; the first form is the canonical one. */
  words: readonly (readonly string[])[];
  /** Positional arguments. */
  args?: fc.Arbitrary<string[]>;
  flags: readonly FlagSpec[];
}

/** Flags no command has, and positionals no command expects. */
const UNKNOWN_FLAGS = [
  "--nosuch",
  "--limits",
  "--colour",
  "-z",
  "-Q",
  "--output-format",
  "--sandbox-port",
  "--all-pages",
  "--fields-list",
  "---",
];

/** One flag occurrence as argv words: `--flag value`, `--flag=value`, or a boolean flag. */
function occurrence(flag: FlagSpec): fc.Arbitrary<string[]> {
  if (!flag.values) {
    return fc.oneof(
      { weight: 6, arbitrary: fc.constant([flag.name]) },
      { weight: 1, arbitrary: garbage.map((v) => [`${flag.name}=${v}`]) },
    ) as fc.Arbitrary<string[]>;
  }
  const joined = flag.name.startsWith("--")
    ? (v: string) => [`${flag.name}=${v}`]
    : (v: string) => [`${flag.name}${v}`];
  return fc.oneof(
    { weight: 3, arbitrary: flag.values.map((v) => [flag.name, v]) },
    { weight: 1, arbitrary: flag.values.map(joined) },
  );
}

/**
 * argv for a command: its words, its positionals, and a shuffled mix of its own flags,
 * global flags (some before the command words), repeated and unknown flags, extra
 * positionals. `--` is avoided so that every flag stays a flag.
 */
export function argvOf(
  shape: CommandShape,
  globals: readonly FlagSpec[],
  options: { maxFlags?: number } = {},
): fc.Arbitrary<string[]> {
  const own = shape.flags.length ? fc.constantFrom(...shape.flags).chain(occurrence) : undefined;
  const global = globals.length ? fc.constantFrom(...globals).chain(occurrence) : undefined;
  const unknown = fc.oneof(
    fc.constantFrom(...UNKNOWN_FLAGS).map((f) => [f]),
    fc.tuple(fc.constantFrom(...UNKNOWN_FLAGS), garbage).map(([f, v]) => [f, v]),
  );
  const extraPositional = garbage.filter((g) => g !== "--").map((g) => [g]);
  const unit = fc.oneof(
    ...(own ? [{ weight: 8, arbitrary: own }] : []),
    ...(global ? [{ weight: 3, arbitrary: global }] : []),
    { weight: 1, arbitrary: unknown },
    { weight: 1, arbitrary: extraPositional },
  );
  return fc
    .record({
      words: fc.constantFrom(...shape.words),
      args: shape.args ?? fc.constant([] as string[]),
      before: global ? fc.array(global, { maxLength: 2 }) : fc.constant([] as string[][]),
      units: fc.array(unit, { maxLength: options.maxFlags ?? 6 }),
    })
    .chain(({ words, args, before, units }) => {
      const all = [...args.map((a) => [a]), ...units];
      return fc
        .shuffledSubarray(all, { minLength: all.length, maxLength: all.length })
        .map((shuffled) => [...before.flat(), ...words, ...shuffled.flat()]);
    });
}

// ---------------------------------------------------------------------------------------
// Global options (docs/cli.md, "Global options"), valid and not

/** A `--retries` value that does not retry (0) or is refused. */
export function noRetries(v: string): boolean {
  const n = Number(v);
  return v.trim() === "" || !Number.isInteger(n) || n < 1 || n > 10;
}

const FORMATS = ["table", "json", "ndjson", "csv", "tsv", "bibtex", "ris", "csl-json"];

export const GLOBALS: readonly FlagSpec[] = [
  { name: "-o", values: enumOf(FORMATS) },
  { name: "--output", values: enumOf(FORMATS) },
  {
    name: "--fields",
    values: csvOf(["id", "name", "title", "evidence", "rating", "publication_year", "price", "vendor.name"]),
  },
  {
    name: "--file",
    values: fc.oneof(
      fc.constantFrom("out/result.txt", "out/ünï cøde 😀.json", "out", "", " ", "nosuch/dir/x", "/", ".", "out/"),
      garbage,
    ),
  },
  { name: "--api-key-file", values: fc.constantFrom("key.txt", "bad-key.txt", "nosuch.txt", "out", "-", "", "/") },
  { name: "--auth-header", values: enumOf(["bearer", "x-api-key"]) },
  {
    name: "--profile",
    values: fc.oneof(
      fc.constantFrom(
        "default",
        "work",
        "__proto__",
        "constructor",
        "toString",
        "hasOwnProperty",
        "",
        " ",
        "a.b",
        "😀",
      ),
      garbage,
    ),
  },
  {
    name: "--timeout",
    values: fc.oneof(
      fc.constantFrom("30", "3600", "3601", "0", "-1", "0.001", "1e-9", "1e400", "abc", "", "NaN", "Infinity"),
      garbage,
    ),
  },
  // Retries above 0 only matter on failures, and would only make a failing run wait.
  {
    name: "--retries",
    values: fc.oneof(fc.constantFrom("0", "11", "-1", "1.5", "x", "", "NaN"), garbage).filter(noRetries),
  },
  {
    name: "--base-url",
    values: fc.constantFrom(
      "",
      "ftp://127.0.0.1/v1",
      "http://127.0.0.1:1/v1",
      "http://u:p@127.0.0.1/v1",
      "http://127.0.0.1/v1?api_key=x",
      "not a url",
      "http://127.0.0.1:1/",
      "http://[::1",
    ),
  },
  // Runs against an in-process sandbox instead: its requests are not counted.
  { name: "--sandbox" },
  { name: "--no-retry" },
  { name: "--no-cache" },
  { name: "--no-color" },
  { name: "-q" },
  { name: "-v" },
  { name: "--verbose" },
  { name: "-h" },
  { name: "-V" },
];

/** The list options (docs/cli.md, "Lists and pagination"), `--limit` bounded by `maxLimit` when not a list. */
export function listFlags(maxPage = 100): FlagSpec[] {
  return [
    { name: "--limit", values: fc.oneof(intAround(1, maxPage), fc.constantFrom("250", "100000", "1e2")) },
    { name: "--all" },
    { name: "--page-size", values: intAround(1, maxPage) },
    { name: "--cursor", values: cursors },
  ];
}
