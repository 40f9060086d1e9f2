/**
 * What every format writer gets from `render()`: the options, a backpressured `emit`
 * for data, `notice` for stderr (which first takes the spinner down), and `each` to walk
 * a list's items with progress and Ctrl-C checks.
 *
 * Off a terminal, `emit` gathers the items of one page into one write: a list's items
 * arrive page by page, and one write per item cost more than the rest of an export's
 * output work (10,000 writes for 10,000 studies). What was gathered is written before
 * the run next waits on anything (the next page, a full pipe), at 16 KB, before a
 * notice, and by `flush()`, which `render()` calls whether the writer ends or fails.
 */
import type { Waits } from "./waits.js";
import type { Writable } from "node:stream";
import type { OutputFormat } from "../api/enums.js";
import { InterruptedError } from "../core/errors.js";
import { write } from "../core/io.js";
import type { Progress, ProgressClock } from "./progress.js";
import { cleanBlock } from "../core/sanitize.js";

/** `--jq`: the expression and how its output is printed. */
export interface JqOptions {
  expr: string;
  /** `--jq-raw`: strings without quotes. */
  raw: boolean;
  /** Each item alone (ndjson) rather than each page. */
  perItem: boolean;
  /** `--slurp`: every page's items as one array, jq run once at the end. */
  slurp?: boolean;
  /**
   * Output goes to a terminal: escape sequences, control characters and bidi overrides
   * are taken out of it (with --jq-raw a string from the API is printed as it is, and
   * jq leaves C1 controls unescaped even in JSON), as from every text pep prints there.
   */
  terminal?: boolean;
}

/** What `render()` is told about where and how to print. */
export interface RenderOptions {
  format: OutputFormat;
  /** Where data goes (stdout, or the temp file of `--file`). */
  out: Writable;
  /** Data goes to a terminal (hyperlinks, next-cursor hint). */
  outIsTTY: boolean;
  /** Terminal width for tables and cards. */
  columns: number;
  /** Colours allowed. */
  color: boolean;
  /** OSC 8 links allowed on names. */
  hyperlinks: boolean;
  /** `--fields`: the columns (and CSV header) to show. */
  fields?: string[] | undefined;
  /** Notices: affiliate disclosure for machine formats, next-cursor hint, spinner. */
  stderr: Writable;
  /** Spinner and progress only then. */
  stderrIsTTY: boolean;
  /**
   * On a terminal, the notes a table leaves (hidden columns, a cut list) are gathered here
   * instead of told, for the pipeline to fold them with the cursor into one line.
   */
  heldNotes?: string[] | undefined;
  /** No notices, no progress. */
  quiet: boolean;
  signal?: AbortSignal;
  /** Milliseconds before the spinner shows (default 300; tests pass 0). */
  progressDelayMs?: number;
  /** Colour on stderr (the spinner's frames). */
  stderrColor?: boolean;
  /** The environment: TERM=dumb and CI get progress as plain lines (no line to redraw). */
  env?: Record<string, string | undefined>;
  /** Retry and rate-limit waits: shown in the spinner's line while it runs. */
  waits?: Waits;
  /** Time of the progress (output/progress.ts REAL_TIME unless a test gave its own). */
  progressClock?: ProgressClock | undefined;
  /** A pager holds the terminal: no spinner (it would draw inside the pager's screen). */
  paging?: boolean;
  /**
   * The output goes on after what an earlier run kept (a `--file` export finished from its
   * partial): `items` already written (no second CSV header, no second `[`), and the
   * citation keys used (none made twice).
   */
  continuing?: { items: number; keys: readonly string[] } | undefined;
  /** CSV/TSV cells guarded against spreadsheets (default true; `--no-formula-guard`). */
  formulaGuard?: boolean;
  /** The run's answers are synthetic sandbox data: citations carry a note saying so. */
  synthetic?: () => boolean;
  /** `--jq`: jq takes the place of the JSON encoder. */
  jq?: JqOptions | undefined;
  /**
   * An id of a batch failed (`pep peptides get a nosuch c`): told here, in the order of
   * the ids, while the others are printed.
   */
  onFailure?: (id: string, err: unknown) => void;
}

export interface WriterContext {
  options: RenderOptions;
  /** `--fields` from the options, else from the result. */
  fields: string[] | undefined;
  /** Writes data to `out`, waiting when its buffer is full. */
  emit(chunk: string): Promise<void> | void;
  /** Writes a line to stderr (unless quiet), after stopping the spinner. */
  notice(line: string): Promise<void> | void;
  /**
   * The items of a list, one at a time, with progress ticks and abort checks. When the
   * result knows its pages, a stopped run (Ctrl-C, the pager quit) still hands out the
   * rest of the page at hand, so that what went out ends on a page and the resume cursor
   * follows it.
   */
  each(items: AsyncIterable<unknown> | Iterable<unknown>): AsyncIterable<unknown>;
  /** How many items `each` has handed out so far. */
  handedOut(): number;
  progress: Progress;
  /** Writes what `emit` has gathered, and waits for it like `emit` would. */
  flush(): Promise<void> | void;
}

/** Gathered output is written once it reaches this size, without waiting for the page. */
const GATHER_MAX = 16 * 1024;

/**
 * Output gathered off a terminal: `add` keeps a chunk, written at GATHER_MAX, once the
 * items at hand are done, or by `flush`. Holds the pending wait for a full stream, and a
 * write error met while nobody was waiting (thrown by the next `add` or `flush`).
 */
function gatherer(out: Writable): { add(chunk: string): Promise<void> | void; flush(): Promise<void> | void } {
  let gathered = "";
  let scheduled = false;
  let waiting: Promise<void> | undefined;
  let failed: { error: unknown } | undefined;
  const rethrow = () => {
    if (failed) throw failed.error;
  };
  const writeGathered = (): Promise<void> | void => {
    if (gathered === "") return waiting;
    const chunk = gathered;
    gathered = "";
    const p = write(out, chunk);
    if (!p) return waiting;
    const wait: Promise<void> = p.then(
      () => {
        if (waiting === wait) waiting = undefined;
      },
      (error: unknown) => {
        failed ??= { error };
        if (waiting === wait) waiting = undefined;
        throw error;
      },
    );
    // A wait that nobody awaits (a scheduled write) must not end the process as unhandled.
    wait.catch(() => undefined);
    waiting = wait;
    return wait;
  };
  const flush = (): Promise<void> | void => {
    rethrow();
    if (waiting) {
      const before = waiting;
      return before.then(() => flush());
    }
    return writeGathered();
  };
  const add = (chunk: string): Promise<void> | void => {
    rethrow();
    gathered += chunk;
    if (waiting) return waiting;
    if (gathered.length >= GATHER_MAX) return writeGathered();
    if (!scheduled) {
      scheduled = true;
      // Runs once the items at hand are done and the run would wait on I/O.
      setImmediate(() => {
        scheduled = false;
        if (!waiting && !failed) void writeGathered();
      });
    }
    return undefined;
  };
  return { add, flush };
}

export function makeContext(
  options: RenderOptions,
  fields: string[] | undefined,
  progress: Progress,
  pageEnded: () => boolean = () => true,
): WriterContext {
  let handed = 0;
  const check = () => {
    if (options.signal?.aborted) throw new InterruptedError();
  };
  const gathered = gatherer(options.out);
  const flush = gathered.flush;
  return {
    options,
    fields,
    progress,
    emit(chunk) {
      if (chunk === "") return;
      if (options.outIsTTY) {
        progress.clear();
        return write(options.out, chunk);
      }
      return gathered.add(chunk);
    },
    flush,
    async notice(line) {
      progress.stop();
      if (options.quiet) return;
      await flush();
      // Notices name API keys and values (hidden columns, the disclosure): cleaned here, whoever calls.
      const text = cleanBlock(line);
      return write(options.stderr, text.endsWith("\n") ? text : `${text}\n`);
    },
    handedOut: () => handed,
    async *each(items) {
      // Checked after each page (each item when pages are not known): a run stopped
      // while one was being written asks for no further page.
      check();
      for await (const item of items) {
        progress.tick();
        handed++;
        yield item;
        if (pageEnded()) check();
      }
      check();
    },
  };
}
