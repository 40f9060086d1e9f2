/**
 * The one entry point of the output layer: every command's `Result` goes through
 * `render()`, which picks the writer for the format (loaded with `import()` so that,
 * say, `-o json` never loads the table, card or citation code), streams the data to
 * `out` with backpressure, and tells notices on stderr: the affiliate disclosure for
 * machine formats (under the table for `table`), the cursor to continue from, and a
 * spinner on long list runs.
 */
import type { OutputFormat } from "../api/enums.js";
import { RESOURCES } from "../api/resources.js";
import type { BatchResult, ItemResult, ListResult, RawResult, Result } from "../core/command.js";
import { UsageError } from "../core/errors.js";
import type { Meta } from "../http/client-types.js";
import { write } from "../core/io.js";
import { makeContext, type RenderOptions, type WriterContext } from "./writer-context.js";

export type { RenderOptions } from "./writer-context.js";
import { isCitable } from "./citable.js";
import { isCI, LINE_DELAY_MS, NO_PROGRESS, OFF_TERMINAL_DELAY_MS, startProgress, type Progress } from "./progress.js";
import { cleanBlock, cleanLine } from "../core/sanitize.js";

type Writer = (result: ListResult | ItemResult | RawResult, ctx: WriterContext) => Promise<void>;

const CITATION_FORMATS = new Set<OutputFormat>(["bibtex", "ris", "csl-json"]);

async function loadWriter(format: OutputFormat): Promise<Writer> {
  switch (format) {
    case "json":
      return (await import("./json.js")).writeJson;
    case "ndjson":
      return (await import("./json.js")).writeNdjson;
    case "csv":
      return (await import("./csv.js")).writeCsv;
    case "tsv":
      return (await import("./tsv.js")).writeTsv;
    case "ids":
      return (await import("./ids.js")).writeIds;
    case "table":
      return (await import("./table-format.js")).writeHuman;
    case "bibtex":
    case "ris":
    case "csl-json": {
      const { writeCitations } = await import("./citation/write.js");
      return (result, ctx) => writeCitations(result, ctx, format);
    }
    default:
      throw new UsageError(`unknown output format: ${String(format)}`);
  }
}

function metaOf(result: ListResult | ItemResult | RawResult): Meta | undefined {
  if (result.kind === "item") return result.meta;
  return result.meta?.();
}

/** The disclosure as text: a string, or an object's `text`/`message` (with its `url`). */
export function disclosureText(meta: Meta | undefined): string | undefined {
  const d = meta?.affiliate_disclosure;
  if (typeof d === "string") return d.trim() === "" ? undefined : cleanBlock(d).trim();
  if (d && typeof d === "object" && !Array.isArray(d)) {
    const o = d as Record<string, unknown>;
    const text = [o.text, o.message, o.disclosure].find((v) => typeof v === "string");
    const url = typeof o.url === "string" ? ` ${cleanLine(o.url)}` : "";
    return typeof text === "string" ? cleanBlock(text).trim() + url : undefined;
  }
  return undefined;
}

function startSpinner(result: ListResult | ItemResult | RawResult, options: RenderOptions): Progress {
  const streams = result.kind === "list" || (result.kind === "raw" && result.items !== undefined);
  if (!streams || options.quiet || options.paging) return NO_PROGRESS;
  const noun = result.kind === "list" ? RESOURCES[result.resource].nouns[1] : "items";
  const env = options.env ?? {};
  return startProgress({
    stream: options.stderr,
    label: result.kind === "list" && result.spinner ? result.spinner.label : `Fetching ${noun}`,
    ...(result.kind === "list" && result.spinner ? { unit: result.spinner.unit } : {}),
    counts: (seen) => (result.kind === "list" && result.progress ? result.progress() : { pages: 0, items: seen }),
    delayMs: options.progressDelayMs,
    clock: options.progressClock,
    color: options.stderrColor,
    env,
    // Off a terminal: plain lines for a long run (a CI log would otherwise stay silent).
    ...(options.stderrIsTTY ? {} : { mode: "lines", lineDelayMs: isCI(env) ? LINE_DELAY_MS : OFF_TERMINAL_DELAY_MS }),
  });
}

/**
 * Writes a command's result in the chosen format. Throws `UsageError` for a citation
 * format on anything but studies, and whatever the result's items throw (the partial
 * output is left as it is, so a cut JSON array stays visibly unfinished).
 */
/** Prints `result`; returns how many items went out (a card or a whole body is one). */
export async function render(result: Result, options: RenderOptions): Promise<number> {
  if (result.kind === "none") return 0;
  if (result.kind === "text") {
    const p = write(options.out, result.text);
    if (p) await p;
    return 1;
  }
  if (CITATION_FORMATS.has(options.format) && !isCitable(result)) {
    throw new UsageError(
      `-o ${options.format} is for studies only (studies list, studies get, studies export, peptides studies)`,
    );
  }
  if (result.kind === "batch") return renderBatch(result, options);
  const writer = options.jq ? await (await import("./jq.js")).jqWriter(options.jq) : await loadWriter(options.format);
  const fields = options.fields ?? (result.kind === "list" ? result.fields : undefined);
  const progress = startSpinner(result, options);
  // Retry and wait lines say which page they hold up: the one after those fetched.
  const page = result.kind === "list" && result.progress ? () => result.progress!().pages + 1 : undefined;
  options.waits?.attach(progress, page);
  const pageEnded = result.kind === "item" ? undefined : result.pageEnded;
  const ctx = makeContext(options, fields, progress, pageEnded);
  try {
    await writer(result, ctx);
  } catch (err) {
    // What arrived before the failure is written, as it was when each item went out alone.
    await Promise.resolve()
      .then(() => ctx.flush())
      .catch(() => undefined);
    throw err;
  } finally {
    options.waits?.attach(undefined);
    progress.stop();
  }
  const disclosure = disclosureText(metaOf(result));
  if (disclosure !== undefined) {
    if (options.format === "table" && result.kind !== "raw") {
      const { wrap } = await import("./width.js");
      await ctx.emit(`\n${wrap(disclosure, options.columns).join("\n")}\n`);
    } else await ctx.notice(disclosure);
  }
  await ctx.flush();
  return result.kind === "item" || (result.kind === "raw" && result.items === undefined) ? 1 : ctx.handedOut();
}

/**
 * A batch of ids. On a terminal (table) each id's card, or list, in turn; in every other
 * format one list of every item in the order of the ids (a JSON array, NDJSON lines, CSV
 * rows under one header, citations), streamed. A failed id goes to `onFailure`.
 */
/** Resources a batch prints once each: a study cited by two of the peptides asked about. */
const ONCE_EACH: ReadonlySet<string> = new Set(["study", "cited-study", "study-detail"]);

/**
 * Whether an item of a batch is new: studies are printed once each, where they first
 * come (by `id`); other resources and items without an id always are.
 */
function firstSighting(resource: string): (item: unknown) => boolean {
  if (!ONCE_EACH.has(resource)) return () => true;
  const seen = new Set<string>();
  return (item) => {
    const id = (item as { id?: unknown } | null)?.id;
    if (typeof id !== "string") return true;
    if (seen.has(id)) return false;
    seen.add(id);
    return true;
  };
}

async function* only(items: AsyncIterable<unknown>, keep: (item: unknown) => boolean): AsyncGenerator<unknown> {
  for await (const item of items) if (keep(item)) yield item;
}

async function renderBatch(batch: BatchResult, options: RenderOptions): Promise<number> {
  const failed = (id: string, err: unknown) => {
    if (options.onFailure) options.onFailure(id, err);
    else throw err;
  };
  const fresh = firstSighting(batch.resource);
  if (options.format === "table") return renderBatchCards(batch, options, fresh, failed);
  return render(batchAsList(batch, fresh, failed), options);
}

/** On a terminal: each id's card, or its list under a heading, in turn. */
async function renderBatchCards(
  batch: BatchResult,
  options: RenderOptions,
  fresh: (item: unknown) => boolean,
  failed: (id: string, err: unknown) => void,
): Promise<number> {
  let written = 0;
  let first = true;
  for await (const entry of batch.entries) {
    if (options.signal?.aborted) break;
    if (entry.result === undefined) {
      failed(entry.id, entry.error);
      continue;
    }
    const result = entry.result;
    if (result.kind === "item" && !fresh(result.data)) continue;
    const heading = result.kind === "list" ? `${cleanLine(entry.id)}:\n` : "";
    const p = write(options.out, `${first ? "" : "\n"}${heading}`);
    if (p) await p;
    first = false;
    written += await render(result.kind === "list" ? { ...result, items: only(result.items, fresh) } : result, options);
  }
  return written;
}

/** In every other format: one list of every item, in the order of the ids. */
function batchAsList(
  batch: BatchResult,
  fresh: (item: unknown) => boolean,
  failed: (id: string, err: unknown) => void,
): ListResult {
  let lastMeta: Meta | undefined;
  let fields: string[] | undefined;
  // A list's pages are the units --jq runs on (and where a stopped run ends); the single
  // items of a batch make one unit, the batch's array, as the ids given bound it.
  let unitEnded = false;
  async function* listItems(r: ListResult): AsyncGenerator<unknown> {
    fields ??= r.fields;
    const ended = r.pageEnded;
    // Without pages, one item is held back, so the list's last is known when it goes out.
    let held: { item: unknown } | undefined;
    for await (const item of only(r.items, fresh)) {
      if (ended) {
        unitEnded = ended();
        yield item;
        continue;
      }
      if (held) {
        unitEnded = false;
        yield held.item;
      }
      held = { item };
    }
    lastMeta = r.meta() ?? lastMeta;
    if (held) {
      unitEnded = true;
      yield held.item;
    }
  }
  async function* items(): AsyncGenerator<unknown> {
    for await (const entry of batch.entries) {
      if (entry.result === undefined) {
        failed(entry.id, entry.error);
        continue;
      }
      const r = entry.result;
      if (r.kind === "list") {
        yield* listItems(r);
        continue;
      }
      lastMeta = r.meta ?? lastMeta;
      unitEnded = false;
      if (fresh(r.data)) yield r.data;
    }
  }
  return {
    kind: "list",
    resource: batch.resource,
    items: items(),
    meta: () => lastMeta,
    nextCursor: () => undefined,
    pageEnded: () => unitEnded,
    get fields() {
      return fields;
    },
  };
}
