/**
 * `--jq <expr>`: the JSON a command prints, filtered by jq itself (jq 1.8, compiled to
 * WebAssembly by the jq-wasm package; no native build, nothing downloaded). Loaded only
 * when the flag is given.
 *
 * What the expression sees:
 * - with `-o json` (what --jq chooses when no -o is given): the whole JSON document the
 *   command would print: the `data` array of a list (every page: held in memory, as jq
 *   holds its input), the object of a single item, the array of a batch of ids;
 * - with `-o ndjson`: each item on its own, as `jq` reads NDJSON, in runs of about
 *   128 KB of items as the pages arrive, so memory stays flat however long the list.
 *
 * Output is jq's: JSON values indented by two spaces (one a line with -o ndjson),
 * strings as JSON strings, with what `-o json` escapes escaped too; `--jq-raw` prints
 * strings without quotes (jq's -r).
 */
import { Writable } from "node:stream";
import type { Jq } from "jq-wasm";
import { UsageError } from "../core/errors.js";
import { cleanBlock, inertJson } from "./sanitize.js";

let loaded: Promise<Jq> | undefined;

/** With -o ndjson, how much text is gathered before jq runs on it (see `jqStream`). */
const PER_ITEM_RUN = 128 * 1024;

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

export interface JqOptions {
  expr: string;
  /** `--jq-raw`: strings without quotes. */
  raw: boolean;
  /** Each item alone (ndjson) rather than the whole document. */
  perItem: boolean;
  /**
   * Output goes to a terminal: escape sequences, control characters and bidi overrides
   * are taken out of it (with --jq-raw a string from the API is printed as it is, and
   * jq leaves C1 controls unescaped even in JSON), as from every text pep prints there.
   */
  terminal?: boolean;
}

/**
 * A stream that takes the JSON text a writer produces and passes jq's output to `out`.
 * `finish()` runs what is left (the whole document for json) and waits for `out`.
 */
export async function jqStream(
  out: Writable,
  options: JqOptions,
): Promise<{ stream: Writable; finish(): Promise<void> }> {
  const jq = await load();
  const flags = [...(options.perItem ? ["-c"] : []), ...(options.raw ? ["-r"] : [])];
  let pending = "";
  const run = (input: string) => {
    if (input.trim() === "") return "";
    const r = jq.raw(input, options.expr, flags);
    if (r.exitCode !== 0 && r.exitCode !== undefined) {
      const message = jqMessage(r.stderr) || `jq exited with status ${r.exitCode}`;
      throw new UsageError(`--jq: ${message}`);
    }
    if (r.stdout === "") return "";
    // JSON text is written as -o json writes it: C1 controls, bidi overrides and line
    // separators (which jq leaves raw) as \u escapes, the same value once parsed. A
    // --jq-raw string is the text itself, as jq -r prints it (cleaned on a terminal).
    const json = options.raw ? r.stdout : inertJson(r.stdout);
    const text = options.terminal ? cleanBlock(json) : json;
    return `${text}\n`;
  };
  const write = (text: string) =>
    text === ""
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          out.write(text, (err) => (err ? reject(err) : resolve()));
        });
  const stream = new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _enc, done) {
      pending += typeof chunk === "string" ? chunk : chunk.toString("utf8");
      // Whole lines go through jq in runs of about 128 KB: each call of jq costs about as
      // much as reading 100 KB (a 10,000-study export took 4x longer fed page by page),
      // and a run that size keeps memory flat. A line cut by the chunk waits for its end.
      if (!options.perItem || pending.length < PER_ITEM_RUN) return done();
      const cut = pending.lastIndexOf("\n");
      if (cut === -1) return done();
      const lines = pending.slice(0, cut + 1);
      pending = pending.slice(cut + 1);
      let text: string;
      try {
        text = run(lines);
      } catch (err) {
        return done(err as Error);
      }
      write(text).then(() => done(), done);
    },
  });
  return {
    stream,
    async finish() {
      await new Promise<void>((resolve, reject) => {
        stream.end((err?: Error | null) => (err ? reject(err) : resolve()));
      });
      const rest = pending;
      pending = "";
      await write(run(rest));
    },
  };
}
