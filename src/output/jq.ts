/**
 * `--jq <expr>`: the JSON a command prints, filtered by jq itself (jq 1.8, compiled to
 * WebAssembly by the jq-wasm package; no native build, nothing downloaded). Loaded only
 * when the flag is given.
 *
 * What the expression sees, as `gh api --paginate --jq` gives it:
 * - with `-o json` (what --jq chooses when no -o is given): each page of a list as an
 *   array, in turn (one page when the list has no pages: a batch id's items, profiles),
 *   the object of a single item;
 * - with `-o ndjson`: each item on its own, as `jq` reads NDJSON;
 * - with `--slurp` (gh's): the whole list as one array, jq run once after the last page
 *   (`studies list --all --jq length --slurp` is the count of the whole list).
 * jq runs as each page arrives, so output streams, memory stays flat, and a run cut
 * short has printed exactly the pages before the failure (its resume cursor follows them).
 *
 * Output is jq's: JSON values indented by two spaces (one a line with -o ndjson),
 * strings as JSON strings, with what `-o json` escapes escaped too; `--jq-raw` prints
 * strings without quotes (jq's -r).
 */
import type { Jq } from "jq-wasm";
import { UsageError } from "../core/errors.js";
import { stringifyExact } from "../core/exact-number.js";

/** JSON text of `v` for jq, every number as the API wrote it. */
const json = (v: unknown): string => stringifyExact(v) ?? "null";
import type { ItemResult, ListResult, RawResult } from "../core/command.js";
import { cleanBlock, inertJson } from "../core/sanitize.js";
import type { JqOptions, WriterContext } from "./writer-context.js";

export type { JqOptions } from "./writer-context.js";

let loaded: Promise<Jq> | undefined;

function load(): Promise<Jq> {
  loaded ??= import("jq-wasm").then((m) => m.loadJq());
  return loaded;
}

/** jq's own message, without its `jq: error: ` prefix and trailing count line. */
function jqMessage(stderr: string): string {
  // jq's first line says what is wrong and where (line and column); the lines under it
  // redraw the expression with a caret, which a one-line message cannot keep.
  const first = stderr.trim().split("\n")[0] ?? "";
  return first
    .replace(/^jq: error: /, "")
    .replace(/^jq: error \(at [^)]*\): /, "")
    .replace(/:$/, "");
}

/** Compiles `expr` before any request: an invalid one is a usage error with jq's words. */
export async function checkJq(expr: string): Promise<void> {
  if (expr.trim() === "") throw new UsageError("--jq needs an expression, such as '.[].id'");
  const jq = await load();
  const r = jq.raw(null, expr, ["-n"]);
  if (r.exitCode === 3) throw new UsageError(`--jq: ${jqMessage(r.stderr)}`);
}

type Source = ListResult | ItemResult | RawResult;

/**
 * The `--jq` encoder: jq over each page (or, with ndjson, each item of it: one jq call a
 * page, since jq reads each input on its own) as the pages arrive. What jq printed for
 * the inputs before a failing one is written before its error.
 */
export async function jqWriter(options: JqOptions): Promise<(result: Source, ctx: WriterContext) => Promise<void>> {
  const jq = await load();
  const flags = [...(options.perItem ? ["-c"] : []), ...(options.raw ? ["-r"] : [])];
  const run = async (input: string, ctx: WriterContext) => {
    const r = jq.raw(input, options.expr, flags);
    if (r.stdout !== "") {
      // JSON text is written as -o json writes it: C1 controls, bidi overrides and line
      // separators (which jq leaves raw) as \u escapes, the same value once parsed. A
      // --jq-raw string is the text itself, as jq -r prints it (cleaned on a terminal).
      const json = options.raw ? r.stdout : inertJson(r.stdout);
      const text = options.terminal ? cleanBlock(json) : json;
      await ctx.emit(text.endsWith("\n") ? text : `${text}\n`);
    }
    if (r.exitCode !== 0 && r.exitCode !== undefined) {
      const message = jqMessage(r.stderr) || `jq exited with status ${r.exitCode}`;
      throw new UsageError(`--jq: ${message}`);
    }
  };
  const asInput = (values: readonly unknown[]) => (options.perItem ? values.map(json).join("\n") : json(values));
  return async (result, ctx) => {
    if (result.kind === "item") return run(json(result.data), ctx);
    if (result.kind === "raw" && result.items === undefined) return run(result.text ?? json(result.body ?? null), ctx);
    const items = result.items!;
    if (options.slurp) {
      // The whole list at once: jq sees one array (gh's --slurp), after the last page.
      const all: unknown[] = [];
      for await (const item of ctx.each(items)) all.push(item);
      return run(json(all), ctx);
    }
    const pageEnded = result.pageEnded;
    let page: unknown[] = [];
    let ran = false;
    for await (const item of ctx.each(items)) {
      page.push(item);
      if (pageEnded?.() === true) {
        const input = page;
        page = [];
        if (input.length === 0) continue;
        ran = true;
        await run(asInput(input), ctx);
      }
    }
    // What is left: a list with no pages, the last page's rest, or an empty list (`[]`).
    if (page.length > 0 || (!ran && !options.perItem)) await run(asInput(page), ctx);
  };
}
