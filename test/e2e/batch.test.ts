/**
 * Many ids in one run (`pep peptides get a b c`, ids from stdin with `-`) against a
 * purpose-built loopback API that answers each id after the delay its name asks for
 * (`p-40` after 40 ms), counts the requests in flight at once, and can hold a tight
 * rate-limit window. Every case runs pep in-process (its own entry, injected IO).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratch, inProcessPep } from "../helpers/cli.js";
import { envelope, errorBody, sendJson, startServer, type TestServer } from "../helpers/server.js";

interface Api extends TestServer {
  maxInFlight(): number;
  reset(): void;
  rejected(): number;
}

/** `limit` requests per `windowMs`, told in RateLimit-* headers; past it a 429. */
async function startApi(rate?: { limit: number; windowMs: number }): Promise<Api> {
  let inFlight = 0;
  let max = 0;
  let rejected = 0;
  let windowStart = 0;
  let used = 0;
  const srv = await startServer(async (req, res) => {
    inFlight++;
    max = Math.max(max, inFlight);
    try {
      const headers: Record<string, string | number> = {};
      if (rate) {
        const now = Date.now();
        if (now - windowStart >= rate.windowMs) {
          windowStart = now;
          used = 0;
        }
        used++;
        const reset = Math.max(1, Math.ceil((windowStart + rate.windowMs - now) / 1000));
        Object.assign(headers, {
          "ratelimit-limit": rate.limit,
          "ratelimit-remaining": Math.max(0, rate.limit - used),
          "ratelimit-reset": reset,
        });
        if (used > rate.limit) {
          rejected++;
          sendJson(res, 429, errorBody("rate_limited", "too many requests"), { ...headers, "retry-after": reset });
          return;
        }
      }
      const m = /^\/v1\/(peptides|studies|vendors)\/([^/]+)(\/shipping)?$/.exec(req.path);
      const id = decodeURIComponent(m?.[2] ?? "");
      const delay = Number(/^p-(\d+)/.exec(id)?.[1] ?? 0);
      await new Promise((r) => setTimeout(r, delay));
      if (!m || id.startsWith("missing")) {
        sendJson(res, 404, errorBody("not_found", `no match for '${id}'`), headers);
        return;
      }
      sendJson(res, 200, envelope({ id, name: `Name of ${id}`, title: `Title of ${id}` }), headers);
    } finally {
      inFlight--;
    }
  });
  return {
    ...srv,
    maxInFlight: () => max,
    rejected: () => rejected,
    reset() {
      max = 0;
      rejected = 0;
      srv.requests.length = 0;
    },
  };
}

const tmp = scratch("pep-batch-");
let api: Api;
const pep = (argv: string[], input?: string, env: Record<string, string> = {}) =>
  inProcessPep(["--base-url", `${api.url}/v1`, "--no-cache", ...argv], {
    env: { ...tmp.env, PEP_API_KEY: "k_test_1234567890", ...env },
    input,
    timeoutMs: 30_000,
  });
const ids = (ndjson: string) =>
  ndjson
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => (JSON.parse(l) as { id: string }).id);

beforeAll(async () => {
  api = await startApi();
});
afterAll(async () => {
  await api.close();
  tmp.cleanup();
});

describe("several ids in one run", () => {
  it("prints every item in the order given, whatever order the answers come in, at most --concurrency at once", async () => {
    api.reset();
    const order = ["p-120", "p-10", "p-80", "p-0", "p-40", "p-60", "p-5"];
    const r = await pep(["peptides", "get", ...order, "-o", "ndjson", "--concurrency", "3"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(r.out)).toEqual(order);
    expect(api.requests).toHaveLength(order.length);
    expect(api.maxInFlight()).toBeLessThanOrEqual(3);
    expect(api.maxInFlight()).toBeGreaterThanOrEqual(2);
  });

  it("--concurrency 1 sends one request at a time", async () => {
    api.reset();
    const r = await pep(["peptides", "get", "p-20", "p-20", "p-20", "-o", "ndjson", "--concurrency", "1"]);
    expect(r.code, r.err).toBe(0);
    expect(api.maxInFlight()).toBe(1);
  });

  it("reads ids from stdin with -: one a line, blank lines and # comments skipped, spaces trimmed", async () => {
    api.reset();
    const r = await pep(["peptides", "get", "-", "-o", "json"], "p-30\n# a comment\n\n   p-0  \r\np-10\n");
    expect(r.code, r.err).toBe(0);
    const items = JSON.parse(r.out) as Array<{ id: string }>;
    expect(items.map((i) => i.id)).toEqual(["p-30", "p-0", "p-10"]);
  });

  it("one id alone prints that item as before (an object, not an array)", async () => {
    const r = await pep(["peptides", "get", "p-0", "-o", "json"]);
    expect(r.code, r.err).toBe(0);
    expect((JSON.parse(r.out) as { id: string }).id).toBe("p-0");
  });

  it("a failed id is told on stderr and the others go on; the exit code is the first failure's", async () => {
    api.reset();
    const r = await pep(["peptides", "get", "p-10", "missing-one", "p-0", "missing-two", "-o", "csv"]);
    expect(r.code).toBe(4);
    expect(
      r.out
        .split("\n")
        .slice(1, 3)
        .map((l) => l.split(",")[0]),
    ).toEqual(["p-10", "p-0"]);
    expect(r.err).toMatch(/^error: missing-one: no match for 'missing-one'/m);
    expect(r.err).toMatch(/^error: missing-two: no match for 'missing-two'/m);
    expect(api.requests.map((q) => q.path).sort()).toEqual(
      ["/v1/peptides/p-10", "/v1/peptides/missing-one", "/v1/peptides/p-0", "/v1/peptides/missing-two"].sort(),
    );
  });

  it("a malformed id is a usage error of the whole run, before any request", async () => {
    api.reset();
    const r = await pep(["peptides", "get", "p-10", "..", "p-0"]);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/^error: <slug> must be an id, name or slug, not "\.\."/m);
    expect(r.err).toContain("no id was looked up");
    const study = await pep(["studies", "get", "12345678", "pmid-abc"]);
    expect(study.code).toBe(2);
    expect(study.err).toContain('"pmid-abc" is not a study id');
    expect(api.requests).toHaveLength(0);
  });

  it("under -o json a failed id is one JSON line on stderr naming the id", async () => {
    const r = await pep(["peptides", "get", "p-0", "missing-two", "-o", "json"]);
    expect(r.code).toBe(4);
    expect((JSON.parse(r.out) as Array<{ id: string }>).map((i) => i.id)).toEqual(["p-0"]);
    const line = r.err.split("\n").find((l) => l.startsWith("{"))!;
    const parsed = JSON.parse(line) as { id: string; error: { code: string } };
    expect(parsed.id).toBe("missing-two");
    expect(parsed.error.code).toBe("not_found");
  });

  it("studies get takes every id form in a batch: PMID, DOI, NCT, pmid-", async () => {
    api.reset();
    const r = await pep(["studies", "get", "12345678", "10.1000/x", "NCT01234567", "pmid-5", "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    expect(api.requests.map((q) => q.path).sort()).toEqual(
      [
        "/v1/studies/doi-10.1000--x",
        "/v1/studies/nct-NCT01234567",
        "/v1/studies/pmid-12345678",
        "/v1/studies/pmid-5",
      ].sort(),
    );
    expect(ids(r.out)).toEqual(["pmid-12345678", "doi-10.1000--x", "nct-NCT01234567", "pmid-5"]);
  });

  it("vendors get and shipping batch too, --ships-to sent with each", async () => {
    api.reset();
    const r = await pep(["vendors", "shipping", "v-a", "v-b", "--ships-to", "gb", "-o", "ndjson"]);
    expect(r.code, r.err).toBe(0);
    expect(ids(r.out)).toEqual(["v-a", "v-b"]);
    expect(api.requests.every((q) => q.query.get("ships_to") === "GB")).toBe(true);
  });

  it("a table prints one card after another", async () => {
    const r = await pep(["peptides", "get", "p-20", "p-0", "-o", "table"]);
    expect(r.code, r.err).toBe(0);
    expect(r.out.indexOf("Name of p-20")).toBeGreaterThanOrEqual(0);
    expect(r.out.indexOf("Name of p-20")).toBeLessThan(r.out.indexOf("Name of p-0"));
  });

  it("refuses a bad --concurrency, - twice, and - with the key also on stdin, before any request", async () => {
    api.reset();
    for (const bad of ["0", "17", "x", "2.5"]) {
      const r = await pep(["peptides", "get", "p-0", "p-1", "--concurrency", bad]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`--concurrency must be a whole number from 1 to 16 (got "${bad}")`);
    }
    const twice = await pep(["peptides", "get", "-", "-"], "p-0\n");
    expect(twice.code).toBe(2);
    expect(twice.err).toContain("may be given once");
    const both = await pep(["--api-key-file", "-", "peptides", "get", "-"], "k\n");
    expect(both.code).toBe(2);
    expect(both.err).toContain("both read standard input");
    expect(api.requests).toHaveLength(0);
  });
});

describe("no ids on standard input", () => {
  it("is an empty batch, as xargs -r runs nothing: no output ([] as JSON), exit 0, no request", async () => {
    api.reset();
    for (const [format, out] of [
      ["json", "[]\n"],
      ["ndjson", ""],
      ["csv", ""],
      ["table", ""],
    ] as const) {
      for (const input of ["", "# nothing\n\n", "\n  \n"]) {
        const r = await pep(["peptides", "get", "-", "-o", format], input);
        expect(r.code, r.err).toBe(0);
        expect(r.out).toBe(out);
        expect(r.err).toBe("");
      }
    }
    expect(api.requests).toHaveLength(0);
  });
});

describe("several ids under a rate limit", () => {
  it("stays within the window: no more in flight than the requests left, and no 429", async () => {
    const limited = await startApi({ limit: 4, windowMs: 1000 });
    try {
      const list = Array.from({ length: 10 }, (_, i) => `p-${30 + i}`);
      const r = await inProcessPep(
        [
          "--base-url",
          `${limited.url}/v1`,
          "--no-cache",
          "peptides",
          "get",
          ...list,
          "-o",
          "ndjson",
          "--concurrency",
          "8",
        ],
        { env: { ...tmp.env, PEP_API_KEY: "k_test_1234567890" }, timeoutMs: 30_000 },
      );
      expect(r.code, r.err).toBe(0);
      expect(ids(r.out)).toEqual(list);
      expect(limited.rejected()).toBe(0);
      expect(limited.maxInFlight()).toBeLessThanOrEqual(4);
      expect(limited.requests).toHaveLength(10);
    } finally {
      await limited.close();
    }
  });
});
