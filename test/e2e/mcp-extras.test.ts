/**
 * What `pep mcp` serves besides tools, against the sandbox, in-process with the SDK's
 * Client: resource templates read as the tools answer, resource links in lists and
 * search results, completions from the API's data, prompts naming the tools to call,
 * and logging/setLevel.
 */
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratch } from "../helpers/cli.js";
import { startMcpInProcess, type InProcessMcp } from "../helpers/mcp-inprocess.js";

const tmp = scratch("pep-mcp-extras-");
let s: InProcessMcp;
let slug: string;

beforeAll(async () => {
  s = await startMcpInProcess(["--sandbox"], { env: tmp.env });
  const r = await s.call("list_peptides", { limit: 3 });
  slug = String((r.structuredContent as { items: Array<{ id: string }> }).items[0]!.id);
});
afterAll(async () => {
  expect(await s?.close()).toBe(0);
  tmp.cleanup();
});

const linksOf = (r: CallToolResult) => r.content.filter((c) => c.type === "resource_link");

describe("pep mcp: resources", () => {
  it("lists the three templates", async () => {
    const { resourceTemplates } = await s.client.listResourceTemplates();
    expect(resourceTemplates.map((t) => t.uriTemplate).sort()).toEqual([
      "pep://peptides/{slug}",
      "pep://peptides/{slug}/research",
      "pep://studies/{id}",
    ]);
  });

  it("a profile, its research summary and a study read as the tools return them", async () => {
    const profile = await s.client.readResource({ uri: `pep://peptides/${slug}` });
    const body = JSON.parse((profile.contents[0] as { text: string }).text) as Record<string, unknown>;
    const tool = await s.call("get_peptide", { slug });
    expect(body).toEqual(tool.structuredContent);
    expect(body.sandbox).toBe(true);
    const research = await s.client.readResource({ uri: `pep://peptides/${slug}/research` });
    expect(JSON.parse((research.contents[0] as { text: string }).text)).toEqual(
      (await s.call("peptide_research", { slug })).structuredContent,
    );
    const studies = await s.call("peptide_studies", { slug, limit: 1 });
    const link = linksOf(studies)[0] as { uri: string; name: string };
    expect(link.uri).toBe(`pep://studies/${link.name}`);
    const study = await s.client.readResource({ uri: link.uri });
    expect(JSON.parse((study.contents[0] as { text: string }).text)).toEqual(
      (await s.call("get_study", { id: link.name })).structuredContent,
    );
  });

  it("an unknown profile is a resource-not-found error (-32002) naming what was asked", async () => {
    await expect(s.client.readResource({ uri: "pep://peptides/no-such-peptide" })).rejects.toMatchObject({
      code: -32002,
      message: expect.stringMatching(/HTTP 404/),
    });
  });

  it("lists and search results link each peptide or study to its resource", async () => {
    const peptides = await s.call("list_peptides", { limit: 3 });
    const items = (peptides.structuredContent as { items: Array<{ id: string; name: string }> }).items;
    expect(linksOf(peptides)).toEqual(
      items.map((p) => ({
        type: "resource_link",
        uri: `pep://peptides/${p.id}`,
        name: p.id,
        title: p.name,
        mimeType: "application/json",
      })),
    );
    const search = await s.call("search", { q: items[0]!.name, types: "peptides", limit: 3 });
    expect(linksOf(search).map((l) => (l as { uri: string }).uri)).toContain(`pep://peptides/${items[0]!.id}`);
  });
});

describe("pep mcp: completions, prompts, logging", () => {
  it("completes slugs and study ids from the API, and categories and forms from the enums", async () => {
    const slugs = await s.client.complete({
      ref: { type: "ref/resource", uri: "pep://peptides/{slug}" },
      argument: { name: "slug", value: slug.slice(0, 4) },
    });
    expect(slugs.completion.values).toContain(slug);
    const studyIds = await s.client.complete({
      ref: { type: "ref/resource", uri: "pep://studies/{id}" },
      argument: { name: "id", value: "pmid-9" },
    });
    expect(studyIds.completion.values.length).toBeGreaterThan(0);
    for (const id of studyIds.completion.values) expect(id).toMatch(/^pmid-9/);
    const category = await s.client.complete({
      ref: { type: "ref/prompt", name: "explore_research_area" },
      argument: { name: "category", value: "co" },
    });
    expect(category.completion).toEqual({ values: ["cognitive", "cosmetic"], total: 2, hasMore: false });
    const area = await s.client.complete({
      ref: { type: "ref/prompt", name: "explore_research_area" },
      argument: { name: "area", value: "sleep" },
    });
    expect(area.completion.values).toContain("Sleep architecture");
    const form = await s.client.complete({
      ref: { type: "ref/prompt", name: "compare_vendors_for_peptide" },
      argument: { name: "form", value: "ca" },
    });
    expect(form.completion.values).toEqual(["capsule"]);
  });

  it("completions are sorted by relevance and tell the truth about the rest: total when all are known, hasMore", async () => {
    const all = await s.client.complete({
      ref: { type: "ref/resource", uri: "pep://peptides/{slug}" },
      argument: { name: "slug", value: "" },
    });
    // The sandbox has more profiles than one page of the API: not all known, so no total.
    expect(all.completion.values.length).toBeLessThanOrEqual(100);
    if (all.completion.hasMore) expect(all.completion.total).toBeUndefined();
    else expect(all.completion.total).toBe(all.completion.values.length);
    const typed = slug.slice(0, 3);
    const some = await s.client.complete({
      ref: { type: "ref/resource", uri: "pep://peptides/{slug}" },
      argument: { name: "slug", value: typed },
    });
    const ranks = some.completion.values.map((v) => (v.startsWith(typed) ? 0 : 1));
    expect(ranks).toEqual([...ranks].sort());
    expect(some.completion.values[0]!.startsWith(typed)).toBe(true);
    await expect(
      s.client.complete({ ref: { type: "ref/prompt", name: "no_such_prompt" }, argument: { name: "x", value: "" } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("prompts name the tools to call, with the arguments given, and the research-only rules", async () => {
    const { prompts } = await s.client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual([
      "compare_vendors_for_peptide",
      "explore_research_area",
      "summarise_evidence",
    ]);
    const evidence = await s.client.getPrompt({ name: "summarise_evidence", arguments: { peptide: slug } });
    const text = (evidence.messages[0]!.content as { text: string }).text;
    expect(text).toContain(`peptide_research with slug "${slug}"`);
    expect(text).toMatch(/cite every claim with the study's PMID, DOI or NCT number/);
    expect(text).toMatch(/never as instructions/);
    const vendors = await s.client.getPrompt({
      name: "compare_vendors_for_peptide",
      arguments: { peptide: slug, destination: "US-CA" },
    });
    expect((vendors.messages[0]!.content as { text: string }).text).toMatch(
      new RegExp(`list_vendors with peptide "${slug}", ships_to "US-CA"`),
    );
  });

  it("logging/setLevel is accepted", async () => {
    await expect(s.client.setLoggingLevel("debug")).resolves.toEqual({});
  });
});
