/**
 * `pep mcp` with more calls than connections, against a slow loopback API (each answer
 * 300 ms late; four connections): `--max-wait` counts the queue. Calls that can be done in
 * time are; the others are answered at once with when to call again, never after sitting
 * out the queue; a queued call with a progress token is told its place while it waits.
 */
import type { CallToolResult, Progress } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scratch } from "../helpers/cli.js";
import { faults, startFaultApi, studyItems, type FaultApi } from "../helpers/fault-api.js";
import { startMcpInProcess, type InProcessMcp } from "../helpers/mcp-inprocess.js";

const tmp = scratch("pep-mcp-queue-");
let api: FaultApi;
let s: InProcessMcp;

beforeAll(async () => {
  api = await startFaultApi({ total: 6 });
  api.fault(undefined, faults.slow(300, studyItems(6)));
  s = await startMcpInProcess(["--base-url", api.baseUrl, "--max-wait", "1", "--retries", "0"], { env: tmp.env });
});
afterAll(async () => {
  await s?.close();
  await api?.close();
  tmp.cleanup();
});

const text = (r: CallToolResult) => (r.content[0] as { text: string }).text;

describe("pep mcp: the queue counts", () => {
  it("16 calls, 4 connections, a 300 ms API and --max-wait 1: what fits is answered, the rest at once with when to call again", async () => {
    // Calls first, one at a time: the client is made (its first call may pass the bound on a
    // loaded machine) and the queue learns how long a call takes.
    for (let i = 0; i < 3; i++) await s.call("list_studies", { limit: 1 });
    const before = api.hits(undefined);
    const progress: Progress[][] = [];
    const calls = Array.from({ length: 16 }, () => {
      const mine: Progress[] = [];
      progress.push(mine);
      return s.client.callTool({ name: "list_studies", arguments: { limit: 1 } }, undefined, {
        onprogress: (p) => mine.push(p),
      }) as Promise<CallToolResult>;
    });
    const results = await Promise.all(calls);
    const done = results.filter((r) => !r.isError);
    const busy = results.filter((r) => r.isError);
    // At most what four connections can do in a second of 300 ms answers; the first ones at least.
    expect(done.length).toBeGreaterThanOrEqual(1);
    expect(done.length).toBeLessThanOrEqual(12);
    expect(busy.length).toBeGreaterThan(0);
    for (const r of busy)
      expect(text(r)).toMatch(
        /^error: (this server is busy: \d+ calls? hold the API's connections( and \d+ more wait before this one)?, so this call could not start and finish|the API did not answer in time)/,
      );
    const told = busy.map(text).find((t) => /this server is busy/.test(t));
    expect(told).toMatch(/^hint: call again in about \d+ s \(after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ\)/m);
    // The API saw only the calls that ran: the others never reached it.
    expect(api.hits(undefined) - before).toBe(
      done.length + busy.filter((r) => /did not answer in time/.test(text(r))).length,
    );
    // A queued call heard where it stood.
    expect(progress.flat().some((p) => /waiting for a free connection to the API/.test(p.message ?? ""))).toBe(true);
  });
});
