/**
 * Every tool of `pep mcp --sandbox` declares an output schema, and what it answers from the
 * sandbox validates against it: each tool is called (lists, single records, search, the
 * keyed tools with the sandbox's full-scope key) and its `structuredContent` is checked
 * with the SDK's own JSON Schema validator against the schema tools/list declared. A
 * schema is no wider than it says: it refuses a result missing a field it requires.
 */
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import type { JsonSchemaType } from "@modelcontextprotocol/sdk/validation/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOOLS } from "../../src/mcp/catalog.js";
import { scratch } from "../helpers/cli.js";
import { startMcp, type McpSession } from "../helpers/mcp-client.js";

const tmp = scratch("pep-mcp-out-");
let mcp: McpSession;

beforeAll(async () => {
  mcp = await startMcp(["--sandbox"], tmp.env);
});
afterAll(async () => {
  await mcp?.close();
  tmp.cleanup();
});

type Items = { items: Array<Record<string, unknown>> };

async function structured(name: string, args: Record<string, unknown>): Promise<Record<string, unknown>> {
  const r = await mcp.call(name, args);
  expect(r.isError, `${name}: ${JSON.stringify(r.content)}`).toBeFalsy();
  return r.structuredContent as Record<string, unknown>;
}

describe("pep mcp: every tool declares its output schema and answers within it", () => {
  it("each of the 16 tools' sandbox results validates against its declared schema", async () => {
    const { tools } = await mcp.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(TOOLS.map((t) => t.name));
    const slug = String(((await structured("list_peptides", { limit: 1 })) as Items).items[0]!.id);
    const study = String(((await structured("list_studies", { limit: 1 })) as Items).items[0]!.id);
    const [a, b] = ((await structured("list_vendors", { limit: 2 })) as Items).items.map((v) => String(v.id));
    const args: Record<string, Record<string, unknown>> = {
      search: { q: "sleep", limit: 3 },
      list_peptides: { limit: 3 },
      get_peptide: { slug },
      peptide_studies: { slug },
      peptide_research: { slug },
      regulatory_status: { slug },
      list_categories: {},
      list_research_areas: { limit: 3 },
      list_studies: { limit: 3 },
      get_study: { id: study },
      list_vendors: { limit: 3, ships_to: "US" },
      get_vendor: { id: a! },
      vendor_shipping: { id: a!, ships_to: "US-CA" },
      compare_vendors: { ids: [a!, b!] },
      list_products: { limit: 3 },
      list_prices: { limit: 3 },
    };
    expect(Object.keys(args).sort()).toEqual(tools.map((t) => t.name).sort());
    const validator = new AjvJsonSchemaValidator();
    for (const tool of tools) {
      expect(tool.outputSchema, `${tool.name} declares no output schema`).toBeDefined();
      const check = validator.getValidator(tool.outputSchema as JsonSchemaType);
      const result = await structured(tool.name, args[tool.name]!);
      const verdict = check(result);
      expect(verdict.valid, `${tool.name}: ${verdict.errorMessage}`).toBe(true);
      // The schema holds the result to something: without its main field it is refused.
      const { [tool.outputSchema!.required![0]!]: _dropped, ...without } = result;
      expect(check(without).valid, `${tool.name} accepts a result without ${tool.outputSchema!.required![0]}`).toBe(
        false,
      );
    }
  });
});
