/**
 * `pep mcp`'s quick start: a bundle of its own (dist/mcp-early.js) that bin/pep.js runs
 * before it loads the program, for plain `pep mcp` over stdio. A client starts the server
 * and waits for the answer to `initialize`; loading the whole program (its command line,
 * every command's definition, the output layer) costs more than Node's own start. This
 * reads the configuration and the first line with the same modules the server uses
 * (`mcp/setup.ts`, `mcp/early.ts`), answers initialize as the server would, then the
 * client's tools/list from the list the build rendered (`mcp/early-tools.ts`), and
 * leaves what it read for the server (`handOver`), which is loaded after and serves the rest.
 *
 * It takes only what it fully understands: `mcp` with --tools, --max-wait, --profile and
 * --sandbox, no PEP_OFFLINE or PEP_SANDBOX, and settings that resolve. For anything else
 * it reads nothing and says so (undefined), and the program runs as it always does, so
 * its errors and refusals are the program's own.
 */
import type { Readable, Writable } from "node:stream";
import { resolveConfig } from "../config/resolve.js";
import { profileName } from "../config/profile.js";
import type { ConfigStore } from "../config/store.js";
import type { ResolvedConfig } from "../config/config-types.js";
import type { GlobalOptions } from "../core/command-context.js";
import {
  type Answered,
  EarlyReader,
  handOver,
  initializeAnswer,
  isInitialized,
  toolsListAnswer,
  write,
} from "../mcp/early.js";
import { EARLY_TOOLS } from "../mcp/early-tools.js";
import { groupsOf, maxWaitOf } from "../mcp/listing.js";
import { inspectSetup } from "../mcp/setup.js";
import { SANDBOX_KEYS } from "../sandbox/auth.js";

/** What the quick start is handed by bin/pep.js: the process's own. */
export interface QuickIO {
  env: Record<string, string | undefined>;
  stdin: Readable;
  stdout: Writable;
  cwd: string;
}

/** The flags the quick start knows, as given; undefined for any argv it does not fully understand. */
export function quickArgs(
  argv: readonly string[],
): { profile?: string; sandbox: boolean; tools?: string[]; maxWait?: string } | undefined {
  const values: Record<string, string> = {};
  const tools: string[] = [];
  let sandbox = false;
  let command = false;
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!;
    if (word === "mcp" && !command) {
      command = true;
      continue;
    }
    if (word === "--sandbox" && !sandbox) {
      sandbox = true;
      continue;
    }
    const m = /^--(profile|tools|max-wait)(?:=(.*))?$/s.exec(word);
    // Command options go after the command; the global --profile anywhere; --tools adds up.
    if (!m || (m[1] !== "profile" && !command) || values[m[1]!] !== undefined) return undefined;
    const value = m[2] ?? argv[++i];
    if (value === undefined || value === "" || value.startsWith("-")) return undefined;
    if (m[1] === "tools") tools.push(value);
    else values[m[1]!] = value;
  }
  if (!command) return undefined;
  return {
    sandbox,
    ...(values.profile !== undefined ? { profile: values.profile } : {}),
    ...(tools.length > 0 ? { tools } : {}),
    ...(values["max-wait"] !== undefined ? { maxWait: values["max-wait"] } : {}),
  };
}

/**
 * How long the quick start waits, after answering initialize, for the client's next
 * request before the program loads: clients list the tools at once (after the
 * notifications/initialized they send first), and an answer from here comes several
 * times sooner than the server's. Any other request, or none within this, and the
 * program loads and answers.
 */
export const LIST_WAIT_MS = 100;

/**
 * Answers initialize, and then a plain tools/list, when `argv` is one the quick start
 * takes: resolves to the methods answered (none when the first line is not initialize)
 * once what was read is handed over, or to undefined without reading anything. `list`:
 * the tool list and the wait for its request (the bundle's, unless a test gives others).
 */
export async function answerFirst(
  argv: readonly string[],
  io: QuickIO,
  list: { tools?: Readonly<Record<string, string>> | undefined; waitMs: number } = {
    tools: EARLY_TOOLS,
    waitMs: LIST_WAIT_MS,
  },
): Promise<string[] | undefined> {
  const args = quickArgs(argv);
  if (!args || io.env.PEP_OFFLINE !== undefined || io.env.PEP_SANDBOX !== undefined) return undefined;
  const maxWait = maxWaitOf(args.maxWait, io.env);
  const { value: groups, note } = groupsOf(args.tools, io.env);
  const notes = [note, maxWait.note].filter((n): n is string => n !== undefined);
  const globals: GlobalOptions = { ...(args.profile !== undefined ? { profile: args.profile } : {}) };
  const profile = profileName(args.profile, io.env);
  let store: Promise<ConfigStore> | undefined;
  const openStore = () => (store ??= import("../config/store.js").then((m) => m.openConfigStore(io.env)));
  // The sandbox starts with the program; its address is said nowhere in the answer.
  const sandbox = args.sandbox ? { baseUrl: "http://127.0.0.1:0/v1", apiKey: SANDBOX_KEYS.full } : undefined;
  let config: ResolvedConfig;
  try {
    config = await resolveConfig(globals, io, await openStore(), { sandbox });
    // A profile that reads the library answers from it: the program decides what that means.
    if ((await openStore()).profile(profile).offline === true) return undefined;
  } catch {
    return undefined;
  }
  const setup = await inspectSetup({ io, profile, config: async () => config, store: openStore }, notes);
  const reader = new EarlyReader(io.stdin);
  const answered: Answered[] = [];
  const init = initializeAnswer(setup, groups, await reader.line());
  if (init) {
    await write(io.stdout, init.text);
    answered.push({ id: init.id });
    if (list.tools) {
      let next = await reader.line(list.waitMs);
      while (isInitialized(next)) next = await reader.line(list.waitMs);
      const tools = toolsListAnswer(list.tools, setup, groups, next);
      if (tools) {
        await write(io.stdout, tools.text);
        answered.push({ id: tools.id, result: tools.result });
      }
    }
  }
  const { bytes, ended } = reader.stop();
  handOver({ preface: bytes, ended, answered });
  return init ? ["initialize", ...(answered.length > 1 ? ["tools/list"] : [])] : [];
}
