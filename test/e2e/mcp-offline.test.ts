/**
 * `pep mcp --offline` answers from the local library: the tools the library serves give
 * the same items as `pep --offline` on the command line, the keyed ones are listed with
 * no key, and what the library cannot answer exactly is a tool error in a model's terms
 * (no flag, no command). In-process over stdio with the SDK's Client, against a library
 * filled from the sandbox. Needs node:sqlite: skipped on Node 20 only.
 */
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HAS_SQLITE, fillLibrary } from "../helpers/library-fill.js";
import { inProcessPep, scratchIf } from "../helpers/cli.js";
import { startMcp, textOf, type McpSession } from "../helpers/mcp-client.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";

describe.skipIf(!HAS_SQLITE)("pep mcp --offline: the library as tools", () => {
  const tmp = scratchIf(HAS_SQLITE, "pep-mcp-offline-");
  let sandbox: Sandbox;
  let mcp: McpSession;
  let env: Record<string, string>;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0 });
    const dataDir = path.join(tmp.dir, "data");
    await fillLibrary(sandbox.baseUrl, dataDir);
    await sandbox.close();
    // No base URL, no key, no server: the library alone.
    env = { ...tmp.env, PEP_DATA_DIR: dataDir };
    mcp = await startMcp(["--offline"], env);
  }, 120_000);
  afterAll(async () => {
    await mcp?.close();
    tmp.cleanup();
  });

  it("says it answers from the library; lists every tool, keyed ones included, with no key", async () => {
    expect(mcp.client.getInstructions()).toMatch(/Answers come from the local library/);
    expect(mcp.client.getInstructions()).not.toMatch(/CONFIGURATION PROBLEM/);
    expect((await mcp.client.listTools()).tools.map((t) => t.name)).toContain("list_prices");
  });

  it("lists and records answer as pep --offline does", async () => {
    const r = await mcp.call("list_studies", { limit: 5 });
    expect(r.isError, textOf(r)).toBeFalsy();
    const cli = await inProcessPep(["--offline", "studies", "list", "--limit", "5", "-o", "json"], { env });
    expect(cli.code, cli.err).toBe(0);
    const ids = (JSON.parse(cli.out) as Array<{ id: string }>).map((s) => s.id);
    expect((r.structuredContent as { items: Array<{ id: string }> }).items.map((s) => s.id)).toEqual(ids);
    const one = await mcp.call("get_study", { id: ids[0]! });
    expect(one.isError, textOf(one)).toBeFalsy();
    expect((one.structuredContent as { data: { id: string } }).data.id).toBe(ids[0]);
  });

  it("what the library cannot answer exactly is a tool error in a model's terms", async () => {
    const r = await mcp.call("list_peptides", { search: "a" });
    expect(r.isError).toBe(true);
    const text = textOf(r);
    expect(text).toMatch(/^error: offline: the library cannot answer the search parameter/m);
    expect(text).toMatch(/^hint: this server answers from the local library/m);
    expect(text).not.toMatch(/--offline|`pep /);
  });
});
