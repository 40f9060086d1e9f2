/**
 * The citation formats (`bibtex`, `ris`, `csl-json`) for study lists and single studies.
 * Written by hand rather than through citation.js: its core and plugins are large, load
 * synchronously as a whole and build a full in-memory library before output, while a
 * `studies export --all` must stream item by item. The tests read the output back with
 * citation.js's real parsers to prove it imports.
 */
import type { ItemResult, ListResult, RawResult } from "../../core/command.js";
import type { OutputFormat } from "../../api/enums.js";
import { UsageError } from "../../core/errors.js";
import type { WriterContext } from "../writer-context.js";
import { writeJsonArray } from "../json.js";
import { bibtexEntry } from "./bibtex.js";
import { cslItem } from "./csl.js";
import { recordMaker } from "./record.js";
import { isCitable } from "../citable.js";
import { risRecord } from "./ris.js";

export function assertCitable(result: ListResult | ItemResult | RawResult, format: OutputFormat): void {
  if (!isCitable(result)) {
    throw new UsageError(
      `-o ${format} is for studies only (studies list, studies get, studies export, peptides studies)`,
    );
  }
}

function itemsOf(result: ListResult | ItemResult): AsyncIterable<unknown> | Iterable<unknown> {
  if (result.kind === "list") return result.items;
  return Array.isArray(result.data) ? result.data : [result.data];
}

async function* asAsync(items: AsyncIterable<unknown> | Iterable<unknown>): AsyncIterable<unknown> {
  yield* items;
}

export async function writeCitations(
  result: ListResult | ItemResult | RawResult,
  ctx: WriterContext,
  format: "bibtex" | "ris" | "csl-json",
): Promise<void> {
  assertCitable(result, format);
  if (result.kind === "raw") return;
  const record = recordMaker(() => ctx.options.synthetic?.() === true, ctx.options.continuing?.keys ?? []);
  if (format === "csl-json") return writeJsonArray(asAsync(itemsOf(result)), ctx, (s) => cslItem(record(s)));
  const entry = format === "bibtex" ? bibtexEntry : risRecord;
  const sep = format === "bibtex" ? "\n" : "\r\n";
  let first = !ctx.options.continuing?.items;
  for await (const study of ctx.each(itemsOf(result))) {
    const p = ctx.emit((first ? "" : sep) + entry(record(study)));
    if (p) await p;
    first = false;
  }
}
