/**
 * `pep mcp` against failing and hostile servers, in-process through the SDK's Client: 401, 403 and a missing key name the scope; 429 says when to call again;
 * 503 is a service error; a key echoed by the server never reaches a result; control
 * characters are removed; the key never shows on stderr, even with --verbose.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { keyEnding as fingerprint } from "../../src/core/key-display.js";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { inProcessPep, isBuilt, scratch, spawnPep } from "../helpers/cli.js";
import { faults, startFaultApi, type FaultApi } from "../helpers/fault-api.js";
import { rawSession, startMcp, textOf, type McpSession } from "../helpers/mcp-client.js";
import { sendJson, startServer, type TestServer } from "../helpers/server.js";
import { FakeClock } from "../http/fake-clock.js";

const tmp = scratch("pep-mcp-faults-");
const KEY = "pk_live_mcp_SECRET_4f7c9a21";
let sandbox: Sandbox;
let faultApi: FaultApi;
let hostile: TestServer;
const sessions: McpSession[] = [];

/** A server that echoes the key it was sent, with control characters, in its data and meta. */
async function startEchoApi(): Promise<TestServer> {
  return startServer((req, res) => {
    const sent = String(req.headers.authorization ?? "").replace(/^Bearer /, "");
    sendJson(
      res,
      200,
      {
        data: {
          id: "echo",
          name: `Echo\u001b]52;c;ZXZpbA==\u0007 ${sent}`,
          summary: `key=${encodeURIComponent(sent)}\u202e end`,
          [`x_${sent}`]: 1,
        },
        meta: { affiliate_disclosure: `links may pay us (${sent})` },
      },
      { "X-Request-Id": `req_${sent}` },
    );
  });
}

async function session(argv: string[], env: Record<string, string> = {}): Promise<McpSession> {
  // Retries wait on a clock that does not sleep.
  const s = await startMcp(argv, { ...tmp.env, ...env }, { clock: new FakeClock(Date.now()) });
  sessions.push(s);
  return s;
}

beforeAll(async () => {
  if (!isBuilt()) throw new Error("dist/ is missing: run `npm run build` before these tests");
  sandbox = await startSandbox({ port: 0 });
  faultApi = await startFaultApi({ total: 6 });
  hostile = await startEchoApi();
});
afterAll(async () => {
  for (const s of sessions) await s.close();
  await Promise.all([sandbox?.close(), faultApi?.close(), hostile?.close()]);
  tmp.cleanup();
});

async function toolError(s: McpSession, name: string, args: Record<string, unknown> = {}): Promise<string> {
  const r = await s.call(name, args);
  expect(r.isError, JSON.stringify(r)).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  return textOf(r);
}

describe("pep mcp: keys and scopes", () => {
  it("no key: keyed tools are not listed and the instructions say why and how to add one; research tools answer", async () => {
    const s = await session(["--base-url", sandbox.baseUrl]);
    const { tools } = await s.client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toContain("list_peptides");
    for (const keyed of [
      "list_vendors",
      "get_vendor",
      "vendor_shipping",
      "compare_vendors",
      "list_products",
      "list_prices",
    ])
      expect(names).not.toContain(keyed);
    expect(s.client.getInstructions()).toMatch(
      /No API key is set, so the vendor, product and price tools are not listed\. To use them, add "PEP_API_KEY" with the key as its value in the env of this server's entry in the MCP client's configuration/,
    );
    const ok = await s.call("list_peptides", { limit: 1 });
    expect(ok.isError).toBeFalsy();
  });

  it("401: the key is not accepted; the error says so with its fingerprint, never the key", async () => {
    const s = await session(["--base-url", sandbox.baseUrl], { PEP_API_KEY: KEY });
    const text = await toolError(s, "list_vendors", { limit: 2 });
    expect(text).toMatch(/\(HTTP 401, \w+, request \S+\)/);
    expect(text).toMatch(/did not accept the key …[0-9a-z]{4} \(from PEP_API_KEY\)/);
    expect(text).toMatch(/set "PEP_API_KEY" in the env of this server's entry in the MCP client's configuration/);
    expect(text).not.toMatch(/exit code|`pep |--[a-z]/);
    expect(text).not.toContain(KEY);
  });

  it("403: a key without the scope is told which scope the tool needs", async () => {
    const s = await session(["--base-url", sandbox.baseUrl], { PEP_API_KEY: sandbox.keys.research });
    const text = await toolError(s, "list_prices", { limit: 2 });
    expect(text).toMatch(/\(HTTP 403, \w+, request \S+\)/);
    expect(text).toMatch(/lacks the pricing:read scope that GET \/prices needs/);
    expect(text).not.toMatch(/exit code|`pep |--[a-z]|dashboard and run/);
    expect(await toolError(s, "compare_vendors", { ids: ["a", "b"] })).toMatch(/vendors:read/);
    expect(s.stderr()).not.toContain(sandbox.keys.research);
  });

  it("the key from a file (--api-key-file <path>) is used as by every command; - is refused since stdin is the protocol", async () => {
    const { writeFileSync } = await import("node:fs");
    const file = `${tmp.dir}/key.txt`;
    writeFileSync(file, `${sandbox.keys.full}\n`, { mode: 0o600 });
    const s = await session(["--base-url", sandbox.baseUrl, "--api-key-file", file]);
    const r = await s.call("list_vendors", { limit: 1 });
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    const refused = await inProcessPep(["mcp", "--base-url", sandbox.baseUrl, "--api-key-file", "-"], {
      env: tmp.env,
      input: `${KEY}\n`,
    });
    expect(refused.code).toBe(2);
    expect(refused.out).toBe("");
    expect(refused.err).toMatch(/^error: --api-key-file - cannot be used with pep mcp/m);
  });
});

describe("pep mcp: rate limits and outages", () => {
  it("429 after the retries: says how long the API asked to wait and until when", async () => {
    faultApi.fault(undefined, faults.rateLimited("1"));
    const s = await session(["--base-url", faultApi.baseUrl, "--retries", "1"]);
    const text = await toolError(s, "list_studies", { limit: 2 });
    expect(faultApi.hits(undefined)).toBe(2);
    expect(text).toMatch(
      /^error: the API answered "Too many requests" \(HTTP 429, rate_limited, request req_fault_\d+\)$/m,
    );
    expect(text).toMatch(
      /^hint: rate limited: the API asks to wait 1 s: the API's limit on research and study requests is spent, so the research and study tools fail until \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ; call again after that; the vendor, product and price tools are limited apart and may still work$/m,
    );
    expect(text).not.toMatch(/exit code/);
    // The retry was told on stderr, not on the protocol channel.
    expect(s.stderr()).toMatch(/rate limited; retrying in 1\.0s \(1\/1\)/);
    faultApi.heal();
  });

  it("429 without Retry-After: 60 s, as the API's rules say", async () => {
    faultApi.fault("peptide", faults.rateLimited());
    const s = await session(["--base-url", faultApi.baseUrl, "--retries", "0"]);
    expect(await toolError(s, "get_peptide", { slug: "bpc-157" })).toMatch(
      /rate limited: the API sent no Retry-After, so pep assumes 60 s, as the API documents: the API's limit on research and study requests is spent, so the research and study tools fail until /,
    );
    faultApi.heal();
  });

  it("503: a service error after the retries, saying to call again; the next call succeeds once the API recovers", async () => {
    faultApi.fault(undefined, faults.status(503), 2);
    const s = await session(["--base-url", faultApi.baseUrl, "--retries", "1"]);
    const text = await toolError(s, "list_studies", { limit: 2 });
    expect(text).toMatch(
      /^error: the API answered "Server trouble 503" \(HTTP 503, service_unavailable, request req_fault_\d+\)$/m,
    );
    expect(text).toMatch(
      /^hint: the service did not answer usefully at http:\/\/127\.0\.0\.1:\d+\/v1: call again in a minute/m,
    );
    const again = await s.call("list_studies", { limit: 2 });
    expect(again.isError).toBeFalsy();
    expect((again.structuredContent as { items: unknown[] }).items).toHaveLength(2);
    expect(again.structuredContent).toMatchObject({ sandbox: false, next_cursor: "off-2", has_more: true });
    expect(again.structuredContent).not.toHaveProperty("sandbox_notice");
    faultApi.heal();
  });
});

describe("pep mcp: hostile text", () => {
  it("a key echoed by the server is replaced by its fingerprint everywhere; control characters are removed", async () => {
    const s = await session(["--base-url", `${hostile.url}/v1`, "-v"], { PEP_API_KEY: KEY });
    const r = await s.call("get_peptide", { slug: "echo" });
    expect(r.isError, JSON.stringify(r)).toBeFalsy();
    const whole = JSON.stringify(r);
    expect(whole).not.toContain(KEY);
    expect(whole).not.toContain(encodeURIComponent(KEY));
    expect(whole).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(whole).not.toMatch(/\\u001b|\\u0007/);
    const data = (r.structuredContent as { data: Record<string, string> }).data;
    expect(data.name).toBe(`Echo ${fingerprint(KEY)}`);
    expect(data.summary).toBe(`key=${fingerprint(KEY)} end`);
    expect(data).toHaveProperty(`x_${fingerprint(KEY)}`, 1);
    expect(r.structuredContent).toMatchObject({ affiliate_disclosure: `links may pay us (${fingerprint(KEY)})` });
    // --verbose logs every request on stderr, key redacted.
    expect(s.stderr()).toMatch(/> GET http:\/\/127\.0\.0\.1:\d+\/v1\/peptides\/echo/);
    expect(s.stderr()).not.toContain(KEY);
  });

  it("nothing but the protocol reaches stdout: every line a JSON-RPC message", async () => {
    const input = rawSession({
      id: 2,
      method: "tools/call",
      params: { name: "list_peptides", arguments: { limit: 1 } },
    });
    // Spawned: what reaches the real process's stdout, with nothing of Node's own in it.
    const r = await spawnPep(["mcp", "--sandbox"], { env: tmp.env, input });
    expect(r.code, r.err).toBe(0);
    const lines = r.out.split("\n").filter(Boolean);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: "2.0" });
    expect(r.err).toMatch(/sandbox data, synthetic/);
  });
});
