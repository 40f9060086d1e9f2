/**
 * `pep mcp` over a pipe answers initialize and then tools/list before the program loads
 * (bin/pep.js runs dist/mcp-early.js, src/cli/mcp-early.ts, with the tool list the build
 * rendered). Through the real executable, its answers must be the ones the program gives
 * (run in-process here, which never takes the quick start), for each configuration the
 * instructions and the list depend on (tool groups, a key or none, scopes refused
 * before); the server's own tool list, computed after, is compared byte for byte with the
 * one sent and would be said on stderr. An argv or setting it does not fully understand
 * must leave the run to the program, errors included.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startSandbox, type Sandbox } from "../../src/sandbox/index.js";
import { spawn } from "node:child_process";
import { BIN, runPep, scratch, spawnPep } from "../helpers/cli.js";
import { noteRefused } from "../../src/config/scopes-state.js";

const tmp = scratch("pep-mcp-quick-");
let sandbox: Sandbox | undefined;
afterAll(async () => {
  await sandbox?.close();
  tmp.cleanup();
});

const line = (m: Record<string, unknown>) => `${JSON.stringify({ jsonrpc: "2.0", ...m })}\n`;
const INPUT =
  line({
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  }) +
  line({ method: "notifications/initialized" }) +
  line({ id: 2, method: "tools/list" });

interface Answers {
  init?: Record<string, unknown>;
  list?: Record<string, unknown>;
  tools: string[];
  ids: number[];
  quick: boolean;
  /** The quick start answered tools/list too. */
  listed: boolean;
}

function parse(out: string, err: string): Answers {
  const all = out
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => JSON.parse(l) as { id: number; result?: Record<string, unknown> });
  const list = all.find((a) => a.id === 2)?.result as { tools?: { name: string }[] } | undefined;
  return {
    init: all.find((a) => a.id === 1)?.result,
    ...(list ? { list } : {}),
    tools: (list?.tools ?? []).map((t) => t.name),
    ids: all.map((a) => a.id),
    quick: /mcp quick start answered/.test(err),
    listed: /mcp quick start answered initialize, tools\/list$/m.test(err),
  };
}

/** The executable's answers (NODE_DEBUG=pep says whether the quick start answered). */
async function spawned(argv: string[], env: Record<string, string>): Promise<Answers> {
  const r = await spawnPep(argv, { env: { ...tmp.env, ...env, NODE_DEBUG: "pep" }, input: INPUT, timeoutMs: 45_000 });
  expect(r.code, r.err).toBe(0);
  // The server's own list, once loaded, is the one the quick start sent (stdio.ts).
  expect(r.err).not.toMatch(/differs from the server's/);
  return parse(r.out, r.err);
}

/** The program's answers, in-process. */
async function program(argv: string[], env: Record<string, string>): Promise<Answers> {
  const r = await runPep(argv, { env: { ...tmp.env, ...env }, stdin: INPUT });
  expect(r.code, r.err).toBe(0);
  return parse(r.out, r.err);
}

/**
 * Configurations the instructions depend on: argv, env, and what the instructions say.
 * Each case is a test of its own (one spawn, one in-process run), so that no test's time
 * bound covers many processes on a loaded machine.
 */
const CASES: [string[], Record<string, string>, RegExp][] = [
  [["mcp", "--sandbox"], {}, /^(?![\s\S]*(CONFIGURATION PROBLEM|No API key))/],
  [["mcp"], {}, /no API base URL is configured/],
  [["mcp", "--profile", "lab"], {}, /was refused the pricing:read scope before/],
  [["--profile=lab", "mcp", "--tools", "research,prices", "--max-wait", "20"], {}, /Only the tool groups/],
  [["mcp"], { PEP_PROFILE: "wrok", PEP_BASE_URL: "http://127.0.0.1:9/v1" }, /names the profile "wrok"/],
  [["mcp"], { PEP_BASE_URL: "http://127.0.0.1:9/v1", PEP_API_KEY: "k_1234567890ab" }, /research and education/i],
  [["mcp"], { PEP_BASE_URL: "http://127.0.0.1:9/v1" }, /No API key is set/],
  [
    ["mcp", "--tools", "vendors,studies"],
    { PEP_BASE_URL: "http://127.0.0.1:9/v1", PEP_API_KEY: "k_refused_vendors" },
    /refused the vendors:read scope before/,
  ],
  // Settings it cannot take as given: said in the instructions, by both alike.
  [["mcp", "--sandbox", "--tools", "research", "--tools", "studies"], {}, /Only the tool groups research, studies/],
  [["mcp", "--sandbox", "--max-wait", "forever"], {}, /--max-wait is "forever", not a number/],
  [["mcp", "--sandbox", "--tools", "everything"], {}, /--tools names "everything", which is not a tool group/],
];

/** Argv and settings the quick start leaves to the program. */
const NO_BASE = { PEP_BASE_URL: "http://127.0.0.1:9/v1" };
const LEFT: [string[], Record<string, string>][] = [
  [["mcp", "--quiet"], NO_BASE],
  [["mcp", "--offline"], NO_BASE],
  [["mcp", "--max-wait", "30"], { ...NO_BASE, PEP_OFFLINE: "0" }],
  [["mcp", "--sandbox"], { PEP_SANDBOX: "1" }],
  // Settings that do not resolve: the program tells its client in the instructions.
  [["mcp"], { ...NO_BASE, PEP_API_KEY: "k_123456789" }],
];

const named = (argv: string[], env: Record<string, string>) =>
  `${argv.join(" ")}${Object.keys(env).length > 0 ? ` ${JSON.stringify(env)}` : ""}`;

describe("pep mcp: the quick start through the executable", () => {
  describe("answers initialize and tools/list as the program does: sandbox, no base URL, no key, refused scopes, --tools", () => {
    beforeAll(async () => {
      sandbox ??= await startSandbox({ port: 0 });
      const env = { ...tmp.env };
      expect((await runPep(["--profile", "lab", "config", "set", "base_url", sandbox.baseUrl], { env })).code).toBe(0);
      const stored = await runPep(["--profile", "lab", "config", "set", "api_key", "-"], {
        env,
        stdin: `${sandbox.keys.research}\n`,
      });
      expect(stored.code, stored.err).toBe(0);
      // A 403 recorded in the profile: the instructions name the refused scope.
      expect((await runPep(["--profile", "lab", "prices", "--limit", "1"], { env })).code).toBe(3);
      // A 403 met by an earlier pep mcp, kept by the key's digest for its next start.
      await noteRefused(env, "k_refused_vendors", "vendors:read", Date.now());
    });

    for (const [argv, caseEnv, says] of CASES)
      it(named(argv, caseEnv), async () => {
        const quick = await spawned(argv, caseEnv);
        const inProcess = await program(argv, caseEnv);
        expect(quick.quick).toBe(true);
        expect(quick.listed).toBe(true);
        expect(quick.init).toEqual(inProcess.init);
        expect(String(quick.init?.instructions)).toMatch(says);
        expect(quick.tools.length).toBeGreaterThan(0);
        expect(quick.list).toEqual(inProcess.list);
        // Answered once each, in order: the server's own answer to initialize is not sent.
        expect(quick.ids).toEqual([1, 2]);
      });
  });

  describe("leaves any other argv or setting to the program, which answers the same", () => {
    for (const [argv, caseEnv] of LEFT)
      it(named(argv, caseEnv), async () => {
        const fallback = await spawned(argv, caseEnv);
        expect(fallback.quick).toBe(false);
        const inProcess = await program(argv, caseEnv);
        expect(fallback.init).toEqual(inProcess.init);
        expect(fallback.list).toEqual(inProcess.list);
        expect(fallback.ids).toEqual([1, 2]);
      });
  });

  it("an argv the program refuses is refused by the program, with nothing answered", async () => {
    for (const argv of [["mcp", "--port", "1"]]) {
      const r = await spawnPep(argv, { env: { ...tmp.env, NODE_DEBUG: "pep" }, input: INPUT });
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.out).toBe("");
      expect(r.err).toMatch(/^error: --/m);
      expect(r.err).not.toMatch(/mcp quick start answered/);
    }
  });

  it("a client gone before the answer ends the run quietly, as the program does", async () => {
    const child = spawn(process.execPath, [BIN, "mcp"], {
      env: { PATH: process.env.PATH, ...tmp.env, PEP_BASE_URL: "http://127.0.0.1:9/v1" },
      stdio: ["pipe", "pipe", "pipe"],
    });
    let err = "";
    child.stderr.on("data", (c: Buffer) => {
      err += c.toString();
    });
    child.stdout.destroy();
    child.stdin.end(INPUT);
    const code = await new Promise<number | null>((resolve) => child.on("close", resolve));
    expect(err).not.toMatch(/Unhandled|EPIPE/);
    expect(code).toBe(0);
  });
});
