/**
 * The output pipeline, the same for every command and format: the result's pages →
 * `--jq` when given → the encoder of the format (table, card, json, ndjson, csv, tsv,
 * citations) → the sink (stdout, the pager, or the temp file of `--file`). It is the one
 * place that settles a run's output: a write error on any sink fails the run (exit 1),
 * a failure leaves what reached the sink a whole prefix (the file target untouched), a
 * batch's failed ids set the exit code, and "wrote N" is said only once the file is in
 * place.
 */
import type { Writable } from "node:stream";
import { RESOURCES } from "../api/resources.js";
import type { ListResult, Result } from "../core/command.js";
import { EXIT, InterruptedError } from "../core/errors.js";
import { colorEnabled, type Pager } from "../core/io.js";
import type { RenderOptions } from "../output/writer-context.js";
import { hyperlinksSupported } from "../output/hyperlinks.js";
import type { PageWatch } from "./page-tracker.js";
import { formulaGuardOf, hintSandboxNames, type Prepared } from "./prepared.js";
import { report } from "./report.js";
import { resumeCommand } from "./resume.js";
import { foldCommand, foldNote } from "./fold.js";

/** Where the encoded output goes. */
interface Sink {
  /** Renames what was written to `into` instead of the target (a `--file` sink only). */
  keep?(into: string): Promise<void>;
  readonly kind: "stdout" | "pager" | "file";
  readonly out: Writable;
  readonly isTTY: boolean;
  /** Where notices go while the sink holds the terminal. */
  readonly stderr: Writable;
  readonly signal: AbortSignal;
  /** Waits until everything written is where it belongs (flushed, renamed, the pager quit). */
  settle(): Promise<void>;
  /** Drops what cannot be kept (the temp file), releases the terminal. */
  abort(): Promise<void>;
  /**
   * The user ended the output (quit the pager), not a failure: the pager exited before the
   * run ended its input, or `err` is the broken pipe of writing to a pager that exited.
   */
  quitByUser(err?: unknown): boolean;
}

/** Delivers `result`; resolves to the run's exit code, or throws what failed. */
export async function deliver(p: Prepared, delivered: Result): Promise<number> {
  let result = delivered;
  if (result.kind === "none") return result.exitCode ?? EXIT.ok;
  // A check answered by its exit status says nothing more under -q.
  if (p.inv.def.probe && p.inv.globals.quiet === true) return EXIT.ok;
  const { render } = await import("../output/render.js");
  // Items of the API's lists are watched and de-duplicated by id; rows of the library's own
  // commands (pep sql, pep changes: several change rows share an item's id) and `pep api`'s
  // raw pages are printed as they come.
  const watched = result.kind === "list" && p.inv.def.calls !== undefined ? await watchList(p, result) : undefined;
  if (watched) result = watched.result;
  const sink = await openSink(p);
  let batchExit: number | undefined;
  const onFailure = (id: string, err: unknown) => {
    if (p.inv.sandbox) hintSandboxNames(err);
    const code = report(err, p.io, p.inv, {
      verbose: p.inv.globals.verbose === true,
      machine: p.machineErrors,
      subject: id,
      profile: p.inv.profile,
    });
    batchExit ??= code;
  };
  let written: number;
  const options = renderOptions(p, sink, onFailure, await formulaGuardOf(p));
  try {
    written = await render(result, options);
    if (p.io.signal.aborted) throw new InterruptedError();
    await sink.settle();
  } catch (err) {
    tellDuplicates(p, watched?.watch);
    if (!(await keptPartOf(p, sink, result, err, watched?.watch))) await sink.abort().catch(() => {});
    // Quitting the pager (q) ends the run quietly, with what was read, and where to go on
    // from: the start of the page it stopped in.
    if (sink.quitByUser(err)) {
      const at = stoppedAt(p, result);
      tellNotes(p, options.heldNotes, at && { command: at.command, where: `from item ${at.from}` });
      return EXIT.ok;
    }
    throw err;
  }
  tellDuplicates(p, watched?.watch);
  if (p.partial !== undefined) (await import("./partial-run.js")).finishedPartial(p);
  const total = written + (p.partial?.items ?? 0);
  // The export is in place: its manifest says how it was made (never for a cut export).
  if (sink.kind === "file" && p.inv.globals.manifest === true)
    await (await import("./manifest-stage.js")).writeRunManifest(p, {
      items: written,
      duplicates: watched?.watch.duplicates ?? 0,
      ids: watched?.watch.ids ?? [],
    });
  // Where the output went, and how much of it: on a terminal and in a CI log alike (not under -q).
  if (sink.kind === "file") p.ctx.notice(`wrote ${countOf(total, result)} to ${p.inv.globals.file}`);
  const cursor = result.kind === "list" ? result.nextCursor() : undefined;
  // Through a pager the reader may have quit before the end: the line says where it goes on.
  const where = sink.kind === "pager" ? `after item ${written}` : undefined;
  tellNotes(
    p,
    options.heldNotes,
    // After a --file, the next part goes to a file of its own, never over this one.
    cursor ? { command: resumeCommand(p.inv.argv, cursor, { offline: p.offline, nextFile: true }), where } : undefined,
  );
  return batchExit ?? (result.kind === "list" || result.kind === "item" ? result.exitCode : undefined) ?? EXIT.ok;
}

/** The command that shows again the page the output stopped in (the pager quit), when it has a cursor. */
function stoppedAt(p: Prepared, result: Result): { command: string; from: number } | undefined {
  const at = result.kind === "list" ? result.pageAt?.() : undefined;
  if (at?.cursor === undefined) return undefined;
  const limit = p.inv.input.opts.limit;
  const remaining = typeof limit === "number" ? Math.max(1, limit - at.before) : undefined;
  return { command: resumeCommand(p.inv.argv, at.cursor, { remaining, offline: p.offline }), from: at.before + 1 };
}

/**
 * What a table left unsaid and how to go on. Off a terminal (and for every other format)
 * a list that stopped with more to come says how to go on in one stable line a script
 * can pick out:
 *   to continue: pep studies list --limit 20 --cursor=<c>
 * On a terminal, after a table, the notes are one line folded to the width (a flag kept
 * with its value), and the command folded too, with ` \` continuations, so that its
 * lines pasted into a shell are still one command (cli/fold.ts).
 */
function tellNotes(
  p: Prepared,
  held: readonly string[] | undefined,
  next: { command: string; where?: string | undefined } | undefined,
): void {
  if (held === undefined) {
    if (next !== undefined) p.ctx.notice(`to continue: ${next.command}`);
    return;
  }
  if (held.length > 0) p.ctx.notice(foldNote(`note: ${held.join("; ")}`, p.io.columns));
  if (next !== undefined)
    p.ctx.notice(foldCommand(`to continue${next.where ? ` (${next.where})` : ""}: `, next.command, p.io.columns));
}

function renderOptions(
  p: Prepared,
  sink: Sink,
  onFailure: RenderOptions["onFailure"],
  formulaGuard: boolean,
): RenderOptions {
  const { io, inv } = p;
  const { globals } = inv;
  const color = colorEnabled(io.env, io.stdoutIsTTY, globals.color);
  const jq = globals.jq;
  return {
    format: p.format,
    out: sink.out,
    // jq's output is text of its own: no table, links or colour decisions apply to it.
    outIsTTY: sink.isTTY && jq === undefined,
    columns: io.columns,
    // FORCE_COLOR colours a pipe too; a --file never gets colour codes. Links stay
    // terminal-only, and only where the terminal renders them (output/hyperlinks.ts): a
    // pipe's reader may not understand OSC 8, nor every pager.
    color: color && sink.kind !== "file" && jq === undefined,
    hyperlinks: sink.kind === "stdout" && jq === undefined && hyperlinksSupported(io.env, sink.isTTY, color),
    fields: inv.fields?.length ? [...inv.fields] : undefined,
    stderr: sink.stderr,
    // The spinner redraws a line: only where the output shares the terminal (or goes to a
    // --file); with stdout to a pipe (`| head`) the run may end at the reader's word, and
    // a spinner would be left on the prompt's line. Plain lines then, for a long run.
    stderrIsTTY: io.stderrIsTTY && (io.stdoutIsTTY || sink.kind === "file"),
    // On a terminal a table's notes wait, to be one line with the cursor (tellNotes).
    heldNotes: io.stderrIsTTY && p.format === "table" && jq === undefined && globals.quiet !== true ? [] : undefined,
    paging: sink.kind === "pager",
    quiet: globals.quiet === true,
    signal: sink.signal,
    stderrColor: colorEnabled(io.env, io.stderrIsTTY, globals.color),
    env: io.env,
    waits: p.ctx.waits,
    progressClock: p.ctx.progressClock,
    onFailure,
    formulaGuard,
    synthetic: () => p.ctx.synthetic(),
    continuing: p.partial ? { items: p.partial.items, keys: p.partial.keys } : undefined,
    jq:
      jq === undefined
        ? undefined
        : {
            expr: jq,
            raw: globals.jqRaw === true,
            perItem: p.format === "ndjson" && globals.slurp !== true,
            slurp: globals.slurp === true,
            terminal: sink.isTTY,
          },
  };
}

async function openSink(p: Prepared): Promise<Sink> {
  if (p.file !== undefined) return fileSink(p, p.file);
  const { io } = p;
  if (io.stdoutIsTTY && io.canPage && p.inv.globals.pager !== false) {
    const pager = await openPager(p);
    if (pager) return pagerSink(p, pager);
  }
  return stdoutSink(p);
}

function stdoutSink(p: Prepared): Sink {
  const { io } = p;
  return {
    kind: "stdout",
    out: io.stdout,
    isTTY: io.stdoutIsTTY,
    stderr: io.stderr,
    signal: io.signal,
    // A write error met after the last write (a full disk under `> file`) is the run's.
    settle: () => flushed(io.stdout),
    abort: async () => {},
    quitByUser: () => false,
  };
}

async function fileSink(p: Prepared, path: string): Promise<Sink> {
  const { openAtomicFile } = await import("../output/file.js");
  const from = p.partial
    ? {
        path: (await import("../output/partial.js")).partialPaths(path).data,
        bytes: p.partial.bytes,
        sha256: p.partial.sha256,
      }
    : undefined;
  const target = await openAtomicFile(path, from === undefined ? {} : { from });
  // A second Ctrl-C exits at once, before the run unwinds: the temp file goes first.
  const forget = p.ending.onHardExit(() => target.discardSync());
  return {
    kind: "file",
    out: target.stream,
    isTTY: false,
    stderr: p.io.stderr,
    signal: p.io.signal,
    async settle() {
      await target.commit();
      forget();
    },
    async abort() {
      await target.abort();
      forget();
    },
    ...(target.keepable
      ? {
          async keep(into: string) {
            await target.commit(into);
            forget();
          },
        }
      : {}),
    quitByUser: () => false,
  };
}

/**
 * A `--file` export cut short keeps its whole pages as `<file>.partial` when it has a
 * cursor to go on from; a stored cursor the API refused is not kept, but started over.
 */
async function keptPartOf(
  p: Prepared,
  sink: Sink,
  result: Result,
  err: unknown,
  watch: PageWatch | undefined,
): Promise<boolean> {
  if (sink.keep === undefined || p.file === undefined) return false;
  const run = await import("./partial-run.js");
  if (run.refusedStoredCursor(p, err)) {
    await sink.abort().catch(() => {});
    throw new run.StoredCursorRefused(err);
  }
  const keep = sink.keep;
  return run.keepPartial(p, result, err, (into) => keep(into), watch);
}

async function pagerSink(p: Prepared, pager: Pager): Promise<Sink> {
  const { io } = p;
  // Notices wait until the pager is gone (they would land inside its screen); no spinner.
  p.ctx.waits.paging();
  const held = new (await import("node:stream")).PassThrough();
  // Whether the pager had already exited when the run ended its input: only then did the
  // user quit it. A run that fails ends the input itself (so the pager shows what came and
  // the error follows it); the pager exiting after that is no quit, and the error stands.
  let ended = false;
  let quitFirst = false;
  const close = async () => {
    if (!ended) {
      ended = true;
      quitFirst = pager.closed;
      if (!pager.closed) pager.stream.end();
    }
    await pager.exited;
    held.end();
    const text = held.read() as Buffer | string | null;
    if (text) io.stderr.write(text);
  };
  return {
    kind: "pager",
    out: pager.stream,
    isTTY: true,
    stderr: held,
    signal: AbortSignal.any([io.signal, pager.signal]),
    settle: close,
    abort: close,
    quitByUser: (err) => !io.signal.aborted && pager.closed && ((ended ? quitFirst : true) || brokenPipe(err)),
  };
}

/** The pager for this run, or undefined (none chosen, or it cannot be started: said on stderr). */
async function openPager(p: Prepared): Promise<Pager | undefined> {
  const { pagerCommand, startPager } = await import("../core/io.js");
  const configured = p.inv.def.offline ? undefined : (await p.config()).pager;
  const chosen = pagerCommand(p.io.env, configured);
  if (!chosen) return undefined;
  const pager = await startPager(chosen.command, p.io.env);
  if (!pager)
    p.ctx.notice(`warning: cannot run the pager "${chosen.command}" (from ${chosen.where}); printing without it`);
  return pager;
}

/** Resolves once what was written to `stream` has left it; rejects with its write error. */
function flushed(stream: Writable): Promise<void> {
  if (stream.errored) return Promise.reject(stream.errored);
  if (stream.destroyed || stream.writableEnded) return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.write("", (err) => (err ? reject(err) : resolve()));
  });
}

/**
 * A list's items, de-duplicated by id across pages (and against the partial this run
 * finishes), its pages watched for the state a cut-short `--file` export keeps.
 */
async function watchList(p: Prepared, result: ListResult): Promise<{ result: ListResult; watch: PageWatch }> {
  const { watchPages } = await import("./page-tracker.js");
  const seed = p.partial
    ? { ids: p.partial.ids, lastPage: p.partial.last_page, firstPage: p.partial.first_page }
    : undefined;
  const hash = p.file === undefined ? undefined : (await import("node:crypto")).createHash;
  return watchPages(result, seed, hash);
}

/** Items the API sent on more than one page go out once: the notice says how many were skipped. */
function tellDuplicates(p: Prepared, watch: PageWatch | undefined): void {
  const n = watch?.duplicates ?? 0;
  if (n > 0)
    p.ctx.notice(
      `skipped ${n} duplicate item${n === 1 ? "" : "s"}: ${n === 1 ? "its id" : "their ids"} came on an earlier page${p.partial ? " or in the kept partial" : ""}`,
    );
}

/** Words for what a run wrote: "1 study", "40 peptides", "3 items". */
function countOf(n: number, result: Result): string {
  const nouns =
    result.kind === "list" || result.kind === "item" || result.kind === "batch"
      ? RESOURCES[result.resource].nouns
      : undefined;
  const [one, many] = nouns ?? ["item", "items"];
  return `${n} ${n === 1 ? one : many}`;
}

/** The failed write to a pipe whose reader has gone (a pager the user quit). */
function brokenPipe(err: unknown): boolean {
  return (err as NodeJS.ErrnoException | undefined)?.code === "EPIPE";
}
