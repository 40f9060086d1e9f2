/**
 * `pep mcp` answers initialize over stdio before the protocol library is loaded
 * (src/mcp/early.ts). That answer must be the one the SDK's server gives: the same
 * protocol versions, capabilities, server info and instructions. The SDK answers itself
 * when initialize is not the first line (a ping before it), so the two are compared here,
 * and the versions with the SDK's list.
 */
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { PROTOCOL_VERSIONS } from "../../src/mcp/early.js";

const tmp = scratch("pep-mcp-startup-");
afterAll(() => tmp.cleanup());

const line = (m: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`;
const init = (version: string) =>
  line({
    id: 1,
    method: "initialize",
    params: { protocolVersion: version, capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });

/** The answer to initialize, and every id answered, in order. */
async function answers(stdin: string, env: Record<string, string> = {}) {
  const r = await runPep(["mcp"], { stdin, env: { ...tmp.env, PEP_BASE_URL: "http://127.0.0.1:9/v1", ...env } });
  expect(r.code, r.err).toBe(0);
  const all = r.out
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { id: number; result?: Record<string, unknown> });
  return { init: all.find((a) => a.id === 1)?.result, ids: all.map((a) => a.id) };
}

describe("pep mcp: the early answer to initialize", () => {
  it("speaks the protocol versions the SDK speaks, newest first", () => {
    expect(PROTOCOL_VERSIONS).toEqual(SUPPORTED_PROTOCOL_VERSIONS);
  });

  it("is the SDK server's own answer, for a version it speaks, one it does not, with and without a key", async () => {
    for (const [version, env] of [
      ["2025-06-18", {}],
      ["2099-01-01", {}],
      ["2025-11-25", { PEP_API_KEY: "k_123456789" }],
    ] as const) {
      const early = await answers(init(version) + line({ id: 2, method: "tools/list" }), env);
      const sdk = await answers(
        line({ id: 0, method: "ping" }) + init(version) + line({ id: 2, method: "tools/list" }),
        env,
      );
      expect(early.init, version).toEqual(sdk.init);
      expect(early.init?.instructions).toMatch(/read-only peptide research API/);
      // Answered once each, in order: the SDK's second answer to initialize is not sent.
      expect(early.ids).toEqual([1, 2]);
      expect(sdk.ids).toEqual([0, 1, 2]);
    }
  });
});
