/**
 * A client that writes its calls and closes its end at once (`printf … | pep mcp`) gets
 * every answer: the server stops only when no call is left in flight.
 */
import { describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";

describe("pep mcp when standard input ends right after the calls", () => {
  it("answers each call before it stops", async () => {
    const tmp = scratch("pep-mcp-drain-");
    try {
      const rpc = [
        {
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
        },
        { jsonrpc: "2.0", method: "notifications/initialized" },
        { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_categories", arguments: { limit: 2 } } },
        { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "search", arguments: { q: "sleep" } } },
      ]
        .map((m) => JSON.stringify(m))
        .join("\n");
      const r = await runPep(["--sandbox", "mcp"], { stdin: `${rpc}\n`, env: tmp.env });
      expect(r.code, r.err).toBe(0);
      const answers = r.out
        .split("\n")
        .filter((l) => l !== "")
        .map((l) => JSON.parse(l) as { id: number; result?: { isError?: boolean } });
      expect(answers.map((a) => a.id)).toEqual([1, 2, 3]);
      for (const a of answers.slice(1)) expect(a.result?.isError).not.toBe(true);
    } finally {
      tmp.cleanup();
    }
  });
});
