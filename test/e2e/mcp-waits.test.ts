/**
 * `pep mcp` while the API makes it wait, in-process with the retry layer's fake clock
 * (no real sleeps): each retry and rate-limit wait reaches the client as a progress
 * notification when the call carried a progress token, and as a log message once the
 * client asked for them; a wait that would pass the bound (30 s by default, --max-wait,
 * PEP_MCP_MAX_WAIT) is not slept through: the call answers at once with when to call again.
 */
import {
  LoggingMessageNotificationSchema,
  type CallToolResult,
  type Progress,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { scratch } from "../helpers/cli.js";
import { faults, pageBody, startFaultApi, type FaultApi } from "../helpers/fault-api.js";
import { sendJson } from "../helpers/server.js";
import { startMcpInProcess, type InProcessMcp } from "../helpers/mcp-inprocess.js";
import { FakeClock } from "../http/fake-clock.js";

const tmp = scratch("pep-mcp-waits-");
let api: FaultApi;
const open: InProcessMcp[] = [];

beforeAll(async () => {
  api = await startFaultApi({ total: 6 });
});
afterEach(async () => {
  for (const s of open.splice(0)) expect(await s.close()).toBe(0);
  api.heal();
});
afterAll(async () => {
  await api?.close();
  tmp.cleanup();
});

async function start(argv: string[], clock: FakeClock, env: Record<string, string> = {}): Promise<InProcessMcp> {
  const s = await startMcpInProcess(["--base-url", api.baseUrl, ...argv], { env: { ...tmp.env, ...env }, clock });
  open.push(s);
  return s;
}

/** Calls list_studies with a progress token, collecting the progress notifications. */
async function withProgress(s: InProcessMcp, args: Record<string, unknown>) {
  const progress: Progress[] = [];
  const result = (await s.client.callTool({ name: "list_studies", arguments: args }, undefined, {
    onprogress: (p) => progress.push(p),
  })) as CallToolResult;
  return { result, progress };
}

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe("pep mcp: waits are told and bounded", () => {
  it("a retry after a 429 is a progress notification and, once asked for, a log message; the call then succeeds", async () => {
    const clock = new FakeClock();
    const s = await start(["--retries", "2"], clock);
    const logs: Array<{ level: string; data: unknown }> = [];
    s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    await s.client.setLoggingLevel("info");
    api.fault(undefined, faults.rateLimited("2"), 1);
    const { result, progress } = await withProgress(s, { limit: 2 });
    expect(result.isError, text(result)).toBeFalsy();
    expect((result.structuredContent as { items: unknown[] }).items).toHaveLength(2);
    expect(clock.sleeps).toEqual([2000]);
    expect(api.hits(undefined)).toBe(2);
    expect(progress).toEqual([{ progress: 1, message: "rate limited; retrying in 2.0 s (retry 1 of 2)" }]);
    expect(logs).toEqual([{ level: "warning", logger: "pep", data: "rate limited; retrying in 2.0 s (retry 1 of 2)" }]);
  });

  it("no log messages before the client asks for them, nor below its level", async () => {
    const clock = new FakeClock();
    const s = await start(["--retries", "1"], clock);
    const logs: unknown[] = [];
    s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(n.params);
    });
    api.fault(undefined, faults.rateLimited("1"), 1);
    expect((await s.call("list_studies", { limit: 1 })).isError).toBeFalsy();
    expect(logs).toEqual([]);
    await s.client.setLoggingLevel("error");
    api.fault(undefined, faults.rateLimited("1"), 1);
    expect((await s.call("list_studies", { limit: 1 })).isError).toBeFalsy();
    expect(logs).toEqual([]);
    expect(clock.sleeps).toEqual([1000, 1000]);
  });

  it("a wait past the bound (30 s) is not slept: the call answers at once with when to call again", async () => {
    const clock = new FakeClock();
    const s = await start(["--retries", "3"], clock);
    api.fault(undefined, faults.rateLimited("45"));
    const before = Date.now();
    const { result, progress } = await withProgress(s, { limit: 2 });
    expect(result.isError).toBe(true);
    expect(clock.sleeps).toEqual([]);
    expect(api.hits(undefined)).toBe(1);
    const t = text(result);
    expect(t).toMatch(/^error: rate limited, and the API asks to wait longer than this server waits in one call$/m);
    // A 429 of a research request is the research scope's window: its tools fail until
    // then, the metered ones are limited apart, and the answer says so.
    const at =
      /the API's limit on research and study requests is spent, so the research and study tools fail until (\S+Z); call again after that; the vendor, product and price tools are limited apart and may still work$/m.exec(
        t,
      );
    expect(at, t).not.toBeNull();
    const when = Date.parse(at![1]!);
    expect(when).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 44_000);
    expect(when).toBeLessThanOrEqual(Date.now() + 46_000);
    expect(progress[0]?.message).toMatch(/the API asks to wait 45 s, more than this server waits in one call \(30 s\)/);
    // Standard error says what happens: the call ends now; no "waiting 45s" that does not happen.
    expect(s.stderr()).toMatch(
      /pep mcp: list_studies: rate limited; the API asks to wait 45 s, past this call's bound, so the call ends now and tells the client to call again after \S+Z \(the tools of the research rate limit wait for the same window until then\)/,
    );
    expect(s.stderr()).not.toMatch(/waiting 45/);
  });

  it("the bound counts every wait of the call: a second 20 s wait is not slept", async () => {
    const clock = new FakeClock();
    const s = await start(["--retries", "3"], clock);
    api.fault(undefined, faults.rateLimited("20"));
    const result = await s.call("list_studies", { limit: 2 });
    expect(result.isError).toBe(true);
    expect(clock.sleeps).toEqual([20_000]);
    expect(api.hits(undefined)).toBe(2);
  });

  it("pacing: after RateLimit-Remaining 0, the next call does not sit out a 45 s reset; a short reset is waited, told", async () => {
    const clock = new FakeClock();
    const s = await start([], clock);
    const spent = (reset: string) => (req: Parameters<typeof pageBody>[0], res: Parameters<typeof sendJson>[0]) =>
      sendJson(res, 200, pageBody(req, api.items), {
        "RateLimit-Limit": "60",
        "RateLimit-Remaining": "0",
        "RateLimit-Reset": reset,
      });
    api.fault(undefined, spent("45"), 1);
    expect((await s.call("list_studies", { limit: 2 })).isError).toBeFalsy();
    const { result, progress } = await withProgress(s, { limit: 2 });
    expect(text(result)).toMatch(
      /^error: the API's rate-limit window is spent, and the API asks to wait longer than this server waits in one call$/m,
    );
    expect(clock.sleeps).toEqual([]);
    expect(api.hits(undefined)).toBe(1);
    expect(progress).toHaveLength(1);

    // The window ends; a reset of 5 s is waited out and told.
    clock.nowMs += 45_000;
    api.fault(undefined, spent("5"), 1);
    expect((await s.call("list_studies", { limit: 2 })).isError).toBeFalsy();
    const paced = await withProgress(s, { limit: 2 });
    expect(paced.result.isError).toBeFalsy();
    expect(clock.sleeps).toEqual([5000]);
    expect(paced.progress).toEqual([
      { progress: 1, message: "the API's rate-limit window is spent; waiting 5.0 s before the next request" },
    ]);
  });

  it("--max-wait and PEP_MCP_MAX_WAIT move the bound", async () => {
    const clock = new FakeClock();
    const s = await start(["--retries", "1", "--max-wait", "60"], clock);
    api.fault(undefined, faults.rateLimited("45"), 1);
    expect((await s.call("list_studies", { limit: 2 })).isError).toBeFalsy();
    expect(clock.sleeps).toEqual([45_000]);

    const clock2 = new FakeClock();
    const s2 = await start(["--retries", "1"], clock2, { PEP_MCP_MAX_WAIT: "5" });
    api.fault(undefined, faults.rateLimited("6"), 1);
    expect(text(await s2.call("list_studies", { limit: 2 }))).toMatch(/the research and study tools fail until \S+Z/);
    expect(clock2.sleeps).toEqual([]);
  });

  it("a --max-wait past 55 s is held at 55 s: a wait clients would give up on ends the call with when to call again", async () => {
    const clock = new FakeClock();
    const s = await start(["--retries", "1", "--max-wait", "120"], clock);
    expect(s.client.getInstructions()).toMatch(/--max-wait is "120", more than the 55 s/);
    api.fault(undefined, faults.rateLimited("58"), 1);
    expect(text(await s.call("list_studies", { limit: 2 }))).toMatch(/call again/);
    expect(clock.sleeps).toEqual([]);
  });
});
