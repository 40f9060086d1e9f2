/**
 * Many ids in one run, for the commands that show one thing (`peptides get|research|
 * regulatory|studies`, `studies get`, `vendors get|shipping`): several ids as arguments,
 * or `-` for ids from standard input (one a line; blank lines and `# comments` skipped).
 *
 * One id alone prints exactly what it always did. Several ids (or `-`) make a batch:
 * every id is looked up through the run's one client (one connection pool, one pacer,
 * so the rate limit and a 429's Retry-After hold for all of them), at most
 * `--concurrency` at a time, and the results come out in the order of the ids, each as
 * soon as it and the ones before it are in: a window of `--concurrency` results is all
 * that is ever held. Every id is checked before the first request (a malformed one is a
 * usage error of the run). An id the API does not find is told on stderr and the
 * others go on; the run then exits with the code of the first id that failed.
 */
import type { Context } from "../../core/command-context.js";
import { UsageError } from "../../core/errors.js";
import { DEFAULT_CONCURRENCY, MAX_CONCURRENCY } from "./batch-options.js";
import type { BatchEntry, BatchResult, ItemResult, ListResult, Resource, Result } from "../../core/command.js";

/** Most ids one run takes from standard input; past it the run is refused before any request. */
export const MAX_IDS = 100_000;

/** Whether the arguments ask for a batch: more than one id, or `-`. */
export function isBatch(args: readonly string[]): boolean {
  return args.length > 1 || args.includes("-");
}

export { BATCH_OPTIONS } from "./batch-options.js";

/** `--concurrency`, checked. */
export function concurrencyOf(value: unknown): number {
  if (value === undefined) return DEFAULT_CONCURRENCY;
  const text = String(value).trim();
  const n = /^\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY)
    throw new UsageError(`--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY} (got "${text}")`);
  return n;
}

/** The ids of the arguments, `-` replaced by the lines of standard input. */
export async function idsOf(args: readonly string[], ctx: Context, name: string): Promise<string[]> {
  const ids: string[] = [];
  let readStdin = false;
  for (const a of args) {
    if (a !== "-") {
      ids.push(a);
      continue;
    }
    if (readStdin) throw new UsageError(`<${name}> - may be given once (it reads the ids from standard input)`);
    readStdin = true;
    if (ctx.io.stdinIsTTY)
      throw new UsageError(`<${name}> - reads ids from standard input, which is a terminal`, {
        hints: ["Pipe the ids in, one a line: `pep peptides list -o json | jq -r '.[].id' | pep peptides get -`."],
      });
    for (const line of (await readAll(ctx.io.stdin)).split(/\r?\n/)) {
      const id = line.trim();
      if (id === "" || id.startsWith("#")) continue;
      ids.push(id);
      if (ids.length > MAX_IDS) throw new UsageError(`standard input holds more than ${MAX_IDS} ids; split the list`);
    }
  }
  // Standard input with no ids (a search that found nothing) is an empty batch, as
  // `xargs -r` runs nothing: no output (`[]` as JSON) and exit 0.
  return ids;
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * A get-style command's result for its arguments: `one(id)` for a single id, else the
 * batch of every id (see the top of this file).
 */
export async function perId(
  ctx: Context,
  input: { args: string[]; opts: { concurrency?: string | undefined } },
  spec: { name: string; resource: Resource; check: (id: string) => string },
  one: (id: string) => Promise<ItemResult | ListResult>,
): Promise<Result> {
  const concurrency = concurrencyOf(input.opts.concurrency);
  if (!isBatch(input.args)) return one(input.args[0] ?? "");
  const ids = await idsOf(input.args, ctx, spec.name);
  // Every id is checked before the first request: a malformed one is a usage error of the
  // run (exit 2), and nothing is sent, as for any bad value.
  const checked = ids.map((id) => {
    try {
      return spec.check(id);
    } catch (err) {
      if (err instanceof UsageError)
        err.hints.push(`no id was looked up: every id is checked before the first request (${ids.length} given)`);
      throw err;
    }
  });
  return batchOf(checked, spec.resource, concurrency, one);
}

/** Looks `ids` up at most `concurrency` at a time; entries come out in the order of the ids. */
export function batchOf(
  ids: readonly string[],
  resource: Resource,
  concurrency: number,
  one: (id: string) => Promise<ItemResult | ListResult>,
): BatchResult {
  async function* entries(): AsyncGenerator<BatchEntry> {
    const pending = new Map<number, Promise<BatchEntry>>();
    let started = 0;
    const start = (i: number) => {
      const id = ids[i]!;
      // A thrown error is that id's failure like a rejected request.
      const entry = Promise.resolve()
        .then(() => one(id))
        .then(
          (result): BatchEntry => ({ id, result }),
          (error: unknown): BatchEntry => ({ id, error }),
        );
      pending.set(i, entry);
    };
    for (let i = 0; i < ids.length; i++) {
      while (started < ids.length && started < i + concurrency) start(started++);
      const entry = await pending.get(i)!;
      pending.delete(i);
      yield entry;
    }
  }
  return { kind: "batch", resource, entries: entries() };
}
