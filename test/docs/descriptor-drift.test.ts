/**
 * One fact, one place: a copy of src/ with one descriptor fact changed (the default
 * `limit` of GET /studies, and of GET /search, in src/api/endpoints.ts), and every surface
 * that states it follows: the command's help, its man page and what a run prints. Nothing
 * else is edited, so a surface that kept its own copy of the number fails here.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENDPOINTS } from "../../src/api/endpoints.js";
import { ROOT } from "../helpers/cli.js";
import { rawSession } from "../helpers/mcp-client.js";
import { copySources, type SrcCopy } from "../helpers/src-copy.js";

const CHANGED = 3;
const SEARCH_CHANGED = 2;
let copy: SrcCopy;

beforeAll(() => {
  copy = copySources("pep-drift-");
  expect(ENDPOINTS.studies.defaultLimit).not.toBe(CHANGED);
  copy.replaceOnce(
    "src/api/endpoints.ts",
    '    path: "/studies",\n',
    `    path: "/studies",\n    defaultLimit: ${CHANGED},\n`,
  );
  // And search's, a get whose answer holds at most `limit` of each kind of result.
  copy.replaceOnce(
    "src/api/endpoints.ts",
    "defaultLimit: LIMITS.searchLimitDefault,",
    `defaultLimit: ${SEARCH_CHANGED},`,
  );
  expect(copy.changedFiles()).toEqual(["src/api/endpoints.ts"]);
});

afterAll(() => copy?.cleanup());

describe("a descriptor's default limit, changed in one place", () => {
  it("the copy's descriptor says it", async () => {
    const { ENDPOINTS: copied } = await copy.load<typeof import("../../src/api/endpoints.js")>("src/api/endpoints.ts");
    expect(copied.studies.defaultLimit).toBe(CHANGED);
  });

  it("help says it", async () => {
    const help = await copy.pep(["studies", "list", "--help"]);
    expect(help.code).toBe(0);
    expect(help.out.replace(/\s+/g, " ")).toContain(`(default: ${CHANGED})`);
  });

  it("the man page says it", async () => {
    const { docSources } = await copy.load<typeof import("../../src/commands/registry.js")>("src/commands/registry.ts");
    const { renderManPages } = await copy.load<typeof import("../../src/docs/man-pages.js")>("src/docs/man-pages.ts");
    const page = renderManPages(docSources("0.0.0")).find((p) => p.file === "pep-studies.1")!;
    const lines = page.text.split("\n");
    const at = lines.findIndex((l) => l.startsWith("\\fB\\-\\-limit\\fR"));
    expect(at).toBeGreaterThan(0);
    expect(lines.slice(at, at + 4)).toContain(`Default: \\fB${CHANGED}\\fR.`);
  });

  it("a run does it: as many studies as the default, and the cursor to the rest", async () => {
    const run = await copy.pep(["--sandbox", "studies", "list", "-o", "json"]);
    expect(run.code, run.err).toBe(0);
    expect(JSON.parse(run.out)).toHaveLength(CHANGED);
    expect(run.err).toMatch(/to continue: pep .*--cursor=/);
  });

  it("search's default, changed the same way: its help and its answer follow", async () => {
    const help = await copy.pep(["search", "--help"]);
    expect(help.out.replace(/\s+/g, " ")).toContain(`(default: ${SEARCH_CHANGED})`);
    const run = await copy.pep(["--sandbox", "search", "repair", "-o", "json"]);
    expect(run.code, run.err).toBe(0);
    const answer = JSON.parse(run.out) as { peptides: unknown[]; content: unknown[] };
    expect(Math.max(answer.peptides.length, answer.content.length)).toBe(SEARCH_CHANGED);
  });

  // The MCP side of the same fact. It runs once src/mcp/catalog.ts derives its tools'
  // facts from the descriptors; while the catalog restates them (a `ToolEntry` per
  // endpoint, with its own `defaultLimit`), it is reported skipped, not passed.
  const restated = /Record<EndpointName, ToolEntry \| null>/.test(
    readFileSync(path.join(ROOT, "src/mcp/catalog.ts"), "utf8"),
  );
  it.skipIf(restated)("the MCP tool says it and does it", async () => {
    const rpc = rawSession(
      { id: 2, method: "tools/list" },
      { id: 3, method: "tools/call", params: { name: "list_studies", arguments: {} } },
    );
    const mcp = await copy.pep(["--sandbox", "mcp"], rpc);
    expect(mcp.code, mcp.err).toBe(0);
    const answers = mcp.out
      .split("\n")
      .filter((l) => l !== "")
      .map((l) => JSON.parse(l) as { id?: number; result?: Record<string, unknown> });
    const tools = answers.find((a) => a.id === 2)?.result?.tools as Array<{
      name: string;
      inputSchema: { properties: Record<string, { description?: string }> };
    }>;
    const limit = tools.find((t) => t.name === "list_studies")?.inputSchema.properties.limit;
    expect(limit?.description).toContain(`(default ${CHANGED})`);
    const call = answers.find((a) => a.id === 3)?.result?.structuredContent as { items: unknown[] };
    expect(call.items).toHaveLength(CHANGED);
  });
});
