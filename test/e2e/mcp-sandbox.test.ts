/**
 * `pep mcp --sandbox` as a client sees it: run in-process over in-memory stdio, driven by the
 * SDK's own Client. Every tool is listed with its schemas, answers against the sandbox
 * with structured content that its declared output schema accepts (the client checks
 * it), carries the notices, and lists page with cursors exactly as the command line does.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLS, toolArgs } from "../../src/mcp/catalog.js";
import { isBuilt, scratch, inProcessPep } from "../helpers/cli.js";
import { startMcp, textOf, type McpSession } from "../helpers/mcp-client.js";

const tmp = scratch("pep-mcp-");
let mcp: McpSession;

beforeAll(async () => {
  if (!isBuilt()) throw new Error("dist/ is missing: run `npm run build` before these tests");
  mcp = await startMcp(["--sandbox"], tmp.env);
});
afterAll(async () => {
  await mcp?.close();
  tmp.cleanup();
});

type Structured = Record<string, unknown> & { items?: Array<Record<string, unknown>>; data?: unknown };

async function ok(name: string, args: Record<string, unknown> = {}): Promise<{ s: Structured; text: string }> {
  const r = await mcp.call(name, args);
  expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  return { s: r.structuredContent as Structured, text: textOf(r) };
}

async function failed(name: string, args: Record<string, unknown>): Promise<string> {
  const r = await mcp.call(name, args);
  expect(r.isError, `${name} should fail: ${JSON.stringify(r)}`).toBe(true);
  return textOf(r);
}

/** Ids of the first `n` items the command line prints for the same list. */
async function cliIds(argv: string[]): Promise<string[]> {
  const r = await inProcessPep(["--sandbox", ...argv, "-o", "json"], { env: tmp.env });
  expect(r.code, r.err).toBe(0);
  return (JSON.parse(r.out) as Array<{ id: string }>).map((x) => x.id);
}

describe("pep mcp --sandbox: the tool list", () => {
  it("lists every tool of the catalog, read-only, with strict argument schemas; each declares its result", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    for (const tool of tools) {
      const entry = TOOLS.find((t) => t.name === tool.name)!;
      expect(Object.keys(tool.inputSchema.properties ?? {}), tool.name).toEqual(toolArgs(entry));
      expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
      expect(tool.annotations).toMatchObject({ readOnlyHint: true });
      expect(tool.outputSchema?.required, tool.name).toEqual(
        entry.list ? ["items", "has_more", "next_cursor", "sandbox"] : ["data", "sandbox"],
      );
      expect(tool.description, tool.name).not.toMatch(/`pep |--[a-z]/);
      for (const [arg, schema] of Object.entries(tool.inputSchema.properties ?? {})) {
        expect((schema as { description?: string }).description, `${tool.name}.${arg}`).toMatch(/\w/);
        expect((schema as { description?: string }).description, `${tool.name}.${arg} speaks of flags`).not.toMatch(
          /--[a-z]/,
        );
      }
    }
  });

  it("the whole list costs at most 4,510 tokens (JSON characters / 4), with no $schema line per schema", async () => {
    const listed = await mcp.client.listTools();
    expect(listed.tools).toHaveLength(TOOLS.length);
    const json = JSON.stringify(listed);
    expect(json).not.toContain("$schema");
    expect(json.length / 4).toBeLessThanOrEqual(4510);
  });

  it("takes the endpoint table's constraints: enums, bounds and required arguments", async () => {
    const { tools } = await mcp.client.listTools();
    const peptides = tools.find((t) => t.name === "list_peptides")!.inputSchema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(peptides.category!.enum).toEqual([
      "fat-loss",
      "cognitive",
      "muscle-recovery",
      "longevity",
      "glp1-metabolic",
      "cosmetic",
      "experimental",
    ]);
    expect(peptides.limit).toMatchObject({ type: "integer", minimum: 1, maximum: 100 });
    const search = tools.find((t) => t.name === "search")!;
    expect(search.inputSchema.required).toEqual(["q"]);
    expect(search.inputSchema.properties!.limit).toMatchObject({ maximum: 25 });
    expect(tools.find((t) => t.name === "get_peptide")!.inputSchema.required).toEqual(["slug"]);
    expect(tools.find((t) => t.name === "list_vendors")!.description).toMatch(/vendors:read/);
    expect(tools.find((t) => t.name === "list_prices")!.description).toMatch(/pricing:read/);
  });
});

describe("pep mcp --sandbox: every tool answers", () => {
  it("research tools: lists and single records, with the research notice and the sandbox marker", async () => {
    const peptides = await ok("list_peptides", { limit: 3 });
    expect(peptides.s.items).toHaveLength(3);
    expect(peptides.s).toMatchObject({
      count: 3,
      has_more: true,
      sandbox: true,
      research_notice: expect.stringMatching(/^Research and education only/),
    });
    expect(peptides.s.sandbox_notice).toMatch(/SYNTHETIC SANDBOX DATA/);
    expect(peptides.text).toMatch(
      new RegExp(
        `^3 peptides\\. More remain: call list_peptides again with the same arguments and cursor ${JSON.stringify(peptides.s.next_cursor).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\.$`,
        "m",
      ),
    );
    expect(peptides.text).toMatch(/SYNTHETIC SANDBOX DATA/);
    const slug = String(peptides.s.items![0]!.id);

    for (const [name, args] of [
      ["get_peptide", { slug }],
      ["peptide_research", { slug }],
      ["regulatory_status", { slug }],
      ["search", { q: "sleep", limit: 3 }],
    ] as const) {
      const { s, text } = await ok(name, args);
      expect(s.data, name).toBeTypeOf("object");
      expect(s.sandbox, name).toBe(true);
      expect(text, name).toMatch(/Research and education only/);
    }
    const studies = await ok("peptide_studies", { slug });
    expect(studies.s.count).toBeLessThanOrEqual(12);
    expect((await ok("list_categories")).s.count).toBeGreaterThan(0);
    expect((await ok("list_research_areas", { limit: 5 })).s.count).toBe(5);
  });

  it("filters are the API's: the same profiles as `pep peptides list` with the same flags", async () => {
    const { s } = await ok("list_peptides", {
      evidence_level: "clinical-trial",
      sort: "-name",
      limit: 5,
      fields: "id,name,evidence",
    });
    expect(s.items!.map((i) => i.id)).toEqual(
      await cliIds(["peptides", "list", "--evidence-level", "clinical-trial", "--sort", "-name", "--limit", "5"]),
    );
    expect(Object.keys(s.items![0]!).sort()).toEqual(["evidence", "id", "name"]);
  });

  it("studies: the list and one study by each id form (API form, bare PMID)", async () => {
    const { s } = await ok("list_studies", { year_from: 2010, sort: "oldest", limit: 4 });
    expect(s.items!.map((i) => i.id)).toEqual(
      await cliIds(["studies", "list", "--year-from", "2010", "--sort", "oldest", "--limit", "4"]),
    );
    const withPmid = (await ok("list_studies", { limit: 50 })).s.items!.find(
      (i) => typeof i.pmid === "string" && i.pmid !== "",
    )!;
    const byId = await ok("get_study", { id: String(withPmid.id) });
    const byPmid = await ok("get_study", { id: String(withPmid.pmid) });
    expect(byPmid.s.data).toEqual(byId.s.data);
    expect(await failed("get_study", { id: "not a study" })).toMatch(
      /^error: id "not a study" is not a study id[\s\S]*accepted: .*pmid-12345678/,
    );
  });

  it("vendor, product and price tools answer with the sandbox's full-scope key; prices carry the affiliate disclosure", async () => {
    const vendors = await ok("list_vendors", { limit: 3, ships_to: "us" });
    expect(vendors.s.count).toBeGreaterThan(0);
    const [a, b] = (await ok("list_vendors", { limit: 2 })).s.items!.map((v) => String(v.slug ?? v.id));
    expect((await ok("get_vendor", { id: a! })).s.data).toBeTypeOf("object");
    expect((await ok("vendor_shipping", { id: a!, ships_to: "US-CA" })).s.data).toBeTypeOf("object");
    expect((await ok("compare_vendors", { ids: [a!, b!] })).s.data).toBeTypeOf("object");
    expect((await ok("list_products", { limit: 2 })).s.count).toBe(2);
    const prices = await ok("list_prices", { limit: 2, currency: "usd" });
    expect(prices.s.affiliate_disclosure).toMatch(/\w/);
    expect(prices.text).toContain(JSON.stringify(prices.s.affiliate_disclosure));
    for (const offer of prices.s.items!) expect(offer.currency).toBe("USD");
  });
});

describe("pep mcp --sandbox: cursors and bounds", () => {
  it("next_cursor continues the list where it stopped: three calls give the command line's first nine", async () => {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let call = 0; call < 3; call++) {
      const { s } = await ok("list_studies", { limit: 3, ...(cursor ? { cursor } : {}) });
      expect(s.count).toBe(3);
      expect(s.has_more).toBe(true);
      ids.push(...s.items!.map((i) => String(i.id)));
      cursor = String(s.next_cursor);
    }
    expect(ids).toEqual(await cliIds(["studies", "list", "--limit", "9"]));
  });

  it("the last page says so: has_more false, next_cursor null", async () => {
    const { s } = await ok("list_categories", { limit: 100 });
    expect(s).toMatchObject({ has_more: false, next_cursor: null });
  });

  it("never more than 100 items a call; bad arguments are tool errors naming the argument and what it accepts", async () => {
    expect(await failed("list_studies", { limit: 101 })).toMatch(/limit/);
    expect(await failed("list_peptides", { category: "nope" })).toMatch(/must be one of: fat-loss, cognitive/);
    expect(await failed("list_peptides", { colour: "red" })).toMatch(/colour/);
    expect(await failed("list_studies", { year_from: 2020, year_to: 2010 })).toMatch(
      /^error: year_from must not be later than year_to \(got "\d+"\)$/m,
    );
    expect(await failed("compare_vendors", { ids: ["only-one"] })).toMatch(
      /must name 2 to 4 vendor ids or slugs at ids/,
    );
    expect(await failed("list_vendors", { ships_to: "United States" })).toMatch(
      /must be a two-letter country code.*ships_to/,
    );
    expect(await failed("get_peptide", { slug: ".." })).toMatch(/^error: .*slug/m);
  });

  it("an unknown peptide is a not-found tool error with the API's code and request id", async () => {
    const text = await failed("get_peptide", { slug: "no-such-peptide" });
    expect(text).toMatch(/^error: the API answered ".*" \(HTTP 404, not_found, request \S+\)$/m);
    expect(text).not.toMatch(/exit code/);
  });

  it("stderr holds the notices only, never the sandbox key", () => {
    const err = mcp.stderr();
    expect(err).toMatch(/sandbox data, synthetic/);
    expect(err).not.toMatch(/sbx_full_key/);
  });
});

describe("pep mcp --sandbox: descriptions and schemas tell the truth", () => {
  it("numbers are declared with their bounds and taken as numbers or strings of digits; ids as strings or numbers", async () => {
    const { tools } = await mcp.client.listTools();
    const vendors = tools.find((t) => t.name === "list_vendors")!.inputSchema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(vendors.min_rating).toMatchObject({ type: "number", minimum: 0, maximum: 5 });
    const studies = tools.find((t) => t.name === "list_studies")!.inputSchema.properties as Record<
      string,
      Record<string, unknown>
    >;
    expect(studies.year_from).toMatchObject({ type: "integer", minimum: 1900, maximum: 2100 });
    expect(await failed("list_vendors", { min_rating: 6 })).toMatch(/min_rating/);
    expect(await failed("list_peptides", { limit: "five" })).toMatch(/must be a whole number from 1 to 100 at limit/);
    expect(await failed("list_studies", { year_from: "2010.5" })).toMatch(/year_from/);
    expect(await failed("list_studies", { year_from: 1899 })).toMatch(/year_from/);
    expect((await ok("list_peptides", { limit: "2" })).s.count).toBe(2);
    const since = await ok("list_studies", { year_from: " 2020", limit: 3 });
    expect(since.s.items!.map((i) => i.id)).toEqual(
      await cliIds(["studies", "list", "--year-from", "2020", "--limit", "3"]),
    );
    const pmid = (await ok("list_studies", { limit: 50 })).s.items!.find((i) => /^\d+$/.test(String(i.pmid ?? "")))!;
    const byNumber = await ok("get_study", { id: Number(pmid.pmid) });
    expect((byNumber.s.data as { id: string }).id).toBe(pmid.id);
    expect((await ok("list_vendors", { min_rating: 4.5, limit: 1 })).s.count).toBeLessThanOrEqual(1);
  });

  it("form is described by the ids offers carry, and one of them finds offers", async () => {
    const { tools } = await mcp.client.listTools();
    const form = (
      tools.find((t) => t.name === "list_prices")!.inputSchema.properties as Record<string, { description: string }>
    ).form!;
    expect(form.description).toMatch(/capsule, topical/);
    expect(form.description).toMatch(/nasal-spray/);
    const offers = await ok("list_prices", { form: "capsule", limit: 3 });
    expect(offers.s.count).toBeGreaterThan(0);
  });

  it("research_area takes part of a name, case-insensitive, and gives the profiles of that area", async () => {
    const { s } = await ok("list_peptides", { research_area: "SLEEP ARCH", limit: 100, fields: "id,research_topics" });
    expect(s.count).toBeGreaterThan(0);
    for (const p of s.items!) expect(p.research_topics).toContain("Sleep architecture");
    expect(await failed("list_peptides", { research_area: "no such area at all" })).toMatch(
      /^error: research_area "no such area at all" matches no research area$[\s\S]*^hint: call list_research_areas/m,
    );
  });

  it("an ambiguous research_area lists the areas it matches", async () => {
    const text = await failed("list_peptides", { research_area: "e" });
    expect(text).toMatch(/^error: research_area "e" matches \d+ research areas: "/m);
    expect(text).toMatch(/^hint: pass one of them as research_area$/m);
  });

  it("a near-miss slug names the closest peptides or vendors from the API's own search, and which tool to call", async () => {
    const first = String((await ok("list_peptides", { limit: 1 })).s.items![0]!.id);
    const nearMiss = first.slice(0, -1);
    const text = await failed("get_peptide", { slug: nearMiss });
    expect(text).toMatch(/^error: the API answered ".*" \(HTTP 404, not_found, request \S+\)$/m);
    expect(text).toMatch(new RegExp(`^hint: closest peptides: ${first} \\(`, "m"));
    expect(text).toMatch(/call get_peptide again with one of these slugs$/m);
    expect(await failed("get_study", { id: "pmid-1" })).toMatch(/^hint: find study ids with list_studies/m);
    const vendor = (await ok("list_vendors", { limit: 1, fields: "id,slug,name" })).s.items![0]!;
    const vendorText = await failed("vendor_shipping", { id: String(vendor.slug).slice(0, -1) });
    expect(vendorText).toMatch(
      new RegExp(
        `^hint: closest vendors: ${String(vendor.slug)} \\(${String(vendor.name)}\\); call vendor_shipping again with one of these$`,
        "m",
      ),
    );
  });

  it("no tool error speaks of flags, commands or exit codes", async () => {
    for (const [name, args] of [
      ["get_peptide", { slug: "zzzzzz-no" }],
      ["list_studies", { year_from: 2020, year_to: 2010 }],
      ["list_peptides", { category: "nope" }],
      ["get_study", { id: "not a study" }],
      ["compare_vendors", { ids: ["only-one"] }],
      ["list_vendors", { ships_to: "United States" }],
    ] as const) {
      const text = await failed(name, args);
      expect(text, name).not.toMatch(/exit code|`pep |(^|\s)--[a-z]|pep (auth|config)/);
    }
  });
});
