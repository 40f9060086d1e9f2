/**
 * A `--file` export that a failure or a signal cut short keeps its whole pages in
 * `<file>.partial` (output/partial.ts), and the same command run again goes on from there:
 * from the stored cursor, appending without a second header, array opening or citation
 * key, and renames the whole file into place when the list is complete. A partial made
 * by another command, base URL or profile is never continued (it is replaced, with a
 * notice); `--restart` drops it; a stored cursor the API refuses starts the list over.
 */
import type { OutputFormat } from "../api/enums.js";
import type { Result } from "../core/command.js";
import { ApiError, resumeCursorOf, resumeRemainingOf } from "../core/errors.js";
import {
  dropPartial,
  keysIn,
  type PartialState,
  partialPaths,
  readPartial,
  writePartialState,
} from "../output/partial.js";
import type { ParsedInvocation } from "./invocation.js";
import type { Prepared } from "./prepared.js";

/** What a kept partial says to the user: where it is and how many items it holds. */
export interface KeptPartial {
  path: string;
  items: number;
}

/** The failures that left a partial behind, and what it holds. */
export const keptPartials = new WeakMap<object, KeptPartial>();

/** The stored cursor of the partial this run finished was refused: the list starts over. */
export class StoredCursorRefused extends Error {
  constructor(override readonly cause: unknown) {
    super("the stored cursor was refused");
  }
}

/** The command's words as a partial records them: without `--cursor` and `--restart`. */
export function commandWords(argv: readonly string[]): string[] {
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const w = argv[i]!;
    if (w === "--") {
      words.push(...argv.slice(i));
      break;
    }
    if (w === "--cursor") i++;
    else if (!w.startsWith("--cursor=") && w !== "--restart") words.push(w);
  }
  return words;
}

/**
 * The partial export of `file` that this run goes on from, with the invocation that
 * starts at its cursor; undefined to start from the first page.
 */
export async function partialToFinish(
  inv: ParsedInvocation,
  file: string,
  format: OutputFormat,
  baseUrl: string | undefined,
  notice: (line: string) => void,
): Promise<{ inv: ParsedInvocation; partial: PartialState } | undefined> {
  const state = await readPartial(file);
  if (!state) return undefined;
  const shown = partialPaths(inv.globals.file ?? file).data;
  if (inv.globals.restart === true) {
    await dropPartial(file);
    notice(`starting over (--restart): dropped ${shown}`);
    return undefined;
  }
  const same =
    JSON.stringify(state.command) === JSON.stringify(commandWords(inv.argv)) &&
    state.baseUrl === (baseUrl ?? "") &&
    state.profile === inv.profile &&
    state.format === format &&
    state.jq === (inv.globals.jq ?? null);
  if (!same) {
    await dropPartial(file);
    notice(`replacing ${shown}: another command, base URL or profile made it`);
    return undefined;
  }
  notice(`going on from ${shown} (${state.items} item${state.items === 1 ? "" : "s"} kept)`);
  const opts: Record<string, unknown> = { ...inv.input.opts, cursor: state.cursor };
  if (state.remaining !== null) {
    opts.limit = String(state.remaining);
    delete opts.all;
  }
  return { inv: { ...inv, input: { ...inv.input, opts } }, partial: state };
}

/** Whether `err` is the API refusing the cursor this run took from its partial. */
export function refusedStoredCursor(p: Prepared, err: unknown): boolean {
  return (
    p.partial !== undefined && err instanceof ApiError && err.status === 400 && resumeCursorOf(err) === p.partial.cursor
  );
}

/**
 * Keeps what a cut-short export wrote as `<file>.partial` with its state; false when there
 * is nothing to go on from (no cursor: a write error, a failure that is not a list's).
 */
export async function keepPartial(
  p: Prepared,
  result: Result,
  err: unknown,
  commit: (into: string) => Promise<void>,
  baseUrl: string | undefined,
): Promise<boolean> {
  const cursor = resumeCursorOf(err);
  if (p.file === undefined || result.kind !== "list" || p.format === "table" || !cursor) return false;
  const { data } = partialPaths(p.file);
  try {
    await commit(data);
  } catch {
    return false;
  }
  const items = (p.partial?.items ?? 0) + (result.progress?.().items ?? 0);
  const citations = p.format === "bibtex" || p.format === "ris" || p.format === "csl-json";
  const keys = citations ? keysIn(await (await import("node:fs/promises")).readFile(data, "utf8"), p.format) : [];
  const remaining = resumeRemainingOf(err);
  await writePartialState(p.file, {
    version: 1,
    command: commandWords(p.inv.argv),
    baseUrl: baseUrl ?? "",
    profile: p.inv.profile,
    format: p.format,
    jq: p.inv.globals.jq ?? null,
    cursor,
    remaining: remaining ?? null,
    items,
    keys,
    pid: process.pid,
  });
  if (typeof err === "object" && err !== null)
    keptPartials.set(err, { path: partialPaths(p.inv.globals.file ?? p.file).data, items });
  return true;
}

/** After a whole export is in place: its partial, if any, is done with. */
export async function finishedPartial(p: Prepared): Promise<void> {
  if (p.file !== undefined) await dropPartial(p.file);
}
