/**
 * The stdio transport of `pep mcp`: newline-delimited JSON-RPC on standard input and
 * output, as the SDK's own, with the answers JSON-RPC requires where the SDK's says
 * nothing: a line that is not JSON gets a parse error (-32700, id null), a line that is
 * JSON but not a JSON-RPC message gets an invalid-request error (-32600), and a message
 * larger than the bound (10 MiB) gets an invalid-request error saying so, with its bytes
 * skipped up to the next newline so that the messages after it are read as before. Each
 * is also said on standard error. Input that ends inside a message is a reason to stop,
 * said on standard error (`truncated` tells the server).
 */
import type { Readable, Writable } from "node:stream";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Answered } from "./early.js";

/** Largest message read, in bytes (the SDK's own bound). */
export const MAX_MESSAGE_BYTES = 10 * 1024 * 1024;

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Set when the input ended inside a message: bytes of it received. */
  truncated: number | undefined;
  private chunks: Buffer[] = [];
  private size = 0;
  /** Skipping the rest of a message past the bound, up to its newline. */
  private skipping = false;
  private closed = false;

  /** Bytes read before this transport started (`early.ts`), read first. */
  private preface: Buffer | undefined;
  /** Requests answered already (`early.ts`): the server's answers to them are not sent. */
  private answered: Answered[];

  constructor(
    private readonly stdin: Readable,
    private readonly stdout: Writable,
    private readonly tell: (line: string) => void,
    private readonly maxBytes = MAX_MESSAGE_BYTES,
    early?: { preface: Buffer; answered?: readonly Answered[] | undefined },
  ) {
    this.preface = early?.preface;
    this.answered = [...(early?.answered ?? [])];
  }

  private readonly onData = (chunk: Buffer) => {
    let rest = chunk;
    for (;;) {
      const nl = rest.indexOf(0x0a);
      if (nl === -1) {
        if (this.skipping) return;
        this.chunks.push(rest);
        this.size += rest.length;
        if (this.size > this.maxBytes) this.tooLarge();
        return;
      }
      const head = rest.subarray(0, nl);
      rest = rest.subarray(nl + 1);
      if (this.skipping) {
        this.skipping = false;
        continue;
      }
      if (this.size + head.length > this.maxBytes) {
        this.chunks = [];
        this.size = 0;
        this.tooLarge();
        this.skipping = false;
        continue;
      }
      const line = Buffer.concat([...this.chunks, head])
        .toString("utf8")
        .replace(/\r$/, "");
      this.chunks = [];
      this.size = 0;
      this.line(line);
    }
  };

  private readonly onEnd = () => {
    // The bytes of an unfinished message; a refused oversized one counts as its bound.
    if (this.size > 0 || this.skipping) this.truncated = this.skipping ? this.maxBytes : this.size;
  };

  private readonly onError = (err: Error) => this.onerror?.(err);

  private tooLarge(): void {
    this.chunks = [];
    this.size = 0;
    this.skipping = true;
    const mib = this.maxBytes / 1024 / 1024;
    this.tell(`pep mcp: refused a message larger than ${mib} MiB; its bytes are skipped up to the next newline`);
    void this.reply(ErrorCode.InvalidRequest, `message larger than ${mib} MiB: refused`);
  }

  private line(line: string): void {
    if (line.trim() === "") return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch (err) {
      this.tell("pep mcp: a line of standard input is not JSON; answered with a parse error");
      void this.reply(ErrorCode.ParseError, `Parse error: ${(err as Error).message}`);
      return;
    }
    const checked = JSONRPCMessageSchema.safeParse(parsed);
    if (!checked.success) {
      const id = (parsed as { id?: unknown } | null)?.id;
      this.tell("pep mcp: a line of standard input is not a JSON-RPC message; answered with an invalid-request error");
      void this.reply(
        ErrorCode.InvalidRequest,
        "Invalid Request: not a JSON-RPC 2.0 message",
        typeof id === "string" || typeof id === "number" ? id : null,
      );
      return;
    }
    this.onmessage?.(checked.data);
  }

  private reply(code: number, message: string, id: string | number | null = null): Promise<void> {
    return this.write({ jsonrpc: "2.0", id, error: { code, message } });
  }

  async start(): Promise<void> {
    const preface = this.preface;
    this.preface = undefined;
    if (preface && preface.length > 0) this.onData(preface);
    this.stdin.on("data", this.onData);
    this.stdin.on("end", this.onEnd);
    this.stdin.on("error", this.onError);
    // Paused by the early reader (`early.ts`): a new listener does not resume it.
    this.stdin.resume();
  }

  /**
   * Sends `message`, unless it answers a request answered already. For a tool list given
   * early, the server's own is compared with it: should they differ, the client is told
   * the list changed, and lists it again from the server.
   */
  send(message: JSONRPCMessage): Promise<void> {
    const at = "id" in message && !("method" in message) ? this.answered.findIndex((a) => a.id === message.id) : -1;
    if (at === -1) return this.write(message);
    const [early] = this.answered.splice(at, 1);
    if (early?.result !== undefined && "result" in message && JSON.stringify(message.result) !== early.result) {
      this.tell("pep mcp: the tool list answered at start-up differs from the server's; the client is told it changed");
      return this.write({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
    }
    return Promise.resolve();
  }

  /** Standard input ended before this transport started: as if it ended now. */
  endedEarly(): void {
    this.onEnd();
  }

  private write(message: unknown): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      if (this.stdout.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.stdout.once("drain", resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stdin.off("data", this.onData);
    this.stdin.off("end", this.onEnd);
    this.stdin.off("error", this.onError);
    if (this.stdin.listenerCount("data") === 0) this.stdin.pause();
    this.chunks = [];
    this.onclose?.();
  }
}
