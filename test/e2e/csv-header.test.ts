/**
 * A CSV or TSV header depends only on the command and its flags, never on the data
 * (docs/cli.md, "CSV and TSV columns"; the column map of src/api/csv-columns.ts). Property: the same items,
 * shuffled, with fields missing here and there, unknown fields added to some, served in
 * pages of any size by a loopback API, always give the map's header byte for byte, and
 * nothing of an item is lost (what the map does not name is in `other`).
 */
import fc from "fast-check";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { RESOURCES as DESCRIPTORS } from "../../src/api/resources.js";
import { startSandbox } from "../../src/sandbox/index.js";
import { runPep, scratch } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

const RESOURCES = [
  { command: ["peptides", "list"], path: "/v1/peptides", resource: "peptide" },
  { command: ["studies", "list"], path: "/v1/studies", resource: "study" },
  { command: ["vendors", "list"], path: "/v1/vendors", resource: "vendor" },
  { command: ["prices"], path: "/v1/prices", resource: "offer" },
  { command: ["products"], path: "/v1/products", resource: "product" },
  { command: ["categories"], path: "/v1/categories", resource: "category" },
  { command: ["research-areas"], path: "/v1/research-areas", resource: "research-area" },
] as const;

const tmp = scratch("pep-csv-header-");
/** Items of each resource, as the sandbox serves them. */
const source: Record<string, Array<Record<string, unknown>>> = {};
/** What the test server serves now. */
let served: Array<Record<string, unknown>> = [];
let api: TestServer;

beforeAll(async () => {
  const sb = await startSandbox({ port: 0 });
  try {
    for (const r of RESOURCES) {
      const res = await fetch(`${sb.baseUrl}${r.path.slice(3)}?limit=100`, {
        headers: { authorization: "Bearer sbx_full_key" },
      });
      source[r.resource] = ((await res.json()) as { data: Array<Record<string, unknown>> }).data.slice(0, 12);
    }
  } finally {
    await sb.close();
  }
  // Pages of `limit` items; the cursor is the offset.
  api = await startServer((req, res) => {
    const limit = Number(req.query.get("limit") ?? 20);
    const from = Number(req.query.get("cursor") ?? 0);
    const page = served.slice(from, from + limit);
    const more = from + limit < served.length;
    sendJson(
      res,
      200,
      envelope(page, { pagination: { next_cursor: more ? String(from + limit) : null, has_more: more } }),
    );
  });
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

/** The items reshaped: shuffled, some fields dropped, some unknown fields added. */
const reshaped = (items: Array<Record<string, unknown>>) =>
  fc
    .tuple(
      fc.shuffledSubarray(items, { minLength: 1, maxLength: items.length }),
      fc.array(fc.tuple(fc.nat(), fc.nat(), fc.boolean()), { maxLength: 12 }),
    )
    .map(([picked, edits]) =>
      picked.map((item, i) => {
        const copy: Record<string, unknown> = structuredClone(item);
        for (const [, key, add] of edits.filter(([w]) => w % picked.length === i)) {
          const keys = Object.keys(copy).filter((k) => k !== "id");
          if (add) copy[`new_field_${key % 3}`] = { since: "v2", n: key };
          else if (keys.length > 0) delete copy[keys[key % keys.length]!];
        }
        return copy;
      }),
    );

describe("the CSV/TSV header is the command's, whatever the data", () => {
  for (const r of RESOURCES) {
    it(`${r.command.join(" ")}: shuffled, reshaped and paginated items give one header, and lose nothing`, async () => {
      const header = [...DESCRIPTORS[r.resource].csv!, "other"];
      await fc.assert(
        fc.asyncProperty(reshaped(source[r.resource]!), fc.integer({ min: 1, max: 7 }), async (items, pageSize) => {
          served = items;
          for (const format of ["csv", "tsv"] as const) {
            const out = await runPep(
              [...r.command, "--all", "--page-size", String(pageSize), "-o", format, "--base-url", `${api.url}/v1`],
              { env: { ...tmp.env, PEP_API_KEY: "k_header_test_1234" } },
            );
            expect(out.code, out.err).toBe(0);
            const first = out.out.split(format === "csv" ? "\r\n" : "\n")[0]!;
            expect(first).toBe(header.join(format === "csv" ? "," : "\t"));
            if (format === "csv") {
              const rows = parse(out.out, { columns: true }) as Array<Record<string, string>>;
              expect(rows.map((row) => row.id)).toEqual(items.map((i) => String(i.id)));
              // An unknown field is never dropped: it is in `other`.
              items.forEach((item, i) => {
                for (const k of Object.keys(item).filter((k) => k.startsWith("new_field_")))
                  expect(JSON.parse(rows[i]!.other!)[k]).toEqual(item[k]);
              });
            }
          }
        }),
        { numRuns: 8, seed: 20261124 },
      );
    });
  }

  it("--fields gives exactly those columns in that order, nested names expanded by the map", async () => {
    served = source.vendor!;
    const out = await runPep(
      ["vendors", "list", "--fields", "name,rating,id", "-o", "csv", "--base-url", `${api.url}/v1`],
      { env: { ...tmp.env, PEP_API_KEY: "k_header_test_1234" } },
    );
    expect(out.code, out.err).toBe(0);
    expect(out.out.split("\r\n")[0]).toBe("name,rating.average,rating.count,rating.verified_count,id");
  });

  it("an empty list still prints the header", async () => {
    served = [];
    const out = await runPep(["studies", "list", "-o", "csv", "--base-url", `${api.url}/v1`], {
      env: { ...tmp.env, PEP_API_KEY: "k_header_test_1234" },
    });
    expect(out.code, out.err).toBe(0);
    expect(out.out).toBe(`${[...DESCRIPTORS.study.csv, "other"].join(",")}\r\n`);
  });

  it("a search that finds nothing still prints its header", async () => {
    const out = await runPep(["--sandbox", "search", "no such words here", "-o", "csv"], { env: tmp.env });
    expect(out.code, out.err).toBe(0);
    expect(out.out).toBe("kind,id,title,type,url,score,excerpt\r\n");
  });
});
