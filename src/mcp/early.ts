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
 */
import type { Readable, Writable } from "node:stream";
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

/** With the library's tools served, its records can be subscribed to (`resources/subscribe`). */
export function capabilitiesFor(library: boolean): typeof CAPABILITIES & { resources: { subscribe?: boolean } } {
  return library ? { ...CAPABILITIES, resources: { subscribe: true, listChanged: true } } : CAPABILITIES;
}

/** The first message, and what came with it, for the server loaded after. */
export interface Early {
  setup: Setup;
  /** Every byte read so far (the first line included), for the server's transport. */
  preface: Buffer;
  /** The id of the initialize request already answered, whose second answer is not sent. */
  answered?: string | number;
  /** Standard input ended before the server was loaded. */
  ended: boolean;
}

/** The first line of `stdin` (undefined when it ends first), and every byte read meanwhile. */
export function firstLine(stdin: Readable): Promise<{ line?: string; bytes: Buffer; ended: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const done = (ended: boolean) => {
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      stdin.pause();
      const bytes = Buffer.concat(chunks);
      const nl = bytes.indexOf(0x0a);
      resolve({ ...(nl === -1 ? {} : { line: bytes.subarray(0, nl).toString("utf8") }), bytes, ended });
    };
    const onData = (c: Buffer) => {
      chunks.push(c);
      if (c.includes(0x0a)) done(false);
    };
    const onEnd = () => done(true);
    stdin.on("data", onData);
    stdin.once("end", onEnd);
  });
}

/** An initialize request's id and requested version, or undefined for any other line. */
function initializeOf(line: string | undefined): { id: string | number; version: unknown } | undefined {
  if (line === undefined) return undefined;
  try {
    const m = JSON.parse(line) as {
      jsonrpc?: unknown;
      id?: unknown;
      method?: unknown;
      params?: { protocolVersion?: unknown };
    };
    const idOk = typeof m.id === "string" || typeof m.id === "number";
    if (m.jsonrpc !== "2.0" || m.method !== "initialize" || !idOk || typeof m.params !== "object" || m.params === null)
      return undefined;
    return { id: m.id as string | number, version: m.params.protocolVersion };
  } catch {
    return undefined;
  }
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
  return { setup, preface: bytes, answered: answer.id, ended };
}

/**
 * What `pep mcp`'s quick start (src/cli/mcp-early.ts, run by bin/pep.js before the
 * program is loaded) read and answered, for the server: the two are separate bundles,
 * so it is left on the global object, under a registered symbol, and taken once.
 */
export type Handed = Omit<Early, "setup">;
const HANDED = Symbol.for("pepcli.mcp.early");

export function handOver(handed: Handed): void {
  (globalThis as Record<symbol, unknown>)[HANDED] = handed;
}

/** What the quick start read and answered, if it ran in this process (then forgotten). */
export function takeHanded(): Handed | undefined {
  const g = globalThis as Record<symbol, unknown>;
  const handed = g[HANDED] as Handed | undefined;
  delete g[HANDED];
  return handed;
}

export function write(out: Writable, text: string): Promise<void> {
  return new Promise((resolve) => {
    if (out.write(text)) resolve();
    else out.once("drain", resolve);
  });
}
