/**
 * `pep prices` and `pep products` end to end against a loopback server: prices printed
 * byte for byte as the API sent them in every format, with their own currency, in the
 * API's order; the affiliate disclosure shown under the table or on stderr; `--param`.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { envelope, sendJson, startServer, type TestServer } from "../helpers/server.js";

const DISCLOSURE =
  "Some links are affiliate links: we may earn a commission. Commissions never affect which offers are listed or their order.";
const OFFERS = [
  {
    id: "o3",
    vendor: { name: "Zeta Labs" },
    product_name: "BPC-157 capsules",
    form: "capsules",
    price: "1000000.00000001",
    currency: "EUR",
    last_seen_at: "2026-11-20T08:00:00Z",
    product_page_url: "https://zeta.example/p/3",
  },
  {
    id: "o1",
    vendor: { name: "Alpha Labs" },
    product_name: "BPC-157 spray",
    form: "spray",
    price: "0.10",
    currency: "USD",
    last_seen_at: "2026-11-19T07:30:00Z",
    product_page_url: "https://alpha.example/p/1",
  },
  {
    id: "o2",
    vendor: { name: "Mid Labs" },
    product_name: "BPC-157 vial",
    form: "vial",
    price: "1249.00",
    currency: "GBP",
    last_seen_at: "2026-11-18T00:00:00Z",
    product_page_url: "https://mid.example/p/2",
  },
  {
    id: "o4",
    vendor: { name: "Yen Labs" },
    product_name: "BPC-157 vial",
    form: "vial",
    price: "12000",
    currency: "JPY",
    last_seen_at: "2026-11-17T00:00:00Z",
    product_page_url: "https://yen.example/p/4",
  },
];
const PRICES = OFFERS.map((o) => o.price);

let srv: TestServer;
let tmp: ReturnType<typeof scratch>;
beforeAll(async () => {
  srv = await startServer({
    "/v1/prices": (_req, res) =>
      sendJson(
        res,
        200,
        envelope(OFFERS, {
          pagination: { next_cursor: null, has_more: false },
          meta: { affiliate_disclosure: DISCLOSURE },
        }),
      ),
    "/v1/products": (_req, res) =>
      sendJson(
        res,
        200,
        envelope(
          [
            {
              id: "bpc-157-capsules",
              name: "BPC-157 capsules",
              form: "capsules",
              price_ranges: [
                { currency: "USD", min: "0.10", max: "99.90" },
                { currency: "EUR", min: "1000000.00000001", max: "1000000.00000002" },
              ],
            },
          ],
          { pagination: { next_cursor: null, has_more: false } },
        ),
      ),
  });
});
afterAll(() => srv.close());
beforeEach(() => {
  tmp = scratch("pep-prices-");
  srv.requests.length = 0;
});
afterEach(() => tmp.cleanup());

const pep = (argv: string[], options: { tty?: boolean; env?: Record<string, string> } = {}) =>
  runPep(["--base-url", `${srv.url}/v1`, "--no-retry", ...argv], {
    env: { ...tmp.env, PEP_API_KEY: "sk_prices_key_1111", ...options.env },
    tty: options.tty,
    columns: 200,
  });

describe("pep prices: money as received", () => {
  it("json: the decimal strings untouched, in the API's order; the disclosure on stderr", async () => {
    const r = await pep(["prices", "--peptide", "bpc-157", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    const items = JSON.parse(r.out) as typeof OFFERS;
    expect(items).toEqual(OFFERS);
    for (const p of PRICES) expect(r.out).toContain(`"price": "${p}"`);
    expect(r.out).not.toContain(DISCLOSURE);
    expect(r.err).toContain(DISCLOSURE);
  });

  it("ndjson: one offer a line, strings untouched; disclosure on stderr", async () => {
    const r = await pep(["prices", "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    const lines = r.out.trim().split("\n");
    expect(lines.map((l) => (JSON.parse(l) as { price: string }).price)).toEqual(PRICES);
    expect(lines[0]).toContain('"price":"1000000.00000001","currency":"EUR"');
    expect(r.err).toContain(DISCLOSURE);
  });

  it("csv and tsv: price, currency, vendor, last seen and link columns exactly as received", async () => {
    const csv = await pep(["prices", "-o", "csv"]);
    expect(csv.code, csv.err).toBe(0);
    const rows = parse(csv.out, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.price)).toEqual(PRICES);
    expect(rows.map((r) => r.currency)).toEqual(["EUR", "USD", "GBP", "JPY"]);
    expect(rows.map((r) => r["vendor.name"])).toEqual(["Zeta Labs", "Alpha Labs", "Mid Labs", "Yen Labs"]);
    expect(rows[1]!.last_seen_at).toBe("2026-11-19T07:30:00Z");
    expect(rows[1]!.product_page_url).toBe("https://alpha.example/p/1");
    expect(csv.out).not.toContain(DISCLOSURE);
    expect(csv.err).toContain(DISCLOSURE);

    const tsv = await pep(["prices", "-o", "tsv"]);
    const [header, ...body] = tsv.out
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    const col = header!.indexOf("price");
    expect(body.map((cells) => cells[col])).toEqual(PRICES);
    expect(tsv.err).toContain(DISCLOSURE);
  });

  it("table: each price with its own currency, vendor, last seen, link; the disclosure under the table", async () => {
    const r = await pep(["prices", "-o", "table"], { tty: true });
    expect(r.code, r.err).toBe(0);
    for (const o of OFFERS) {
      expect(r.out).toContain(`${o.price} ${o.currency}`);
      expect(r.out).toContain(o.vendor.name);
    }
    expect(r.out).toMatch(/2026-11-19/);
    expect(r.out).toContain("alpha.example/p/1");
    // API order: Zeta before Alpha, although 0.10 is the lowest price
    expect(r.out.indexOf("Zeta Labs")).toBeLessThan(r.out.indexOf("Alpha Labs"));
    const flat = r.out.replace(/\s+/g, " ");
    expect(flat).toContain(DISCLOSURE);
    expect(r.out.lastIndexOf("Yen Labs")).toBeLessThan(flat.length);
    expect(r.err).not.toContain("affiliate");
    // no total or converted figure anywhere
    expect(r.out).not.toMatch(/total|≈|converted/i);
  });

  it("--file holds the same JSON as stdout would, the disclosure still on stderr", async () => {
    const target = path.join(tmp.dir, "offers.json");
    const r = await pep(["prices", "-o", "json", "--file", target]);
    expect(r.code, r.err).toBe(0);
    expect(r.out).toBe("");
    expect(JSON.parse(readFileSync(target, "utf8"))).toEqual(OFFERS);
    expect(readFileSync(target, "utf8")).toContain('"price": "1000000.00000001"');
    expect(r.err).toContain(DISCLOSURE);
  });
});

describe("pep prices and products: parameters", () => {
  it("sends the flags, codes upper-cased, and --param pairs as given", async () => {
    const r = await pep([
      "prices",
      "--peptide",
      "bpc-157",
      "--form",
      "capsules",
      "--currency",
      "usd",
      "--ships-to",
      "us-ca",
      "--param",
      "in_stock=true",
      "--param",
      "vendor=alpha labs",
      "-o",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    expect(Object.fromEntries(srv.requests[0]!.query)).toEqual({
      peptide: "bpc-157",
      form: "capsules",
      currency: "USD",
      ships_to: "US-CA",
      in_stock: "true",
      vendor: "alpha labs",
      limit: "20",
    });
  });

  it.each([
    [["prices", "--param", "peptide=x"], /--param peptide=… is covered by --peptide/],
    [["prices", "--param", "ships_to=US"], /use --ships-to/],
    [["prices", "--param", "limit=5"], /use --limit/],
    [["prices", "--param", "nothing"], /--param must be key=value/],
    [["prices", "--param", "=x"], /--param must be key=value/],
    [["prices", "--param", "api_key=sk_1"], /API key in the URL/],
    [["prices", "--currency", "dollars"], /--currency must be a three-letter currency code/],
    [["prices", "--ships-to", "US-CALI"], /--ships-to must be/],
    [["products", "--param", "currency=USD"], /use --currency/],
    [["products", "--ships-to", "US"], /unknown option '--ships-to'/],
  ])("%j exits 2 before any request", async (argv, message) => {
    const r = await pep(argv);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(message);
    expect(srv.requests).toHaveLength(0);
  });

  it("products: GET /products with its flags and --param, price ranges per currency untouched", async () => {
    const r = await pep([
      "products",
      "--peptide",
      "bpc-157",
      "--currency",
      "eur",
      "--param",
      "ships_to=DE",
      "-o",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    expect(srv.requests[0]!.path).toBe("/v1/products");
    expect(Object.fromEntries(srv.requests[0]!.query)).toEqual({
      peptide: "bpc-157",
      currency: "EUR",
      ships_to: "DE",
      limit: "20",
    });
    expect(r.out).toContain('"min": "1000000.00000001"');
    expect(r.out).toContain('"min": "0.10"');
  });
});
