/**
 * Every example in help and man pages works against the sandbox, or says that it needs
 * the real API (`# real API`: real names such as bpc-157 are not in the synthetic data).
 * Each one's `pep` command (up to a pipe) is run as written, with `--sandbox`, in a
 * scratch folder where the profiles they name exist; the few that cannot run unattended
 * are listed with the reason.
 */
import { afterAll, describe, expect, it } from "vitest";
import { COMMANDS, GROUPS } from "../../src/commands/registry.js";
import { runPep, scratch } from "../helpers/cli.js";
import { pepWords } from "../helpers/examples.js";

const REAL_API = /#\s*real API\b/;

/** Examples that wait for something no test gives them, by their command's words. */
const NOT_RUN: Record<string, string> = {
  mcp: "serves MCP on stdin until the client closes it (test/e2e/mcp-sandbox.test.ts runs it)",
  sandbox: "serves until Ctrl-C (test/sandbox runs it)",
  "auth login": "prompts for the key on a terminal (test/e2e/profiles.test.ts runs it)",
};

const examples = [
  ...COMMANDS.flatMap((def) => def.examples ?? []),
  ...Object.values(GROUPS).flatMap((g) => g.examples ?? []),
];

const tmp = scratch("pep-examples-");
afterAll(() => tmp.cleanup());

describe("examples against the sandbox", () => {
  it("there are examples of each kind", () => {
    expect(examples.filter((e) => REAL_API.test(e)).length).toBeGreaterThan(3);
    expect(examples.filter((e) => !REAL_API.test(e)).length).toBeGreaterThan(30);
  });

  it.each(examples.filter((e) => !REAL_API.test(e)).map((e) => [e]))("%s", async (example) => {
    const words = pepWords(example);
    if (!words) return; // a shell line without pep (there is none today; the help test checks)
    const line = ` ${words.join(" ")} `;
    if (Object.keys(NOT_RUN).some((k) => line.includes(` ${k} `))) return;
    const env = { ...tmp.env, PEP_API_KEY: "sbx_full_key" };
    // The examples name the profiles "work" and "ci" as ones the reader has made.
    for (const profile of ["work", "ci"])
      expect((await runPep(["--profile", profile, "config", "set", "timeout", "30"], { env })).code).toBe(0);
    const r = await runPep(["--sandbox", ...words], { env, cwd: tmp.dir, stdin: "" });
    expect(r.code, `${example}\n${r.err}`).toBe(0);
  });
});
