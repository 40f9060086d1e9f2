/**
 * `pep mcp` with a configuration it cannot use starts all the same and says what is
 * wrong where a client shows it: the instructions of initialize and every tool error,
 * naming the env keys to set in the client's configuration. In-process, with the SDK's
 * Client over the run's standard input and output.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { startMcpInProcess, type InProcessMcp } from "../helpers/mcp-inprocess.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";

const tmp = scratch("pep-mcp-setup-");
const open: InProcessMcp[] = [];
let sandbox: Sandbox | undefined;

afterEach(async () => {
  for (const s of open.splice(0)) expect(await s.close()).toBe(0);
});
afterAll(async () => {
  await sandbox?.close();
  tmp.cleanup();
});

async function start(argv: string[], env: Record<string, string>): Promise<InProcessMcp> {
  const s = await startMcpInProcess(argv, { env: { ...tmp.env, ...env } });
  open.push(s);
  return s;
}

async function errorText(s: InProcessMcp, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const r = await s.call(name, args);
  expect(r.isError, JSON.stringify(r)).toBe(true);
  return (r.content[0] as { text: string }).text;
}

describe("pep mcp: configuration problems at the door", () => {
  it("an unknown PEP_PROFILE: the server starts, its instructions and every tool error name the fix", async () => {
    const s = await start([], { PEP_PROFILE: "wrok", PEP_BASE_URL: "http://127.0.0.1:9/v1" });
    const instructions = s.client.getInstructions() ?? "";
    expect(instructions).toMatch(
      /CONFIGURATION PROBLEM, every tool fails until it is fixed: PEP_PROFILE names the profile "wrok", which is not in pep's config file \(profiles: default\)\. Fix: set PEP_PROFILE to one of those in the env of this server's entry in the MCP client's configuration/,
    );
    const { tools } = await s.client.listTools();
    expect(tools.length).toBeGreaterThan(0);
    const text = await errorText(s, "list_peptides", { limit: 1 });
    expect(text).toMatch(/^error: pep mcp is not configured, so no tool can answer$/m);
    expect(text).toMatch(/^hint: PEP_PROFILE names the profile "wrok"/m);
    expect(s.stderr()).toMatch(/configuration problem: PEP_PROFILE names the profile "wrok"/);
  });

  it("no base URL: says to add PEP_BASE_URL (or --sandbox) to the server's entry", async () => {
    const s = await start([], {});
    expect(s.client.getInstructions()).toMatch(
      /no API base URL is configured\. Fix: add "PEP_BASE_URL" \(the API's address, such as https:\/\/api\.example\.com\/v1\) in the env of this server's entry in the MCP client's configuration/,
    );
    expect(await errorText(s, "get_peptide", { slug: "x" })).toMatch(/^hint: no API base URL is configured/m);
    await expect(s.client.readResource({ uri: "pep://peptides/x" })).rejects.toThrow(
      /pep mcp is not configured: no API base URL is configured/,
    );
  });

  it("no key: research tools answer; keyed ones are not listed; the instructions say how to add a key", async () => {
    sandbox ??= await startSandbox({ port: 0 });
    const s = await start(["--base-url", sandbox.baseUrl], {});
    expect(s.client.getInstructions()).toMatch(
      /No API key is set, so the vendor, product and price tools are not listed/,
    );
    expect(s.client.getInstructions()).not.toMatch(/CONFIGURATION PROBLEM/);
    const r = await s.call("list_categories", { limit: 1 });
    expect(r.isError).toBeFalsy();
  });

  it("--tools serves only the groups named, and the instructions say so", async () => {
    sandbox ??= await startSandbox({ port: 0 });
    const s = await start(["--base-url", sandbox.baseUrl, "--tools", "studies"], {});
    const { tools } = await s.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(["peptide_studies", "list_studies", "get_study"]);
    expect(s.client.getInstructions()).toMatch(/Only the tool groups studies are served/);
    const prices = await start(["--base-url", sandbox.baseUrl], {
      PEP_MCP_TOOLS: "prices",
      PEP_API_KEY: "sbx_full_key",
    });
    expect((await prices.client.listTools()).tools.map((t) => t.name)).toEqual(["list_products", "list_prices"]);
  });

  it("settings it cannot take as given start the server all the same: unknown groups, repeated --tools, --max-wait outside 1 to 55 s", async () => {
    sandbox ??= await startSandbox({ port: 0 });
    const s = await start(["--base-url", sandbox.baseUrl, "--tools", "bogus,studies", "--tools", "research"], {
      PEP_MCP_MAX_WAIT: "120",
    });
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("list_studies");
    expect(names).toContain("get_peptide");
    expect(names).not.toContain("list_vendors");
    const instructions = s.client.getInstructions() ?? "";
    expect(instructions).toMatch(
      /--tools names "bogus", which is not a tool group \(groups: research, studies, vendors, prices, library, all\), so only research, studies are served\./,
    );
    expect(instructions).toMatch(/PEP_MCP_MAX_WAIT is "120", more than the 55 s .*; a call waits at most 55 s\./);
    expect(instructions).not.toMatch(/CONFIGURATION PROBLEM/);
    expect(s.stderr()).toMatch(/pep mcp: --tools names "bogus"/);
    expect((await s.call("list_studies", { limit: 1 })).isError).toBeFalsy();

    // Only unknown words: every group is served; --max-wait 0 is brought up to 1 s.
    const all = await start(["--base-url", sandbox.baseUrl, "--tools", "everything", "--max-wait", "0"], {});
    expect((await all.client.listTools()).tools.map((t) => t.name)).toContain("list_peptides");
    expect(all.client.getInstructions()).toMatch(/so every group is served\./);
    expect(all.client.getInstructions()).toMatch(/--max-wait is "0", less than 1 s, .*; a call waits at most 1 s\./);
    const soon = await start(["--base-url", sandbox.baseUrl, "--max-wait", "soon"], {});
    expect(soon.client.getInstructions()).toMatch(
      /--max-wait is "soon", not a number of seconds from 1 to 55, so a call waits at most 30 s \(the default\)\./,
    );
  });

  it("offline with a library that cannot open: the server starts, and the instructions and every tool error say why", async () => {
    const s = await start(["--offline"], { PEP_DB: path.join(tmp.dir, "nowhere", "library.db") });
    expect(s.client.getInstructions()).toMatch(
      /CONFIGURATION PROBLEM, every tool fails until it is fixed: the server answers from the local library \(offline\), which cannot be opened: .*Fix: run pep sync while online/,
    );
    // Offline, the keyed tools are listed: the library answers without a key.
    expect((await s.client.listTools()).tools.map((t) => t.name)).toContain("list_prices");
    const text = await errorText(s, "get_peptide", { slug: "x" });
    expect(text).toMatch(/^hint: the server answers from the local library \(offline\), which cannot be opened/m);
    // With --sandbox, the library is the sandbox's own, which no sync has filled here.
    const both = await start(["--sandbox"], { PEP_OFFLINE: "1" });
    expect(both.client.getInstructions()).toMatch(
      /the server answers from the local library \(offline\), which cannot be opened: .*Fix: run pep --sandbox sync to fill the sandbox's library/,
    );
    expect(await errorText(both, "list_categories")).toMatch(/^error: pep mcp is not configured/m);
  });

  it("tools of a scope the stored key was refused before (a 403) are not listed, and the instructions say why", async () => {
    sandbox ??= await startSandbox({ port: 0 });
    const env = { ...tmp.env };
    expect((await runPep(["--profile", "lab", "config", "set", "base_url", sandbox.baseUrl], { env })).code).toBe(0);
    const stored = await runPep(["--profile", "lab", "config", "set", "api_key", "-"], {
      env,
      stdin: `${sandbox.keys.research}\n`,
    });
    expect(stored.code, stored.err).toBe(0);
    // A run of the command line meets the 403 and records it in the profile.
    expect((await runPep(["--profile", "lab", "prices", "--limit", "1"], { env })).code).toBe(3);
    const s = await start([], { PEP_PROFILE: "lab" });
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    expect(names).not.toContain("list_prices");
    expect(names).toContain("list_vendors");
    expect(s.client.getInstructions()).toMatch(
      /The API key …\w{4} \(stored in profile lab\) was refused the pricing:read scope before \(HTTP 403; remembered for a week by the key's digest\), so the tools needing it are not listed\./,
    );
  });

  it("a research-only key in the client's env: a 403 hides that scope's tools at once (tools/list_changed), and the next start lists only usable tools", async () => {
    sandbox ??= await startSandbox({ port: 0 });
    const env = { PEP_BASE_URL: sandbox.baseUrl, PEP_API_KEY: sandbox.keys.research };
    const s = await start([], env);
    let changed = 0;
    s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changed++;
    });
    const before = (await s.client.listTools()).tools.map((t) => t.name);
    expect(before).toContain("list_vendors");
    const refused = await s.client.callTool({ name: "list_vendors", arguments: { limit: 1 } });
    expect(refused.isError).toBe(true);
    await vi.waitFor(() => expect(changed).toBeGreaterThan(0));
    const after = (await s.client.listTools()).tools.map((t) => t.name);
    expect(after).not.toContain("list_vendors");
    expect(after).not.toContain("compare_vendors");
    expect(after).toContain("list_prices"); // another scope, not refused yet
    // Remembered by the key's digest, never the key: the next start lists only usable tools.
    await vi.waitFor(() => expect(existsSync(path.join(tmp.env.PEP_CACHE_DIR!, "mcp-scopes.json"))).toBe(true));
    const state = readFileSync(path.join(tmp.env.PEP_CACHE_DIR!, "mcp-scopes.json"), "utf8");
    expect(state).not.toContain(sandbox.keys.research);
    expect(state).toContain("vendors:read");
    const next = await start([], env);
    const listed = (await next.client.listTools()).tools.map((t) => t.name);
    expect(listed).not.toContain("get_vendor");
    expect(listed).toContain("list_peptides");
    expect(next.client.getInstructions()).toMatch(
      /The API key …\w{4} \(from PEP_API_KEY\) was refused the vendors:read scope before/,
    );
  });
});
