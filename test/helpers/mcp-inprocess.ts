/**
 * `pep mcp` run in this process (`run(["mcp", …], { io, clock })`), its standard input
 * and output joined to the SDK's own Client by a transport over the two streams. Tests
 * that need the fake clock of the retry layer use it: no child process, no real waits.
 */
import { PassThrough } from "node:stream";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { CallToolResult, JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { run } from "../../src/cli/main.js";
import type { IO } from "../../src/core/io.js";
import type { Clock } from "../../src/http/client-types.js";

/** The client's end: writes to the server's stdin, reads its stdout. */
class StreamPair implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  constructor(
    private readonly toServer: PassThrough,
    private readonly fromServer: PassThrough,
  ) {}
  async start(): Promise<void> {
    this.fromServer.on("data", (chunk: Buffer) => {
      this.buffer.append(chunk);
      for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) this.onmessage?.(m);
    });
  }
  async send(message: JSONRPCMessage): Promise<void> {
    this.toServer.write(serializeMessage(message));
  }
  async close(): Promise<void> {
    this.toServer.end();
    this.onclose?.();
  }
}

export interface InProcessMcp {
  client: Client;
  stderr(): string;
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Closes the client and resolves to pep's exit code. */
  close(): Promise<number>;
}

export async function startMcpInProcess(
  argv: readonly string[],
  options: { env: Record<string, string | undefined>; clock?: Clock },
): Promise<InProcessMcp> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const err: Buffer[] = [];
  stderr.on("data", (c: Buffer) => err.push(c));
  const io: IO = {
    stdout,
    stderr,
    stdin,
    env: options.env,
    stdoutIsTTY: false,
    stderrIsTTY: false,
    stdinIsTTY: false,
    columns: 80,
    cwd: process.cwd(),
    signal: new AbortController().signal,
  };
  const exit = run(["mcp", ...argv], { io, ...(options.clock ? { clock: options.clock } : {}) });
  const client = new Client({ name: "pep-tests", version: "1.0.0" });
  await client.connect(new StreamPair(stdin, stdout));
  return {
    client,
    stderr: () => Buffer.concat(err).toString("utf8"),
    call: async (name, args = {}) => (await client.callTool({ name, arguments: args })) as CallToolResult,
    close: async () => {
      await client.close();
      return exit;
    },
  };
}
