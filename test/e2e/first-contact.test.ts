/**
 * First contact: what a newcomer sees when a command waits on a terminal (`pep mcp`).
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { run } from "../../src/cli/main.js";
import type { IO } from "../../src/core/io.js";

/** `pep mcp --sandbox` with its standard input on a terminal (or not); stdin closes at once. */
async function mcpOnStdin(stdinIsTTY: boolean): Promise<{ code: number; err: string }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const err: Buffer[] = [];
  stderr.on("data", (c: Buffer) => err.push(c));
  stdout.resume();
  const io: IO = {
    stdout,
    stderr,
    stdin,
    env: { PATH: process.env.PATH },
    stdoutIsTTY: false,
    stderrIsTTY: stdinIsTTY,
    stdinIsTTY,
    columns: 80,
    cwd: process.cwd(),
    signal: new AbortController().signal,
  };
  const exit = run(["mcp", "--sandbox"], { io });
  setTimeout(() => stdin.end(), 50);
  const code = await exit;
  return { code, err: Buffer.concat(err).toString("utf8") };
}

describe("pep mcp typed at a terminal", () => {
  it("says on stderr that it waits for an MCP client on stdin, and how to set one up", async () => {
    const r = await mcpOnStdin(true);
    expect(r.code).toBe(0);
    const line = r.err.split("\n").find((l) => l.includes("waiting for an MCP client"));
    expect(line).toMatch(/standard input/);
    expect(line).toContain('args ["mcp"]');
    expect(line).toContain("docs/mcp.md");
  });

  it("says nothing of the kind when a client started it (stdin is a pipe)", async () => {
    const r = await mcpOnStdin(false);
    expect(r.err).not.toContain("waiting for an MCP client");
  });
});
