/**
 * The answer to `initialize` over stdio, given before the protocol library is loaded. A
 * client starts `pep mcp` and waits for this answer; loading the MCP SDK, zod's schemas
 * of the protocol and pep's tool schemas takes several times what Node takes to start,
 * and none of it is needed to answer. So the first line of standard input is read here,
 * the answer written with the instructions of this configuration (`listing.ts`), and the
 * SDK's server is then given the same line (its own answer to it is not sent, as the same
 * answer already was: `stdio.ts`), and everything after it as it came.
 *
 * The answer must be the one the SDK's server would give: the protocol versions it
 * speaks, and the capabilities pep's server declares. test/e2e/mcp-startup.test.ts holds
 * both equal to the SDK's.
 *
 * A client lists the tools next, and only shows them once listed: the quick start
 * (src/cli/mcp-early.ts) answers a plain `tools/list` too, from the table the build
 * rendered with the SDK's server (`tool-list.ts`), for the tools this configuration lists
 * (`chooseTools`, as the server). The server is given that line as well; its own answer
 * is checked against the one sent, and not sent (`stdio.ts`).
 */
import type { Readable, Writable } from "node:stream";
import { leave, take } from "../core/hand-over.js";
import type { ToolGroup } from "./catalog.js";
import { chooseTools, instructionsFor } from "./listing.js";
import { inspectSetup, type Setup, type SetupContext } from "./setup.js";

/** The protocol versions the SDK speaks, newest first (its SUPPORTED_PROTOCOL_VERSIONS). */
export const PROTOCOL_VERSIONS = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05", "2024-10-07"];

export const SERVER_INFO = { name: "pep", title: "pep: peptide research API", version: __PEP_VERSION__ };

/** What pep's server declares (tools, resources and prompts that may change, logging, completions). */
export const CAPABILITIES = {
  logging: {},
  tools: { listChanged: true },
  resources: { listChanged: true },
  prompts: { listChanged: true },
  completions: {},
};

/** A request answered before the server was loaded, whose second answer is not sent. */
export interface Answered {
  id: string | number;
  /** The result sent, as JSON, when the server's own is to be checked against it (`stdio.ts`). */
  result?: string;
}

/** With the library's tools served, its records can be subscribed to (`resources/subscribe`). */
export function capabilitiesFor(library: boolean): typeof CAPABILITIES & { resources: { subscribe?: boolean } } {
  return library ? { ...CAPABILITIES, resources: { subscribe: true, listChanged: true } } : CAPABILITIES;
}

/** The first message, and what came with it, for the server loaded after. */
export interface Early {
  setup: Setup;
  /** Every byte read so far (the first line included), for the server's transport. */
  preface: Buffer;
  /** The requests already answered (initialize, and tools/list by the quick start), in order. */
  answered?: readonly Answered[];
  /** Standard input ended before the server was loaded. */
  ended: boolean;
}

/**
 * Lines of standard input as they come, keeping every byte read for the server's
 * transport (`stop`). Reading flows until stopped; stopped, the stream is paused with
 * what follows left in it.
 */
export class EarlyReader {
  private chunks: Buffer[] = [];
  private all = Buffer.alloc(0);
  /** Offset of the first byte of the next line in `all`. */
  private at = 0;
  private ended = false;
  private wake: (() => void) | undefined;

  constructor(private readonly stdin: Readable) {
    stdin.on("data", this.onData);
    stdin.once("end", this.onEnd);
  }

  private readonly onData = (c: Buffer) => {
    this.chunks.push(c);
    this.wake?.();
  };

  private readonly onEnd = () => {
    this.ended = true;
    this.wake?.();
  };

  /**
   * The next line; undefined when the input ends first, or when `withinMs` is given and
   * no whole line came within it.
   */
  async line(withinMs?: number): Promise<string | undefined> {
    const until = withinMs === undefined ? undefined : Date.now() + withinMs;
    for (;;) {
      if (this.chunks.length > 0) {
        this.all = Buffer.concat([this.all, ...this.chunks]);
        this.chunks = [];
      }
      const nl = this.all.indexOf(0x0a, this.at);
      if (nl !== -1) {
        const line = this.all.subarray(this.at, nl).toString("utf8");
        this.at = nl + 1;
        return line;
      }
      if (this.ended) return undefined;
      const left = until === undefined ? undefined : until - Date.now();
      if (left !== undefined && left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const timer = left === undefined ? undefined : setTimeout(resolve, left);
        this.wake = () => {
          this.wake = undefined;
          clearTimeout(timer);
          resolve();
        };
      });
    }
  }

  /** Stops reading: every byte read, and whether the input has ended. */
  stop(): { bytes: Buffer; ended: boolean } {
    this.stdin.off("data", this.onData);
    this.stdin.off("end", this.onEnd);
    this.stdin.pause();
    return { bytes: Buffer.concat([this.all, ...this.chunks]), ended: this.ended };
  }
}

/** The first line of `stdin` (undefined when it ends first), and every byte read meanwhile. */
export async function firstLine(stdin: Readable): Promise<{ line?: string; bytes: Buffer; ended: boolean }> {
  const reader = new EarlyReader(stdin);
  const line = await reader.line();
  return { ...(line === undefined ? {} : { line }), ...reader.stop() };
}

/** A JSON-RPC message of `line` with only the members a request or notification has, or undefined. */
function messageOf(line: string | undefined): { id?: unknown; method?: unknown; params?: unknown } | undefined {
  if (line === undefined) return undefined;
  try {
    const m = JSON.parse(line) as Record<string, unknown> | null;
    if (typeof m !== "object" || m === null || Array.isArray(m) || m.jsonrpc !== "2.0") return undefined;
    if (Object.keys(m).some((k) => !["jsonrpc", "id", "method", "params"].includes(k))) return undefined;
    return m;
  } catch {
    return undefined;
  }
}

const isId = (id: unknown): id is string | number => typeof id === "string" || Number.isInteger(id);

/** True for the client's notifications/initialized, which asks for no answer. */
export function isInitialized(line: string | undefined): boolean {
  const m = messageOf(line);
  return m !== undefined && m.id === undefined && m.method === "notifications/initialized";
}

/**
 * The answer line to `line` when it is a plain tools/list request (no params, or a
 * cursor and _meta only, which the server's list does not depend on), from `table` (each
 * tool's entry of the server's answer, `early-tools.ts`) and the tools this configuration
 * lists (`chooseTools`, as the server). Undefined for any other line, or when a tool to
 * list is not in the table: the server answers then.
 */
export function toolsListAnswer(
  table: Readonly<Record<string, string>>,
  setup: Setup,
  groups: readonly ToolGroup[] | undefined,
  line: string | undefined,
): { id: string | number; result: string; text: string } | undefined {
  const m = messageOf(line);
  if (m?.method !== "tools/list" || !isId(m.id)) return undefined;
  if (m.params !== undefined) {
    const p = m.params as Record<string, unknown> | null;
    if (typeof p !== "object" || p === null || Array.isArray(p)) return undefined;
    for (const [k, v] of Object.entries(p)) {
      const plain = k === "cursor" ? typeof v === "string" : k === "_meta" && typeof v === "object" && v !== null;
      if (!plain || Array.isArray(v)) return undefined;
    }
  }
  const chosen = chooseTools(setup, groups);
  // The library's tools are not in the rendered table (mcp/library-tools.ts registers them
  // when served): a list with them is left to the program.
  if (chosen.library.length > 0) return undefined;
  const parts: string[] = [];
  for (const tool of chosen.tools) {
    const json = table[tool.name];
    if (json === undefined) return undefined;
    parts.push(json);
  }
  const result = `{"tools":[${parts.join(",")}]}`;
  // The members in the order the SDK's server sends them.
  return { id: m.id, result, text: `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(m.id)}}\n` };
}

/** An initialize request's id and requested version, or undefined for any other line. */
function initializeOf(line: string | undefined): { id: string | number; version: unknown } | undefined {
  const m = messageOf(line);
  const params = m?.params as { protocolVersion?: unknown } | null | undefined;
  if (m?.method !== "initialize" || !isId(m.id) || typeof params !== "object" || params === null) return undefined;
  return { id: m.id, version: params.protocolVersion };
}

/** The answer line to `line` when it is an initialize request (with its id), else undefined. */
export function initializeAnswer(
  setup: Setup,
  groups: readonly ToolGroup[] | undefined,
  line: string | undefined,
): { id: string | number; text: string } | undefined {
  const init = initializeOf(line);
  if (!init) return undefined;
  const { hidden, library } = chooseTools(setup, groups);
  const version = PROTOCOL_VERSIONS.includes(String(init.version)) ? String(init.version) : PROTOCOL_VERSIONS[0]!;
  const result = {
    protocolVersion: version,
    capabilities: capabilitiesFor(library.length > 0),
    serverInfo: SERVER_INFO,
    instructions: instructionsFor(setup, hidden),
  };
  return { id: init.id, text: `${JSON.stringify({ jsonrpc: "2.0", id: init.id, result })}\n` };
}

/** Reads the configuration and the first line; answers it when it is initialize. */
export async function answerEarly(
  ctx: SetupContext,
  groups: readonly ToolGroup[] | undefined,
  notes: readonly string[] = [],
): Promise<Early> {
  const read = firstLine(ctx.io.stdin);
  const setup = await inspectSetup(ctx, notes);
  const { line, bytes, ended } = await read;
  const answer = initializeAnswer(setup, groups, line);
  if (!answer) return { setup, preface: bytes, ended };
  await write(ctx.io.stdout, answer.text);
  return { setup, preface: bytes, answered: [{ id: answer.id }], ended };
}

/**
 * What `pep mcp`'s quick start (src/cli/mcp-early.ts, run by bin/pep.js before the
 * program is loaded) read and answered, left for the server (core/hand-over.ts).
 */
export type Handed = Omit<Early, "setup">;
const HANDED = "pepcli.mcp.early";

export function handOver(handed: Handed): void {
  leave(HANDED, handed);
}

/** What the quick start read and answered, if it ran in this process (then forgotten). */
export function takeHanded(): Handed | undefined {
  return take<Handed>(HANDED);
}

export function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (out.write(text)) resolve();
    else out.once("drain", resolve);
  });
}
