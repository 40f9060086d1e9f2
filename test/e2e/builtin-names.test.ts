/**
 * Parameter names that are also names of JavaScript's Object.prototype (`constructor`,
 * `toString`, `__proto__`, `hasOwnProperty`) are data like any other: `pep api -F`,
 * query keys in a `pep api` path and `--param` of prices and products send them as
 * given, never as `function Object() { [native code] }`, never dropped.
 */
import { describe, expect, it } from "vitest";
import { inProcessPep } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";
import { useLoopback } from "../helpers/suite.js";

const suite = useLoopback<TestServer>(
  () =>
    startServer((req, res) => {
      if (req.path === "/v1/") return sendJson(res, 200, { data: {}, meta: {} });
      // Peptides come in two pages, so that --paginate asks twice.
      if (req.path === "/v1/peptides") {
        const second = req.query.get("cursor") === "page-2";
        return sendJson(
          res,
          200,
          envelope([{ id: second ? "p2" : "p1" }], {
            pagination: { next_cursor: second ? null : "page-2", has_more: !second },
          }),
        );
      }
      sendJson(res, 200, envelope([]));
    }),
  "pep-builtins-",
);

const NAMES = ["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf", "__defineGetter__"];

async function sent(argv: string[]): Promise<[string, string][]> {
  const reqs = await sentAll(argv);
  expect(reqs).toHaveLength(1);
  return reqs[0]!;
}

/** The query of every request the run sent, in order. */
async function sentAll(argv: string[]): Promise<[string, string][][]> {
  const before = suite.api.requests.length;
  const r = await inProcessPep([...argv, "--base-url", `${suite.api.url}/v1`], {
    env: { ...suite.tmp.env, PEP_API_KEY: "sk_test_builtin_names" },
  });
  expect(r.code, r.err).toBe(0);
  expect(r.err).not.toMatch(/native code|unexpected/);
  return suite.api.requests.slice(before).map((r) => [...r.query.entries()]);
}

describe("names that are JavaScript built-ins", () => {
  it("pep api -F: every one sent as given", async () => {
    const q = await sent(["api", "peptides", ...NAMES.flatMap((n, i) => ["-F", `${n}=${i}`])]);
    expect(q.sort()).toEqual(NAMES.map((n, i) => [n, String(i)]).sort());
  });

  it("pep api -F: the same built-in name twice is joined like any other", async () => {
    expect(
      await sent([
        "api",
        "peptides",
        "-F",
        "constructor=a",
        "-F",
        "constructor=b",
        "-F",
        "__proto__=x",
        "-F",
        "__proto__=y",
      ]),
    ).toEqual([
      ["constructor", "a,b"],
      ["__proto__", "x,y"],
    ]);
  });

  it("pep api: query keys written in the path", async () => {
    const q = await sent(["api", "peptides?constructor=1&__proto__=2&toString=x"]);
    expect(q).toEqual([
      ["constructor", "1"],
      ["__proto__", "2"],
      ["toString", "x"],
    ]);
  });

  it("pep api --paginate keeps them on every page", async () => {
    const pages = await sentAll(["api", "peptides", "--paginate", "-F", "__proto__=1", "-F", "constructor=2"]);
    expect(pages).toHaveLength(2);
    expect(pages[1]).toContainEqual(["cursor", "page-2"]);
    for (const q of pages)
      expect(q).toEqual(
        expect.arrayContaining([
          ["__proto__", "1"],
          ["constructor", "2"],
        ]),
      );
  });

  for (const command of ["prices", "products"]) {
    it(`pep ${command} --param: built-in names are parameters, sent as given`, async () => {
      const q = await sent([
        command,
        "--peptide",
        "bpc-157",
        "-o",
        "json",
        ...NAMES.flatMap((n) => ["--param", `${n}=x${n}`]),
      ]);
      for (const n of NAMES) expect(q, n).toContainEqual([n, `x${n}`]);
    });
  }

  it("pep prices --param constructor twice is refused as given twice, not as 'covered by function Object()'", async () => {
    const r = await inProcessPep(
      [
        "prices",
        "--peptide",
        "bpc-157",
        "--param",
        "constructor=1",
        "--param",
        "constructor=2",
        "--base-url",
        `${suite.api.url}/v1`,
      ],
      {
        env: { ...suite.tmp.env, PEP_API_KEY: "sk_test_builtin_names" },
      },
    );
    expect(r.code).toBe(2);
    expect(r.err).toContain("error: --param constructor is given twice");
  });
});
