/**
 * `pep mcp` as a client sees it, driven by the SDK's own Client: run in-process,
 * `run(["mcp", …])`, with the protocol over in-memory stdin and stdout (the real
 * executable over a pipe: mcp-faults.test.ts's raw session). stderr is collected apart,
 * so a test can check that nothing but the protocol reached stdout (the client would
 * fail to parse it) and that the key never shows on stderr either.
 */
import { PassThrough, type Readable, type Writable } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Deps } from "../../src/cli/run-context.js";
import { run } from "../../src/cli/main.js";
import { testIO } from "../../src/core/io.js";
import { ROOT } from "./cli.js";

export interface McpSession {
  client: Client;
  /** What `pep mcp` wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool and returns its result (errors are results with isError). */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  close(): Promise<void>;
}

/** The client's end of a stdio session: JSON-RPC lines written to `input`, read from `output`. */
class StreamTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  constructor(
    private readonly input: Writable,
    private readonly output: Readable,
    private readonly ended: Promise<unknown>,
  ) {}
  async start(): Promise<void> {
    this.output.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (;;) {
        let message: JSONRPCMessage | null;
        try {
          message = this.buffer.readMessage();
        } catch (e) {
          this.onerror?.(e as Error);
          continue;
        }
        if (message === null) break;
        this.onmessage?.(message);
      }
    });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.input.write(serializeMessage(message));
  }
  async close(): Promise<void> {
    this.input.end();
    await this.ended;
    this.onclose?.();
  }
}

/**
 * Runs `pep mcp <argv>` in-process with only `env` (plus PATH and HOME), as `spawnMcp` runs
 * the executable, and connects; `deps` gives the run a clock (retries that do not wait).
 */
export async function startMcp(
  argv: readonly string[],
  env: Record<string, string>,
  deps: Omit<Deps, "io"> = {},
): Promise<McpSession> {
  const io = testIO({ env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env }, cwd: ROOT });
  const stdin = new PassThrough();
  const ended = run(["mcp", ...argv], { ...deps, io: { ...io, stdin } });
  const client = new Client({ name: "pep-tests", version: "1.0.0" });
  await client.connect(new StreamTransport(stdin, io.stdout as PassThrough, ended));
  return {
    client,
    stderr: io.err,
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

/**
 * A raw stdio session as a client writes it: `initialize`, `notifications/initialized`,
 * then `requests` (given their ids), one JSON-RPC message a line.
 */
export function rawSession(...requests: Array<{ id: number; method: string; params?: unknown }>): string {
  return `${[
    {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    },
    { jsonrpc: "2.0", method: "notifications/initialized" },
    ...requests.map((r) => ({ jsonrpc: "2.0", ...r })),
  ]
    .map((m) => JSON.stringify(m))
    .join("\n")}\n`;
}
