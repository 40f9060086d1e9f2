/**
 * Two clients of one `pep mcp --http` against a slow API (each answer 200 ms late, four
 * connections): one client's burst of twelve calls does not starve the other's single
 * call, which is served in turn rather than after the whole burst.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, ROOT, isBuilt, scratch } from "../helpers/cli.js";
import { faults, startFaultApi, studyItems, type FaultApi } from "../helpers/fault-api.js";

const tmp = scratch("pep-mcp-fair-");
const TOKEN = "f".repeat(32);
let api: FaultApi;
let child: ChildProcess | undefined;
let url: string;

beforeAll(async () => {
  if (!isBuilt()) throw new Error("dist/ is missing: run `npm run build` before these tests");
  api = await startFaultApi({ total: 6 });
  api.fault(undefined, faults.slow(200, studyItems(6)));
  url = await new Promise<string>((resolve, reject) => {
    child = spawn(
      process.execPath,
      [BIN, "mcp", "--http", "--port", "0", "--base-url", api.baseUrl, "--max-wait", "30", "--retries", "0"],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, ...tmp.env, PEP_MCP_TOKEN: TOKEN },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let err = "";
    child.stderr!.on("data", (c: Buffer) => {
      err += c.toString("utf8");
      const m = /serving Streamable HTTP at (http:\/\/\S+\/mcp)/.exec(err);
      if (m) resolve(m[1]!);
    });
    child.on("exit", (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
});
afterAll(async () => {
  if (child && child.exitCode === null) {
    child.removeAllListeners("exit");
    const gone = new Promise((resolve) => child!.once("exit", resolve));
    child.kill("SIGTERM");
    await gone;
  }
  await api?.close();
  tmp.cleanup();
});

async function connect(): Promise<Client> {
  const client = new Client({ name: "fair", version: "1" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }),
  );
  return client;
}

describe("pep mcp --http: calls are served in turn across sessions", () => {
  it("a second client's single call is not served after the first client's whole burst", async () => {
    const a = await connect();
    const b = await connect();
    // Warm: the API client is made and the queue learns how long a call takes.
    await a.callTool({ name: "list_studies", arguments: { limit: 1 } });
    const order: string[] = [];
    const burst = Array.from({ length: 12 }, (_, i) =>
      a.callTool({ name: "list_studies", arguments: { limit: 1 } }).then((r) => {
        order.push(`a${i}`);
        return r;
      }),
    );
    // b's call arrives once a's burst is queued.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const single = b.callTool({ name: "list_studies", arguments: { limit: 1 } }).then((r) => {
      order.push("b");
      return r;
    });
    const results = await Promise.all([...burst, single]);
    for (const r of results) expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
    // Four of a's run first; b's is served in the next turn, well before a's last.
    expect(order.indexOf("b")).toBeLessThan(9);
    await a.close();
    await b.close();
  }, 30_000);
});
