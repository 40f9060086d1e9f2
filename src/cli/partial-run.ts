/**
 * A `--file` export that a failure or a signal cut short keeps its whole pages in
 * `<file>.partial` (output/partial.ts), and the same command run again goes on from there,
 * but only when the result is what a fresh run would write (docs/cli.md#resuming-an-export):
 *   - the partial and its state are trusted side files, and the kept bytes are the ones
 *     recorded (size and SHA-256);
 *   - the run's content key is the same: command, arguments and filters, format, `--jq`,
 *     `--fields`, the formula guard, base URL and profile (not -v, -q, retries, timeouts,
 *     cache, pager or colour, nor the order of the flags);
 *   - the partial is younger than `--resume-max-age` (PEP_RESUME_MAX_AGE, default 24h);
 *   - the first and last kept pages, fetched again with their own cursors, still hold the
 *     same items (ids and digest): data inserted or removed before the cut point moves them;
 *   - the API still takes the stored cursor (a 400, 404, 410 or 422 refuses it).
 * Otherwise the export starts from the first page, with one line on stderr even under -q.
 */
import { loadCommand } from "../commands/loaders.js";
import type { ListResult, Result } from "../core/command.js";
import { createHash } from "node:crypto";
import { dirname } from "node:path";
import { hideUrlCredentials } from "../core/credentials.js";
import { distrustedFolder } from "../core/trusted-file.js";
import { ApiError, resumeCursorOf, resumeRemainingOf } from "../core/errors.js";
import { cleanLine } from "../core/sanitize.js";
import {
  ageText,
  CURSOR_REFUSALS as REFUSALS,
  envResumeMaxAge,
  pageMoved,
  parseResumeMaxAge,
  tooOld,
} from "../core/resume-rules.js";
import {
  digestOf,
  dropPartial,
  keysIn,
  type LastPage,
  type PartialState,
  PARTIAL_VERSION,
  partialPaths,
  readPartial,
  writePartialState,
} from "../output/partial.js";
import type { ParsedInvocation } from "./invocation.js";
import { idOf, type PageWatch } from "./page-tracker.js";
import { formulaGuardOf, type Prepared } from "./prepared.js";

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

export { ageText };

/** `--resume-max-age` (else PEP_RESUME_MAX_AGE, else 24h) in ms; a bad value is exit 2. */
export function resumeMaxAgeMs(inv: ParsedInvocation, env: Record<string, string | undefined>): number {
  const flag = inv.globals.resumeMaxAge;
  return flag !== undefined ? parseResumeMaxAge(String(flag), "--resume-max-age") : envResumeMaxAge(env);
}

/**
 * What decides the bytes of the export, normalised: the command and its own options
 * (sorted, less `--cursor`), its arguments, the format, `--jq`, `--fields`, the formula
 * guard, the base URL (without a password) and the profile.
 */
export function contentKey(p: Prepared, baseUrl: string | undefined, formulaGuard: boolean): Record<string, unknown> {
  const { inv } = p;
  const opts: Record<string, unknown> = {};
  for (const k of Object.keys(inv.input.opts).sort())
    if (k !== "cursor" && inv.input.opts[k] !== undefined) opts[k] = inv.input.opts[k];
  return {
    command: inv.def.path.join(" "),
    args: [...inv.input.args],
    opts,
    format: p.format,
    jq: inv.globals.jq ?? null,
    jq_raw: inv.globals.jqRaw === true,
    fields: inv.fields ?? null,
    formula_guard: formulaGuard,
    // The built-in sandbox gets a new port each run: its data, not its address, is what counts.
    base_url: inv.sandbox ? "sandbox" : hideUrlCredentials(baseUrl ?? ""),
    profile: inv.profile,
  };
}

/** A line on stderr that -q does not silence: what was kept is being dropped or ignored. */
export function loud(p: Prepared, line: string): void {
  p.io.stderr.write(`${cleanLine(line)}\n`);
}

const sameKey = (a: Record<string, unknown>, b: Record<string, unknown>) => JSON.stringify(a) === JSON.stringify(b);

/** Drops the partial; says so when a file of it could not be removed. */
function drop(p: Prepared, file: string): void {
  for (const left of dropPartial(file)) loud(p, `warning: could not remove ${left}; it is ignored`);
}

/**
 * The partial export of `file` that this run goes on from, with the invocation that
 * starts at its cursor; undefined to start from the first page.
 */
export async function partialToFinish(
  p: Prepared,
  file: string,
): Promise<{ inv: ParsedInvocation; partial: PartialState } | undefined> {
  const maxAge = resumeMaxAgeMs(p.inv, p.io.env);
  const found = readPartial(file);
  if (!found) return undefined;
  const shown = partialPaths(p.inv.globals.file ?? file).data;
  if ("ignored" in found) {
    loud(p, `warning: ignoring ${found.path}: ${found.ignored}; starting from the first page`);
    if (found.ours === true) drop(p, file);
    return undefined;
  }
  const state = found.state;
  if (p.inv.globals.restart === true) {
    drop(p, file);
    p.ctx.notice(`starting over (--restart): dropped ${shown}`);
    return undefined;
  }
  const config = await p.config();
  const key = contentKey(p, config.baseUrl, await formulaGuardOf(p));
  if (!sameKey(state.key, key)) {
    drop(p, file);
    loud(
      p,
      `starting over: ${shown} was made by another command (its filters, format, --jq, --fields, base URL or profile differ); dropped it`,
    );
    return undefined;
  }
  const old = tooOld(state.created_at, Date.now(), maxAge, "--resume-max-age");
  if (old !== undefined) {
    drop(p, file);
    loud(p, `starting over: ${shown} was ${old}; dropped it`);
    return undefined;
  }
  const opts: Record<string, unknown> = { ...p.inv.input.opts, cursor: state.cursor };
  if (state.remaining !== null) {
    opts.limit = String(state.remaining);
    delete opts.all;
  }
  return { inv: { ...p.inv, input: { ...p.inv.input, opts } }, partial: state };
}

/**
 * Whether the data still lines up with the partial: its last page, and its first, fetched
 * again with the cursor that fetched each, hold the same ids and items. The last page
 * shows items added or removed before the cut with offset cursors; the first shows items
 * added at the front (newest first) with any cursor. A cursor refused there (400, 404,
 * 410, 422) means no. Other failures are the run's (the partial stays for the next try).
 */
export async function stillLinesUp(
  p: Prepared,
  original: ParsedInvocation,
  state: PartialState,
): Promise<string | undefined> {
  const pages: Array<[string, LastPage | null]> = [["last", state.last_page]];
  if (state.first_page?.cursor !== state.last_page?.cursor) pages.push(["first", state.first_page]);
  for (const [which, page] of pages) {
    if (page === null || page.ids.length === 0) continue;
    try {
      const why = await samePage(p, original, page, which);
      if (why !== undefined) return why;
    } catch (err) {
      if (err instanceof ApiError && REFUSALS.has(err.status))
        return `the API refused the cursor of the ${which} kept page (HTTP ${err.status})`;
      if (typeof err === "object" && err !== null)
        keptPartials.set(err, { path: partialPaths(p.inv.globals.file ?? p.file!).data, items: state.items });
      throw err;
    }
  }
  return undefined;
}

/** Fetches `page` again (its cursor, as many items as it held); why it differs, if it does. */
async function samePage(
  p: Prepared,
  original: ParsedInvocation,
  page: LastPage,
  which: string,
): Promise<string | undefined> {
  const opts: Record<string, unknown> = { ...original.input.opts, limit: String(page.ids.length) };
  delete opts.all;
  if (page.cursor === null) delete opts.cursor;
  else opts.cursor = page.cursor;
  const result = await (await loadCommand(original.def)).run({ ...original.input, opts }, p.ctx);
  if (result.kind !== "list") return undefined;
  const items: unknown[] = [];
  for await (const item of result.items) {
    items.push(item);
    if ((result as ListResult).pageEnded?.() === true) break;
  }
  const ids = items.map(idOf).filter((id): id is string => id !== undefined);
  return pageMoved(which, page, { ids, digest: pageDigest(items) });
}

/** One page's items as the page watch hashes them (cli/page-tracker.ts): a line of JSON each. */
function pageDigest(items: readonly unknown[]): string {
  const hash = createHash("sha256");
  for (const item of items) hash.update(`${JSON.stringify(item)}\n`);
  return hash.digest("hex");
}

/** Starts the export over: the partial is dropped, and stderr says why, even under -q. */
export function startOver(p: Prepared, why: string): void {
  drop(p, p.file!);
  loud(p, `starting over from the first page: ${why}; dropped ${partialPaths(p.inv.globals.file ?? p.file!).data}`);
}

/** Whether `err` is the API refusing the cursor this run took from its partial. */
export function refusedStoredCursor(p: Prepared, err: unknown): boolean {
  return (
    p.partial !== undefined &&
    err instanceof ApiError &&
    REFUSALS.has(err.status) &&
    resumeCursorOf(err) === p.partial.cursor
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
  watch: PageWatch | undefined,
): Promise<boolean> {
  const cursor = resumeCursorOf(err);
  if (p.file === undefined || result.kind !== "list" || p.format === "table" || !cursor || !watch) return false;
  // A folder others can change holds no partial: the next run could not trust it.
  if (distrustedFolder(dirname(p.file)) !== undefined) return false;
  const { data } = partialPaths(p.file);
  try {
    await commit(data);
  } catch {
    return false;
  }
  const digest = digestOf(data);
  if (digest === undefined) return false;
  const items = (p.partial?.items ?? 0) + watch.handed;
  const citations = p.format === "bibtex" || p.format === "ris" || p.format === "csl-json";
  const keys = citations
    ? keysIn((await (await import("node:fs/promises")).readFile(data, "utf8")) as string, p.format)
    : [];
  const remaining = resumeRemainingOf(err);
  const config = await p.config();
  writePartialState(p.file, {
    version: PARTIAL_VERSION,
    created_at: p.partial?.created_at ?? new Date().toISOString(),
    key: p.partial?.key ?? contentKey(p, config.baseUrl, await formulaGuardOf(p)),
    format: p.format,
    cursor,
    remaining: remaining ?? null,
    items,
    ids: watch.ids,
    ...digest,
    keys,
    last_page: watch.lastPage,
    first_page: watch.firstPage,
    pid: process.pid,
  });
  if (typeof err === "object" && err !== null)
    keptPartials.set(err, { path: partialPaths(p.inv.globals.file ?? p.file).data, items });
  return true;
}

/** After a whole export is in place: its partial, if any, is done with. */
export function finishedPartial(p: Prepared): void {
  if (p.file !== undefined) dropPartial(p.file);
}
