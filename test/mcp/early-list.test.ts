/**
 * The tool list the quick start answers before the SDK loads (src/mcp/early.ts,
 * toolsListAnswer, from the table the build renders with src/mcp/tool-list.ts) against
 * the list the server gives (src/mcp/server.ts, createServer), byte for byte, for the
 * configurations the list depends on: tool groups, a key or none, scopes refused before,
 * offline, a configuration problem; and which requests the quick start (src/cli/mcp-early.ts)
 * answers. In-process: the table and the servers are built here.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PassThrough } from "node:stream";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { ResolvedConfig } from "../../src/config/config-types.js";
import type { Context } from "../../src/core/command-context.js";
import { TOOL_GROUPS, TOOLS, type ToolGroup } from "../../src/mcp/catalog.js";
import { isInitialized, takeHanded, toolsListAnswer } from "../../src/mcp/early.js";
import { chooseTools } from "../../src/mcp/listing.js";
import { answerFirst } from "../../src/cli/mcp-early.js";
import { scratch } from "../helpers/cli.js";
import { createServer } from "../../src/mcp/server.js";
import type { Setup } from "../../src/mcp/setup.js";
import { LineTransport } from "../../src/mcp/stdio.js";
import { toolListTable } from "../../src/mcp/tool-list.js";

let table: Record<string, string>;
beforeAll(async () => {
  table = await toolListTable();
});
const tmp = scratch("pep-early-list-");
afterAll(() => tmp.cleanup());

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/list" });
const config = { apiKey: "k_1234567890ab", apiKeySource: "env", profile: "default" } as ResolvedConfig;
const setupOf = (s: Partial<Setup>): Setup => ({
  problems: [],
  hasKey: true,
  offline: false,
  notes: [],
  refusedScopes: [],
  config,
  ...s,
});

/** The server's own answer to tools/list, as its transport writes it. */
async function serverList(setup: Setup, groups: readonly ToolGroup[] | undefined): Promise<string> {
  const ctx = { io: { signal: new AbortController().signal, env: {} }, debug: () => {} } as unknown as Context;
  const server = createServer(ctx, setup, { maxWaitMs: 1000, groups });
  const handlers = (server.server as unknown as { _requestHandlers: Map<string, (r: unknown, e: unknown) => unknown> })
    ._requestHandlers;
  const result = await handlers.get("tools/list")!(JSON.parse(LIST), {});
  return JSON.stringify({ result, jsonrpc: "2.0", id: 7 });
}

describe("the tool list answered before the SDK loads", () => {
  it("holds every tool of the catalog, in its order", () => {
    expect(Object.keys(table)).toEqual(TOOLS.map((t) => t.name));
  });

  it("is the server's own answer, byte for byte, for each configuration the list depends on", async () => {
    const cases: [Partial<Setup>, readonly ToolGroup[] | undefined][] = [
      [{}, undefined],
      [{ hasKey: false }, undefined],
      [{ hasKey: false, config: { ...config, apiKey: undefined } as ResolvedConfig }, ["research", "vendors"]],
      [{ refusedScopes: ["pricing:read"] }, undefined],
      [{ refusedScopes: ["vendors:read", "pricing:read"] }, ["vendors", "prices", "studies"]],
      [{ offline: true, hasKey: false }, undefined],
      [{ problems: ["no API base URL is configured."], hasKey: false }, undefined],
      ...TOOL_GROUPS.map((g): [Partial<Setup>, ToolGroup[]] => [{}, [g]]),
    ];
    for (const [s, groups] of cases) {
      const setup = setupOf(s);
      const early = toolsListAnswer(table, setup, groups, LIST);
      // The library's tools (offline, or --tools library/all) are registered by the program: left to it.
      if (chooseTools(setup, groups).library.length > 0) {
        expect(early, JSON.stringify([s, groups])).toBeUndefined();
        continue;
      }
      expect(early?.text, JSON.stringify([s, groups])).toBe(`${await serverList(setup, groups)}\n`);
    }
  });

  it("answers only a plain tools/list, and only with every tool to list in its table", () => {
    const setup = setupOf({});
    const line = (m: Record<string, unknown>) => JSON.stringify({ jsonrpc: "2.0", ...m });
    expect(toolsListAnswer(table, setup, undefined, line({ id: "a", method: "tools/list", params: {} }))?.id).toBe("a");
    const cursor = line({ id: 3, method: "tools/list", params: { cursor: "x", _meta: { progressToken: 1 } } });
    expect(toolsListAnswer(table, setup, undefined, cursor)?.id).toBe(3);
    for (const other of [
      line({ id: 3, method: "tools/list", params: { cursor: 5 } }),
      line({ id: 3, method: "tools/list", params: [] }),
      line({ id: 3, method: "tools/list", extra: 1 }),
      line({ id: 1.5, method: "tools/list" }),
      line({ method: "tools/list" }),
      line({ id: 3, method: "prompts/list" }),
      "{not json",
    ])
      expect(toolsListAnswer(table, setup, undefined, other), other).toBeUndefined();
    const { search: _, ...without } = table;
    expect(toolsListAnswer(without, setup, undefined, LIST)).toBeUndefined();
    expect(isInitialized(line({ method: "notifications/initialized" }))).toBe(true);
    expect(isInitialized(line({ id: 1, method: "notifications/initialized" }))).toBe(false);
  });

  it("the server's answer is not sent again; one that differs tells the client the list changed", async () => {
    const out = new PassThrough();
    const said: string[] = [];
    const sent = () => String(out.read() ?? "");
    const early = { preface: Buffer.alloc(0), answered: [{ id: 1 }, { id: 2, result: '{"tools":[]}' }] };
    const transport = new LineTransport(new PassThrough(), out, (l) => said.push(l), undefined, early);
    const reply = (id: number, result: Record<string, unknown>) =>
      transport.send({ jsonrpc: "2.0", id, result } as JSONRPCMessage);
    await reply(1, {});
    await reply(2, { tools: [] });
    expect(sent()).toBe("");
    await reply(2, { tools: [] });
    expect(sent()).toBe(`${JSON.stringify({ jsonrpc: "2.0", id: 2, result: { tools: [] } })}\n`);
    const again = new LineTransport(new PassThrough(), out, (l) => said.push(l), undefined, early);
    await again.send({ jsonrpc: "2.0", id: 2, result: { tools: [{ name: "x" }] } } as JSONRPCMessage);
    expect(JSON.parse(sent())).toEqual({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    expect(said).toEqual([expect.stringMatching(/differs from the server's/)]);
  });

  it("the quick start answers tools/list only when it is the next request, notifications/initialized aside", async () => {
    const line = (m: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`;
    const init = line({
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    });
    const env = { ...tmp.env, PEP_BASE_URL: "http://127.0.0.1:9/v1", PEP_API_KEY: "k_1234567890ab" };
    /** What the quick start answered of `input` (the input left open unless `end`), and the ids it handed over. */
    const quick = async (input: string, end = false) => {
      const stdin = new PassThrough();
      const stdout = new PassThrough();
      const out: Buffer[] = [];
      stdout.on("data", (c: Buffer) => out.push(c));
      stdin.write(input);
      if (end) stdin.end();
      const answered = await answerFirst(["mcp"], { env, stdin, stdout, cwd: tmp.dir }, { tools: table, waitMs: 0 });
      const handed = takeHanded();
      const lines = Buffer.concat(out)
        .toString()
        .split("\n")
        .filter((l) => l !== "");
      return { answered, ids: handed?.answered?.map((a) => a.id), lines, preface: String(handed?.preface) };
    };
    const list = line({ id: 2, method: "tools/list" });
    const listed = await quick(init + line({ method: "notifications/initialized" }) + list);
    expect(listed.answered).toEqual(["initialize", "tools/list"]);
    expect(listed.ids).toEqual([1, 2]);
    expect(JSON.parse(listed.lines[1]!).result.tools).toHaveLength(TOOLS.length);
    // Every byte read is handed to the server, which answers what was not answered.
    expect(listed.preface).toBe(init + line({ method: "notifications/initialized" }) + list);
    for (const [input, end] of [
      [init + line({ id: 2, method: "prompts/list" }) + list, false],
      [init, false],
      [init, true],
    ] as const) {
      const other = await quick(input, end);
      expect(other.answered, input).toEqual(["initialize"]);
      expect(other.ids, input).toEqual([1]);
      expect(other.lines, input).toHaveLength(1);
      expect(other.preface, input).toBe(input);
    }
  });
});
