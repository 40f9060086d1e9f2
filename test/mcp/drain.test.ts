/**
 * A client that writes its calls and closes its end at once (`printf … | pep mcp`) gets
 * every answer: the server stops only when no call is left in flight.
 */
import { describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { rawSession } from "../helpers/mcp-client.js";

describe("pep mcp when standard input ends right after the calls", () => {
  it("answers each call before it stops", async () => {
    const tmp = scratch("pep-mcp-drain-");
    try {
      const rpc = rawSession(
        { id: 2, method: "tools/call", params: { name: "list_categories", arguments: { limit: 2 } } },
        { id: 3, method: "tools/call", params: { name: "search", arguments: { q: "sleep" } } },
      );
      const r = await runPep(["--sandbox", "mcp"], { stdin: rpc, env: tmp.env });
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
