/**
 * `--jq <expr>`: jq itself (jq-wasm) on the JSON a command prints, against the sandbox.
 * In-process runs count the requests sent; the last cases run the real executable,
 * whose bundle loads jq-wasm from the package.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox } from "../../src/sandbox/index.js";
import { ROOT, scratch, inProcessPep } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const cli = useSandboxCli();
const KEY = { PEP_API_KEY: "sbx_full_key" };

const lines = (text: string) => text.split("\n").filter((l) => l !== "");

describe("--jq", () => {
  it("filters each page's array, printed as jq prints it", async () => {
    const plain = await cli.pep(["studies", "list", "--limit", "7", "-o", "json"], { env: KEY });
    const ids = (JSON.parse(plain.out) as Array<{ id: string }>).map((s) => s.id);
    const r = await cli.pep(["studies", "list", "--limit", "7", "--jq", ".[].id"], { env: KEY });
    expect(r.code, r.err).toBe(0);
    expect(lines(r.out)).toEqual(ids.map((id) => JSON.stringify(id)));
    const counted = await cli.pep(["studies", "list", "--limit", "7", "--page-size", "3", "--jq", "length"], {
      env: KEY,
    });
    // Page by page, as `gh api --paginate --jq` runs: 3 + 3 + 1, each as its page arrived.
    expect(counted.out).toBe("3\n3\n1\n");
    const onePage = await cli.pep(["studies", "list", "--limit", "7", "--jq", "length"], { env: KEY });
    expect(onePage.out).toBe("7\n");
    const pretty = await cli.pep(["studies", "list", "--limit", "2", "--jq", "[.[] | {id}]"], { env: KEY });
    expect(pretty.out).toBe(
      `${JSON.stringify(
        ids.slice(0, 2).map((id) => ({ id })),
        null,
        2,
      )}\n`,
    );
  });

  it("--slurp: the whole list as one array, jq run once (gh's --slurp)", async () => {
    const paged = await cli.pep(["studies", "list", "--limit", "7", "--page-size", "3", "--jq", "length"], {
      env: KEY,
    });
    expect(paged.out).toBe("3\n3\n1\n");
    const slurped = await cli.pep(
      ["studies", "list", "--limit", "7", "--page-size", "3", "--jq", "length", "--slurp"],
      { env: KEY },
    );
    expect(slurped.code, slurped.err).toBe(0);
    expect(slurped.out).toBe("7\n");
    // With -o ndjson too: one array, not each item.
    const nd = await cli.pep(["studies", "list", "--limit", "5", "-o", "ndjson", "--jq", "length", "--slurp"], {
      env: KEY,
    });
    expect(nd.out).toBe("5\n");
    const alone = await cli.pep(["studies", "list", "--slurp"], { env: KEY });
    expect(alone.code).toBe(2);
    expect(alone.err).toContain("--slurp goes with --jq");
    expect(alone.sent).toBe(0);
  });

  it("--jq-raw prints strings without quotes", async () => {
    const r = await cli.pep(["peptides", "list", "--limit", "3", "--jq", ".[].id", "--jq-raw"], { env: KEY });
    expect(r.code, r.err).toBe(0);
    expect(lines(r.out)).toHaveLength(3);
    for (const l of lines(r.out)) expect(l).toMatch(/^[a-z0-9-]+$/);
  });

  it("with -o ndjson runs on each item, page after page, one compact line per result", async () => {
    const r = await cli.pep(
      ["studies", "list", "--limit", "9", "--page-size", "4", "-o", "ndjson", "--jq", "{id, year: .publication_year}"],
      { env: KEY },
    );
    expect(r.code, r.err).toBe(0);
    expect(r.sent).toBe(3);
    const out = lines(r.out).map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(out).toHaveLength(9);
    for (const o of out) expect(Object.keys(o)).toEqual(["id", "year"]);
    const select = await cli.pep(["studies", "list", "--limit", "9", "-o", "ndjson", "--jq", "select(false)"], {
      env: KEY,
    });
    expect(select.code, select.err).toBe(0);
    expect(select.out).toBe("");
  });

  it("filters a card's object and a batch's array (the ids' items together)", async () => {
    const slug = (
      JSON.parse((await cli.pep(["peptides", "list", "--limit", "2", "-o", "json"], { env: KEY })).out) as Array<{
        id: string;
      }>
    ).map((p) => p.id);
    const one = await cli.pep(["peptides", "get", slug[0]!, "--jq", ".id"], { env: KEY });
    expect(one.out).toBe(`${JSON.stringify(slug[0])}\n`);
    const both = await cli.pep(["peptides", "get", slug[0]!, slug[1]!, "--jq", "map(.id)", "--jq-raw"], { env: KEY });
    expect(JSON.parse(both.out)).toEqual(slug);
  });

  it("an invalid expression is exit 2 with jq's own message, before any request", async () => {
    const r = await cli.pep(["peptides", "list", "--jq", ".["], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toContain("error: --jq: syntax error, unexpected end of file at <top-level>, line 1, column 2");
    expect(r.sent).toBe(0);
    const unknown = await cli.pep(["peptides", "list", "--jq", "nosuchfn(1)"], { env: KEY });
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("nosuchfn/1 is not defined");
    expect(unknown.sent).toBe(0);
  });

  it("an error the expression raises on the data is exit 2 with jq's message", async () => {
    const r = await cli.pep(["peptides", "list", "--limit", "2", "--jq", '.[] | error("no thanks")'], { env: KEY });
    expect(r.code).toBe(2);
    expect(r.err).toContain("error: --jq: no thanks");
  });

  it("refuses formats that are not JSON, and --jq-raw alone, before any request", async () => {
    for (const argv of [
      ["peptides", "list", "--jq", ".", "-o", "csv"],
      ["peptides", "list", "--jq", ".", "-o", "table"],
      ["studies", "list", "--jq", ".", "-o", "bibtex"],
      ["peptides", "list", "--jq", ".", "--file", "out.csv"],
      ["peptides", "list", "--jq-raw"],
      ["peptides", "list", "--jq", " "],
    ]) {
      const r = await cli.pep(argv, { env: KEY });
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.err).toMatch(/--jq/);
      expect(r.sent).toBe(0);
    }
  });
});

describe("--jq in the executable", () => {
  const tmp = scratch("pep-jq-");
  let sb: Awaited<ReturnType<typeof startSandbox>>;
  beforeAll(async () => {
    sb = await startSandbox({ port: 0 });
  });
  afterAll(async () => {
    await sb.close();
    tmp.cleanup();
  });

  it("pipes ids from one command into a batch of another, filtered", async () => {
    const env = { ...tmp.env, ...KEY };
    const ids = await inProcessPep(
      ["--base-url", sb.baseUrl, "peptides", "list", "--limit", "3", "--jq", ".[].id", "--jq-raw"],
      {
        env,
      },
    );
    expect(ids.code, ids.err).toBe(0);
    const r = await inProcessPep(
      ["--base-url", sb.baseUrl, "peptides", "regulatory", "-", "-o", "ndjson", "--jq", ".peptide_id // .id // .slug"],
      {
        env,
        input: ids.out,
      },
    );
    expect(r.code, r.err).toBe(0);
    expect(lines(r.out)).toHaveLength(3);
  });

  it("loads jq only when --jq is given: no bundle file imports it statically", () => {
    const dist = path.join(ROOT, "dist");
    const files = [
      path.join(dist, "main.js"),
      ...readdirSync(path.join(dist, "chunks")).map((f) => path.join(dist, "chunks", f)),
    ];
    const mentions = files.filter((f) =>
      /require\(["']jq-wasm["']\)|from\s*["']jq-wasm["']|import\(["']jq-wasm["']\)/.test(readFileSync(f, "utf8")),
    );
    expect(mentions.length).toBe(1);
    const text = readFileSync(mentions[0]!, "utf8");
    // The bundle is CommonJS: one require(), inside the function a promise runs when jq
    // is first needed (rollup's form of a dynamic import), never at a file's top level.
    expect(text.match(/require\(["']jq-wasm["']\)/g)).toHaveLength(1);
    expect(text).toMatch(/Promise\.resolve\(\)\.then\(function \(\) \{ return [^;\n]*require\(["']jq-wasm["']\)/);
    expect(text).not.toMatch(/^(var|const|let)\s[^\n]*require\(["']jq-wasm["']\)/m);
  });
});

describe("--jq at a terminal", () => {
  it("prints the API's text without its control sequences, raw strings too", async () => {
    const { startHostileApi, spawnPepTty, expectInert } = await import("../helpers/hostile-api.js");
    const api = await startHostileApi();
    const tmp = scratch("pep-jq-tty-");
    try {
      const env = { ...tmp.env, PEP_BASE_URL: api.baseUrl, PEP_API_KEY: "sk_test_hostile_4242" };
      for (const raw of [[], ["--jq-raw"]]) {
        const r = await spawnPepTty(["peptides", "list", "--jq", ".[].name", ...raw], env);
        expect(r.code, r.out).toBe(0);
        // JSON strings keep the payload escaped (inert, text kept); raw ones have it removed.
        const visible = expectInert(r.out, `--jq ${raw.join(" ")} on a terminal`, { leaks: raw.length > 0 });
        expect(visible).toContain("PEPNAME0-END");
      }
    } finally {
      await api.close();
      tmp.cleanup();
    }
  });
});
