/**
 * Keys, vendors, prices, products and `pep api` against the sandbox with its sample keys:
 * the full key works everywhere, the research key is refused on vendors with the scope
 * explained, no key is refused before any request reaches the server.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse } from "csv-parse/sync";
import { afterAll, afterEach, beforeAll, beforeEach, describe as describeAll, expect, it } from "vitest";
import { ROOT, runPep, scratch } from "../helpers/cli.js";

interface Sandbox {
  baseUrl: string;
  keys: Record<"full" | "research" | "vendors", string>;
  requestCount(): number;
  close(): Promise<void>;
}

/** Runs once the sandbox server module exists (it is built alongside these commands). */
const SANDBOX_MODULE = path.join(ROOT, "src", "sandbox", "index.ts");
const describe = describeAll.skipIf(!existsSync(SANDBOX_MODULE));
let sb: Sandbox;
let tmp: ReturnType<typeof scratch>;

beforeAll(async () => {
  if (!existsSync(SANDBOX_MODULE)) return;
  const mod = (await import(/* @vite-ignore */ SANDBOX_MODULE)) as {
    startSandbox(o: Record<string, unknown>): Promise<Sandbox>;
  };
  sb = await mod.startSandbox({ port: 0, host: "127.0.0.1" });
});
afterAll(() => sb?.close());
beforeEach(() => {
  tmp = scratch("pep-sbx-");
});
afterEach(() => tmp.cleanup());

type KeyName = "full" | "research" | "vendors";
const pep = (
  argv: string[],
  key: KeyName | null = "full",
  options: { tty?: boolean; stdin?: string; env?: Record<string, string> } = {},
) =>
  runPep(["--base-url", sb.baseUrl, "--no-retry", ...argv], {
    env: { ...tmp.env, PEP_API_KEY: key ? sb.keys[key] : "", ...options.env },
    tty: options.tty,
    stdin: options.stdin,
    columns: 200,
  });

/** The API fetched directly with a key, to compare with what pep printed. */
async function direct(
  p: string,
  query: Record<string, string> = {},
  key: KeyName = "full",
): Promise<{ status: number; body: any }> {
  const url = new URL(sb.baseUrl + p);
  for (const [k, v] of Object.entries(query)) url.searchParams.set(k, v);
  const res = await fetch(url, { headers: { authorization: `Bearer ${sb.keys[key]}` } });
  return { status: res.status, body: await res.json() };
}

async function directAll(p: string, query: Record<string, string> = {}): Promise<any[]> {
  const items: any[] = [];
  let cursor: string | undefined;
  for (;;) {
    const { body } = await direct(p, { ...query, limit: "100", ...(cursor ? { cursor } : {}) });
    items.push(...body.data);
    if (!body.pagination?.has_more) return items;
    cursor = body.pagination.next_cursor;
  }
}

describe("vendors with the sandbox keys", () => {
  it("full key: the list is the API's, in the API's order", async () => {
    const r = await pep(["vendors", "list", "--all", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual(await directAll("/vendors"));
  });

  it("full and vendors keys: get, shipping and compare answer as the API does", async () => {
    const [a, b, c] = (await direct("/vendors", { limit: "3" })).body.data as { id: string; slug: string }[];
    for (const key of ["full", "vendors"] as const) {
      const get = await pep(["vendors", "get", a!.slug, "--ships-to", "us", "-o", "json"], key);
      expect(get.code, get.err).toBe(0);
      expect(JSON.parse(get.out)).toEqual((await direct(`/vendors/${a!.slug}`, { ships_to: "US" })).body.data);
      const ship = await pep(["vendors", "shipping", a!.id, "-o", "json"], key);
      expect(ship.code, ship.err).toBe(0);
      expect(JSON.parse(ship.out)).toEqual((await direct(`/vendors/${a!.id}/shipping`)).body.data);
      const cmp = await pep(["vendors", "compare", a!.id, b!.id, c!.id, "--ships-to", "de", "-o", "json"], key);
      expect(cmp.code, cmp.err).toBe(0);
      expect(JSON.parse(cmp.out)).toEqual(
        (await direct("/vendors/compare", { ids: [a!.id, b!.id, c!.id].join(","), ships_to: "DE" })).body.data,
      );
    }
  });

  it("filters reach the sandbox: --country, --min-rating, --sort", async () => {
    const r = await pep([
      "vendors",
      "list",
      "--country",
      "us",
      "--min-rating",
      "4",
      "--sort",
      "rating",
      "--all",
      "-o",
      "json",
    ]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual(await directAll("/vendors", { country: "US", min_rating: "4", sort: "rating" }));
  });

  it("research-only key: exit 3, the missing vendors:read scope explained", async () => {
    const r = await pep(["vendors", "list", "-o", "table"], "research");
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/HTTP 403/);
    expect(r.err).toMatch(
      /knows the key …_key \(from PEP_API_KEY\), but it lacks the vendors:read scope that GET \/vendors needs/,
    );
  });

  it("no key: exit 3 with a hint to log in, and the sandbox receives no request", async () => {
    for (const argv of [
      ["vendors"],
      ["vendors", "get", "x"],
      ["vendors", "shipping", "x"],
      ["vendors", "compare", "a", "b"],
      ["prices"],
      ["products"],
    ]) {
      const before = sb.requestCount();
      const r = await pep(argv, null);
      expect(r.code, argv.join(" ")).toBe(3);
      expect(r.err).toContain("pep auth login");
      expect(sb.requestCount()).toBe(before);
    }
  });

  it("an unknown key: exit 3, explained as not accepted", async () => {
    const r = await runPep(["--base-url", sb.baseUrl, "vendors", "-o", "table"], {
      env: { ...tmp.env, PEP_API_KEY: "sbx_unknown_key" },
    });
    expect(r.code).toBe(3);
    expect(r.err).toMatch(/HTTP 401/);
    expect(r.err).toMatch(/did not accept the key …_key/);
  });

  it("bad values exit 2 and the sandbox receives no request", async () => {
    const cases = [
      ["--min-rating", "-0.1"],
      ["--min-rating", "5.1"],
      ["--country", "U"],
      ["--country", "USA"],
      ["--ships-to", "US-CALI"],
      ["--product-category", "powders"],
      ["--sort", "cheapest"],
    ];
    for (const flags of cases) {
      const before = sb.requestCount();
      const r = await pep(["vendors", "list", ...flags]);
      expect(r.code, flags.join(" ")).toBe(2);
      expect(sb.requestCount()).toBe(before);
    }
    for (const ids of [["a"], ["a", "b", "c", "d", "e"]]) {
      const before = sb.requestCount();
      expect((await pep(["vendors", "compare", ...ids])).code).toBe(2);
      expect(sb.requestCount()).toBe(before);
    }
  });

  it("with --sandbox: the built-in full key works; a research key from --api-key-file is refused", async () => {
    const ok = await runPep(["--sandbox", "vendors", "--limit", "2", "-o", "json"], { env: tmp.env });
    expect(ok.code, ok.err).toBe(0);
    expect(JSON.parse(ok.out)).toHaveLength(2);
    const refused = await runPep(["--sandbox", "--api-key-file", "-", "vendors", "-o", "table"], {
      env: tmp.env,
      stdin: "sbx_research_key\n",
    });
    expect(refused.code).toBe(3);
    expect(refused.err).toContain("vendors:read");
  });
});

describe("prices and products with the sandbox", () => {
  it("finds the pinned prices and prints them byte for byte in every format", async () => {
    const all = await directAll("/prices");
    const pinned = all.filter((o) => o.price === "0.10" || o.price === "1000000.00000001");
    expect(pinned.length).toBeGreaterThanOrEqual(2);
    const json = await pep(["prices", "--all", "-o", "json"]);
    expect(json.code, json.err).toBe(0);
    expect(JSON.parse(json.out)).toEqual(all);
    expect(json.out).toContain('"price": "0.10"');
    expect(json.out).toContain('"price": "1000000.00000001"');
    const disclosure = (await direct("/prices", { limit: "1" })).body.meta.affiliate_disclosure;
    expect(typeof disclosure === "string" || typeof disclosure === "object").toBe(true);
    expect(json.err.toLowerCase()).toContain("affiliate");

    const nd = await pep(["prices", "--all", "-o", "ndjson"]);
    expect(
      nd.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).price),
    ).toEqual(all.map((o) => o.price));

    const csv = await pep(["prices", "--all", "-o", "csv"]);
    const rows = parse(csv.out, { columns: true }) as Record<string, string>[];
    expect(rows.map((r) => r.price)).toEqual(all.map((o) => o.price));
    expect(rows.map((r) => r.currency)).toEqual(all.map((o) => o.currency));

    const tsv = await pep(["prices", "--all", "-o", "tsv"]);
    const [header, ...body] = tsv.out
      .trim()
      .split("\n")
      .map((l) => l.split("\t"));
    expect(body.map((c) => c[header!.indexOf("price")])).toEqual(all.map((o) => o.price));

    const table = await pep(["prices", "--all", "-o", "table"], "full", { tty: true });
    for (const o of pinned) expect(table.out).toContain(`${o.price} ${o.currency}`);
    expect(table.out.toLowerCase()).toContain("affiliate");
    expect(table.err.toLowerCase()).not.toContain("affiliate");
  });

  it("passes --param through and keeps the flags' checks", async () => {
    const r = await pep(["prices", "--currency", "eur", "--all", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    const items = JSON.parse(r.out) as { currency: string }[];
    expect(items.every((o) => o.currency === "EUR")).toBe(true);
    const before = sb.requestCount();
    expect((await pep(["prices", "--param", "currency=EUR"])).code).toBe(2);
    expect(sb.requestCount()).toBe(before);
  });

  it("products list with the full key", async () => {
    const r = await pep(["products", "--limit", "5", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect(JSON.parse(r.out)).toEqual((await direct("/products", { limit: "5" })).body.data);
  });

  it("vendors key on prices: exit 3, pricing:read explained", async () => {
    const r = await pep(["prices", "-o", "table"], "vendors");
    expect(r.code).toBe(3);
    expect(r.err).toContain("pricing:read");
  });
});

describe("auth and api with the sandbox", () => {
  it("login stores the sample key at 0600 in a 0700 folder; a refused one stores nothing", async () => {
    const file = path.join(tmp.env.PEP_CONFIG_DIR!, "config.json");
    const bad = await pep(["auth", "login", "--with-key"], null, { stdin: "sbx_not_a_key" });
    expect(bad.code).toBe(3);
    expect(existsSync(file)).toBe(false);
    const good = await pep(["auth", "login", "--with-key"], null, { stdin: sb.keys.research });
    expect(good.code, good.err).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(tmp.env.PEP_CONFIG_DIR!).mode & 0o777).toBe(0o700);
    expect(readFileSync(file, "utf8")).toContain(sb.keys.research);
    const status = await pep(["auth", "status", "-o", "json"], null);
    expect(status.code, status.err).toBe(0);
    expect(JSON.parse(status.out)).toMatchObject({ api_key: "…_key", api_key_source: "config", key_check: "accepted" });
    expect((await pep(["auth", "logout"], null)).code).toBe(0);
    expect((await pep(["auth", "status"], null)).code).toBe(3);
  });

  it("pep api prints the raw body, and --paginate every item as NDJSON", async () => {
    const raw = await pep(["api", "/peptides", "-F", "limit=3"]);
    expect(raw.code, raw.err).toBe(0);
    const body = JSON.parse(raw.out);
    const { body: expected } = await direct("/peptides", { limit: "3" });
    expect(body.data).toEqual(expected.data);
    expect(body.pagination).toEqual(expected.pagination);
    const pages = await pep(["api", "vendors", "--paginate", "-F", "limit=7"]);
    expect(pages.code, pages.err).toBe(0);
    expect(
      pages.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual(await directAll("/vendors"));
  });
});
