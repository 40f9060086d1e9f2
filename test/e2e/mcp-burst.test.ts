/**
 * A cold server serves a burst as a warm one does: while the first call learns the API's
 * rate limit (the client sends one request alone until an answer says it), the calls
 * beside it wait in the queue, told why, instead of counting as running and being
 * refused as busy; and a long call tells a client that gave a progress token that it is
 * still running. In-process over stdio with the SDK's Client, against a loopback API
 * whose answers take a while (waits of the API, not of the test: nothing is timed here).
 */
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { faults, startFaultApi, studyItems, type FaultApi } from "../helpers/fault-api.js";
import { scratch } from "../helpers/cli.js";
import { startMcpInProcess, type InProcessMcp } from "../helpers/mcp-inprocess.js";

const tmp = scratch("pep-mcp-burst-");
afterAll(() => tmp.cleanup());
const open: Array<{ s: InProcessMcp; api: FaultApi }> = [];
afterEach(async () => {
  for (const { s, api } of open.splice(0)) {
    await s.close();
    await api.close();
  }
});

async function start(delayMs: number, maxWait: string): Promise<InProcessMcp> {
  const api = await startFaultApi({ total: 6 });
  api.fault(undefined, faults.slow(delayMs, studyItems(6)));
  const s = await startMcpInProcess(["--base-url", api.baseUrl, "--max-wait", maxWait, "--retries", "0"], {
    env: tmp.env,
  });
  open.push({ s, api });
  return s;
}

function call(s: InProcessMcp, progress: Progress[]): Promise<CallToolResult> {
  return s.client.callTool({ name: "list_studies", arguments: { limit: 1 } }, undefined, {
    onprogress: (p) => progress.push(p),
  }) as Promise<CallToolResult>;
}

describe("pep mcp: a cold burst, and long calls", () => {
  it("12 calls at once to a cold server: none refused as busy; the held ones hear why they wait", async () => {
    const s = await start(400, "10");
    const progress: Progress[][] = Array.from({ length: 12 }, () => []);
    const results = await Promise.all(progress.map((p) => call(s, p)));
    for (const r of results) expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    const told = progress.flat().map((p) => p.message ?? "");
    expect(
      told.some((m) => /^waiting while the first call learns the API's rate limit: \d+ calls? ahead/.test(m)),
    ).toBe(true);
  });

  it("a call running for seconds sends heartbeats with the time it has run, when the client gave a progress token", async () => {
    // One heartbeat is due at 2 s (mcp/calls.ts), before the API answers.
    const s = await start(2600, "55");
    const progress: Progress[] = [];
    const r = await call(s, progress);
    expect(r.isError).toBeFalsy();
    const beats = progress.filter((p) => /^still running: \d+ s since the call started/.test(p.message ?? ""));
    expect(beats.length).toBeGreaterThan(0);
    // Progress only grows.
    const values = progress.map((p) => p.progress);
    expect(values).toEqual([...values].sort((a, b) => a - b));
  });
});
