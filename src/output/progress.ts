/**
 * The spinner on stderr for long list runs ("page 3, 250 items"), and the line that
 * says what the run is waiting for (a rate-limit window, a retry's back-off). It
 * appears only when stderr is a terminal, not with --quiet, and only once a run has
 * lasted a moment, so quick commands never flash it; a wait shows at once. Without
 * colour (NO_COLOR, --no-color, TERM=dumb) the frames are plain; a dumb terminal gets
 * no spinner at all, since it cannot redraw a line. ora is imported only when it is
 * about to show. Anything else written to stderr must call `stop()` first; data written
 * to a terminal stdout calls `clear()` so rows and the spinner line do not mix.
 */
import type { Writable } from "node:stream";

export interface Progress {
  /** One more item; refreshes the text from the counts (cheap). */
  tick(): void;
  /** Erases the spinner line for now; it comes back on its next frame. */
  clear(): void;
  /** Stops and erases for good. */
  stop(): void;
  /**
   * Shows what the run waits for in the spinner's line, counting down `ms`, until the
   * wait is over or `resume()`. False when there is no line to show it in.
   */
  wait(text: (left: string) => string, ms: number): boolean;
  /** The wait is over: back to the counts. */
  resume(): void;
}

export const NO_PROGRESS: Progress = { tick() {}, clear() {}, stop() {}, wait: () => false, resume() {} };

interface Spinner {
  text: string;
  start(): unknown;
  stop(): unknown;
  clear(): unknown;
  isSpinning: boolean;
}

/** Whether a spinner can be drawn on this stream at all. */
export function canSpin(stream: Writable, env: Record<string, string | undefined>): boolean {
  // A terminal that reports no width (a pseudo-terminal never sized) would make ora
  // count its line as endless and erase forever; a dumb terminal cannot redraw a line.
  return (stream as { columns?: number }).columns !== 0 && env.TERM !== "dumb";
}

/** "4.2s", "12s": a wait as the line shows it. */
export function formatWait(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = ms / 1000;
  return s < 10 ? `${s.toFixed(1)}s` : `${Math.round(s)}s`;
}

export interface ProgressOptions {
  stream: Writable;
  /** "Fetching studies"; empty for a line that only ever shows waits. */
  label: string;
  /** Counts to show; `seen` is how many items have passed through so far. */
  counts?: (seen: number) => { pages: number; items: number };
  /** Milliseconds before it shows (default 300). */
  delayMs?: number | undefined;
  /** Colour the frames (false with NO_COLOR, --no-color, TERM=dumb). */
  color?: boolean | undefined;
  env?: Record<string, string | undefined>;
}

/** A wait the line counts down. */
interface Waiting {
  text: (left: string) => string;
  until: number;
  timer: NodeJS.Timeout;
}

/** The line: the label with its counts, then the wait being counted down, if any. */
function lineText(options: ProgressOptions, seen: number, waiting: Waiting | undefined): string {
  const parts: string[] = [];
  if (options.label !== "" && options.counts) {
    const { pages, items } = options.counts(seen);
    parts.push(`${options.label}: page ${pages}, ${items} item${items === 1 ? "" : "s"}`);
  } else if (options.label !== "") parts.push(options.label);
  if (waiting) parts.push(waiting.text(formatWait(waiting.until - Date.now())));
  return parts.join(" · ");
}

/** An ora spinner on the stream, started; ora is loaded only now. */
async function startSpinner(options: ProgressOptions, text: () => string, live: () => boolean) {
  const { default: ora } = await import("ora");
  if (!live()) return undefined;
  const spinner = ora({
    text: text(),
    stream: options.stream as NodeJS.WritableStream,
    isEnabled: true,
    discardStdin: false,
    hideCursor: false,
    color: options.color === false ? false : "cyan",
  }) as unknown as Spinner;
  spinner.start();
  return spinner;
}

export function startProgress(options: ProgressOptions): Progress {
  let spinner: Spinner | undefined;
  let _loading: Promise<void> | undefined;
  let stopped = false;
  let lastText = "";
  let seen = 0;
  let waiting: Waiting | undefined;
  const enabled = canSpin(options.stream, options.env ?? {});
  const text = () => lineText(options, seen, waiting);
  const refresh = () => {
    if (!spinner || stopped) return;
    const t = text();
    if (t !== lastText) {
      lastText = t;
      spinner.text = t;
    }
  };
  const show = async () => {
    if (!enabled || spinner) return;
    const firstText = () => {
      lastText = text();
      return lastText;
    };
    const started = await startSpinner(options, firstText, () => !stopped && !spinner);
    if (started) spinner = started;
  };
  const showSoon = () => {
    _loading ??= show().catch(() => undefined);
  };
  const timer = options.label !== "" ? setTimeout(showSoon, options.delayMs ?? 300) : undefined;
  timer?.unref?.();
  const endWait = () => {
    if (!waiting) return;
    clearInterval(waiting.timer);
    waiting = undefined;
    refresh();
  };
  return {
    tick() {
      seen++;
      refresh();
    },
    clear() {
      if (spinner && !stopped && spinner.isSpinning) spinner.clear();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      if (waiting) clearInterval(waiting.timer);
      waiting = undefined;
      if (spinner) {
        spinner.stop();
        spinner = undefined;
      }
    },
    wait(waitText, ms) {
      if (!enabled || stopped) return false;
      if (waiting) clearInterval(waiting.timer);
      const until = Date.now() + ms;
      // The countdown ticks each quarter second; the line goes back to the counts when it ends.
      const tick = setInterval(() => (Date.now() >= until ? endWait() : refresh()), 250);
      tick.unref?.();
      waiting = { text: waitText, until, timer: tick };
      refresh();
      showSoon();
      return true;
    },
    resume: endWait,
  };
}
