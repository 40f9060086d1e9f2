/**
 * Rate limits told as the API scopes them: vendor, product and price requests are
 * metered per account, research and study requests are not (anonymous ones are limited
 * per address). The sandbox's `rateLimit` follows those scopes; pep paces each scope
 * apart, so a spent metered window ends list_prices with when to call again while the
 * research tools still answer, and a tool error never says "every tool fails" unless
 * every scope is spent. In-process over stdio with the SDK's Client; the sandbox's
 * windows on a fixed clock, so the wait asked is the whole window, whatever the time.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { scratch } from "../helpers/cli.js";
import { startMcpInProcess, type InProcessMcp } from "../helpers/mcp-inprocess.js";

const tmp = scratch("pep-mcp-scopes-");
let sandbox: Sandbox;
let mcp: InProcessMcp;
const WINDOW_START = 1_800_000_000_000 - (1_800_000_000_000 % 600_000);

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, rateLimit: { requests: 2, seconds: 600 }, now: () => WINDOW_START });
  mcp = await startMcpInProcess(["--retries", "0"], {
    env: { ...tmp.env, PEP_BASE_URL: sandbox.baseUrl, PEP_API_KEY: sandbox.keys.full },
  });
});
afterAll(async () => {
  await mcp?.close();
  await sandbox?.close();
  tmp.cleanup();
});

const text = (r: { content: unknown }) => (r.content as Array<{ text: string }>)[0]!.text;

describe("pep mcp: rate limits scoped as the API scopes them", () => {
  it("a spent metered window stops the price tools with when to call again; research tools still answer", async () => {
    expect((await mcp.call("list_prices", { limit: 1 })).isError).toBeFalsy();
    expect((await mcp.call("list_products", { limit: 1 })).isError).toBeFalsy();
    // The window's two metered requests are spent: the next waits 600 s, past the bound.
    const stopped = await mcp.call("list_vendors", { limit: 1 });
    expect(stopped.isError).toBe(true);
    expect(text(stopped)).toMatch(
      /^hint: rate limited: the API asks to wait 600 s: the API's limit on metered requests \(vendors, products and prices, counted per account against the plan\) is spent, so the vendor, product and price tools fail until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; call again after that; the research and study tools are limited apart and may still work$/m,
    );
    expect(text(stopped)).not.toMatch(/every tool/);
    // Keyed research requests are not metered: many of them, all answered.
    for (let i = 0; i < 4; i++) expect((await mcp.call("list_peptides", { limit: 1 })).isError).toBeFalsy();
    expect((await mcp.call("list_studies", { limit: 1 })).isError).toBeFalsy();
  });
});
