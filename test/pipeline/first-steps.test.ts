/** What a newcomer meets first: the missing base URL named before the missing key, and flag values in any case. */
import { describe, expect, it } from "vitest";
import { runPep, scratch } from "../helpers/cli.js";
import { useSandboxCli } from "../helpers/sandbox-cli.js";

const cli = useSandboxCli();

describe("first steps", () => {
  it("with no base URL and no key, a keyed command names the base URL first (exit 2), not the key", async () => {
    const tmp = scratch("pep-first-");
    try {
      const r = await runPep(["vendors", "list"], { env: tmp.env });
      expect(r.code).toBe(2);
      expect(r.err).toMatch(/^error: no API base URL is configured$/m);
      expect(r.err).not.toMatch(/API key/);
    } finally {
      tmp.cleanup();
    }
  });

  it("an enum flag's value is matched without regard to case and sent as the API spells it", async () => {
    const lower = await cli.pep(["peptides", "list", "--category", "cognitive", "-o", "json"]);
    const upper = await cli.pep(["peptides", "list", "--category", "Cognitive", "-o", "json"]);
    expect(upper.code, upper.err).toBe(0);
    expect(upper.out).toBe(lower.out);
    const near = await cli.pep(["peptides", "list", "--category", "cognitiv"]);
    expect(near.code).toBe(2);
    expect(near.err).toContain("did you mean 'cognitive'?");
    expect(near.sent).toBe(0);
  });
});
