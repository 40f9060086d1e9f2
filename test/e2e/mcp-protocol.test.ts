/**
 * Protocol details of `pep mcp`, as the SDK's Client meets them: bad params are -32602
 * with a one-line reason on every method (the SDK's schema failures included), an unknown
 * `pep://` resource is -32002 (the protocol's resource-not-found), no text a client or
 * model reads carries a command-line placeholder (`<id>`), list arguments are arrays (a
 * comma-separated string still taken), and values with fixed choices take any case and
 * are sent as the API spells them.
 */
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratch } from "../helpers/cli.js";
import { startMcpInProcess, type InProcessMcp } from "../helpers/mcp-inprocess.js";

const tmp = scratch("pep-mcp-protocol-");
let s: InProcessMcp;

beforeAll(async () => {
  s = await startMcpInProcess(["--sandbox"], { env: tmp.env });
});
afterAll(async () => {
  await s?.close();
  tmp.cleanup();
});

async function rpcError(p: Promise<unknown>): Promise<McpError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(McpError);
  return err as McpError;
}

describe("pep mcp: errors of the protocol", () => {
  it("logging/setLevel with an unknown level: -32602 and a one-line reason, not an internal error", async () => {
    const err = await rpcError(s.client.setLoggingLevel("verbose" as never));
    expect(err.code).toBe(-32602);
    expect(err.message).not.toContain("\n");
    expect(err.message).toMatch(/invalid params of logging\/setLevel: params\.level: /);
  });

  it("bad params of other methods are -32602 on one line too: prompts/get, completion/complete, an unknown tool", async () => {
    for (const p of [
      s.client.getPrompt({ name: "summarise_evidence", arguments: {} }),
      s.client.complete({ ref: { type: "ref/prompt", name: "nope" }, argument: { name: "x", value: "" } }),
      s.client.callTool({ name: "no_such_tool", arguments: {} }),
    ]) {
      const err = await rpcError(p);
      expect(err.code, err.message).toBe(-32602);
      expect(err.message).not.toContain("\n");
      expect(err.message).not.toMatch(/MCP error -32602: MCP error/);
    }
    // Arguments a tool's schema refuses are a tool error the model reads (as the protocol
    // asks since 2025-11-25), naming the argument and what it takes.
    const bad = await s.call("compare_vendors", { ids: "only-one" });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toMatch(/must name 2 to 4 vendor ids or slugs at ids/);
  });

  it("an unknown pep:// resource is -32002 (resource not found): a study id of no form, an unknown URI, a missing profile", async () => {
    for (const uri of ["pep://studies/xyz", "pep://nothing/here", "pep://peptides/zzzz-no-such-peptide"]) {
      const err = await rpcError(s.client.readResource({ uri }));
      expect(err.code, `${uri}: ${err.message}`).toBe(-32002);
    }
  });
});

describe("pep mcp: words a model reads", () => {
  it("no command-line placeholder in the instructions, tools, prompts, resource templates or a tool error", async () => {
    const texts = [
      s.client.getInstructions() ?? "",
      JSON.stringify(await s.client.listTools()),
      JSON.stringify(await s.client.listPrompts()),
      JSON.stringify(await s.client.listResourceTemplates()),
      JSON.stringify((await s.call("get_study", { id: "not a study" })).content),
      JSON.stringify((await s.call("get_peptide", { slug: ".." })).content),
    ];
    for (const t of texts) expect(t).not.toMatch(/<[a-z][a-z _-]*>/i);
    expect(texts[4]).toMatch(/error: id \\"not a study\\" is not a study id/);
  });

  it("every prompt argument is described", async () => {
    const { prompts } = await s.client.listPrompts();
    for (const p of prompts)
      for (const a of p.arguments ?? []) expect(a.description, `${p.name}.${a.name}`).toMatch(/\w{3}/);
  });
});

describe("pep mcp: arguments as a model sends them", () => {
  it("list arguments are arrays in the schema and take arrays or a comma-separated string alike", async () => {
    const { tools } = await s.client.listTools();
    const studies = tools.find((t) => t.name === "list_studies")!.inputSchema.properties as Record<
      string,
      { type: string }
    >;
    expect(studies.evidence_classification!.type).toBe("array");
    expect(studies.fields!.type).toBe("array");
    const search = tools.find((t) => t.name === "search")!.inputSchema.properties as Record<string, { type: string }>;
    expect(search.types!.type).toBe("array");
    const asArray = await s.call("list_studies", {
      evidence_classification: ["human_study", "in_vitro"],
      fields: ["id", "evidence_classification"],
      limit: 5,
    });
    const asText = await s.call("list_studies", {
      evidence_classification: "human_study,in_vitro",
      fields: "id,evidence_classification",
      limit: 5,
    });
    expect(asArray.isError, JSON.stringify(asArray.content)).toBeFalsy();
    expect(asArray.structuredContent).toEqual(asText.structuredContent);
    const items = (asArray.structuredContent as { items: Array<{ evidence_classification: string }> }).items;
    for (const i of items) expect(["human_study", "in_vitro"]).toContain(i.evidence_classification);
    expect((await s.call("search", { q: "sleep", types: ["peptides"] })).isError).toBeFalsy();
  });

  it("choices take any case and are sent as the API spells them; codes are upper-cased, as on the command line", async () => {
    const mixed = await s.call("list_peptides", { category: "Cognitive", sort: "NAME", limit: 3 });
    const exact = await s.call("list_peptides", { category: "cognitive", sort: "name", limit: 3 });
    expect(mixed.isError, JSON.stringify(mixed.content)).toBeFalsy();
    expect(mixed.structuredContent).toEqual(exact.structuredContent);
    const classes = await s.call("list_studies", { evidence_classification: ["Human_Study"], limit: 2 });
    expect(classes.isError).toBeFalsy();
    const vendors = await s.call("list_vendors", { ships_to: "us-ca", country: "us", limit: 2 });
    expect(vendors.isError, JSON.stringify(vendors.content)).toBeFalsy();
    const wrong = await s.call("list_peptides", { category: "Cognitve" });
    expect(wrong.isError).toBe(true);
  });
});
