/**
 * `pep mcp` as a client sees it: the real executable started as a child process and
 * driven by the SDK's own Client over stdio. stderr is collected apart, so a test can
 * check that nothing but the protocol reached stdout (the client would fail to parse
 * it) and that the key never shows on stderr either.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { BIN, ROOT } from "./cli.js";

export interface McpSession {
  client: Client;
  /** What `pep mcp` wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool and returns its result (errors are results with isError). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** Starts `node bin/pep.js mcp <argv>` with only `env` (plus PATH and HOME) and connects. */
export async function startMcp(argv: readonly string[], env: Record<string, string>): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "mcp", ...argv],
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
    stderr: "pipe",
  });
  const chunks: Buffer[] = [];
  transport.stderr?.on("data", (c: Buffer) => chunks.push(c));
  const client = new Client({ name: "pep-tests", version: "1.0.0" });
  await client.connect(transport);
  return {
    client,
    stderr: () => Buffer.concat(chunks).toString("utf8"),
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: () => client.close(),
  };
}

/** The text of a result's first content block. */
export function textOf(result: CallToolResult): string {
  const first = result.content[0];
  if (first?.type !== "text") throw new Error(`expected a text block, got ${JSON.stringify(result.content)}`);
  return first.text;
}
