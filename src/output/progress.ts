/**
 * Progress on stderr for long list runs ("page 3, 250 items"), and the line that says
 * what the run is waiting for (a rate-limit window, a retry's back-off). Not with
 * --quiet, and only once a run has lasted a moment, so quick commands never flash it.
 * Off a terminal (a CI log: GitHub Actions and GitLab give none even with `CI` set; a
 * file or pipe) it is plain lines, from LINE_DELAY_MS with `CI` set, else from
 * OFF_TERMINAL_DELAY_MS: a long job is never silent for minutes. How it shows on a terminal:
 * - a spinner redrawing one line (a wait shows in it at once, counting down), on a
 *   terminal that can redraw a line; ora is imported only when it is about to show;
 * - plain lines, at most one every few seconds and only when the counts moved, with no
 *   carriage return or escape sequence, where a redrawn line would turn into garbage:
 *   `TERM=dumb` (Emacs's shell and compilation buffers, editors' output panes), a CI
 *   log (`CI` set), a terminal that reports no width. Waits are then notice lines.
 * Without colour (NO_COLOR, --no-color) the spinner's frames are plain. Anything else
 * written to stderr must call `stop()` first; data written to a terminal stdout calls
 * `clear()` so rows and the spinner line do not mix (plain lines stop there: the rows
 * are the progress from then on). Time comes from an injected clock (tests use fake
 * time).
 */
import type { Writable } from "node:stream";

export interface Progress {
  /** One more item; refreshes the text from the counts (cheap). */
  tick(): void;
  /**
   * Data goes to the same terminal: the spinner's line is erased for now (it comes back
   * on its next frame); plain lines stop for good (the rows are the progress now).
   */
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
  render(): unknown;
  isSpinning: boolean;
}

/** Time for progress: now, and timers (each one-shot; an interval re-arms itself). */
export interface ProgressClock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Real time; the timers never keep the process alive. */
export const REAL_TIME: ProgressClock = {
  now: () => Date.now(),
  setTimeout(fn, ms) {
    const t = setTimeout(fn, ms);
    t.unref?.();
    return t;
  },
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

/** A spinner redrawn in place, or plain lines now and then. */
export type ProgressMode = "spinner" | "lines";

/** `CI=true`, `CI=1`, `CI=woodpecker`: anything but empty, `false` or `0`. */
export const isCI = (env: Record<string, string | undefined>) => {
  const ci = env.CI?.trim().toLowerCase();
  return ci !== undefined && ci !== "" && ci !== "false" && ci !== "0";
};

/**
 * How progress shows on this stream (a terminal). A dumb terminal cannot redraw a line;
 * a CI log keeps every frame; a pseudo-terminal never sized would make ora count its line
 * as endless and erase forever. TERM unset is not dumb: Windows consoles leave it unset.
 */
export function progressMode(stream: Writable, env: Record<string, string | undefined>): ProgressMode {
  if ((stream as { columns?: number }).columns === 0) return "lines";
  if (env.TERM === "dumb" || isCI(env)) return "lines";
  return "spinner";
}

/** Whether a spinner can be drawn on this stream at all. */
export function canSpin(stream: Writable, env: Record<string, string | undefined>): boolean {
  return progressMode(stream, env) === "spinner";
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
  /** What the count counts (default item, items): a query's rows. */
  unit?: readonly [string, string] | undefined;
  /** Counts to show; `seen` is how many items have passed through so far. */
  counts?: (seen: number) => { pages: number; items: number };
  /** Milliseconds before the spinner shows (default 300). */
  delayMs?: number | undefined;
  /** Colour the frames (false with NO_COLOR, --no-color). */
  color?: boolean | undefined;
  env?: Record<string, string | undefined>;
  clock?: ProgressClock | undefined;
  /** Plain lines whatever the stream (a CI log, a file or pipe that stderr goes to). */
  mode?: ProgressMode | undefined;
  /** Plain lines: how long the run lasts before the first (default LINE_DELAY_MS). */
  lineDelayMs?: number | undefined;
}

/** Plain lines: the first once the run has lasted this long, then at most one per interval. */
export const LINE_DELAY_MS = 2000;
/**
 * Off a terminal and outside CI (stderr to a file or a pipe): lines only for a run that
 * lasts longer than this, so a quick command in a script says nothing more than before.
 */
export const OFF_TERMINAL_DELAY_MS = 4000;
export const LINE_INTERVAL_MS = 5000;
/** How often plain lines look whether there is something new to say. */
const LINE_POLL_MS = 1000;
/** How often a wait's countdown is redrawn. */
const COUNTDOWN_MS = 250;

/** A wait the line counts down. */
interface Waiting {
  text: (left: string) => string;
  until: number;
}

/** The line: the label with its counts, then the wait being counted down, if any. */
function lineText(options: ProgressOptions, seen: number, waiting: Waiting | undefined, now: number): string {
  const parts: string[] = [];
  if (options.label !== "" && options.counts) {
    const { pages, items } = options.counts(seen);
    // Before the first page, what is fetched (never "page 0, 0 items"); without page
    // counts (a raw paginated body), the items alone.
    const [one, many] = options.unit ?? ["item", "items"];
    const count = `${items} ${items === 1 ? one : many}`;
    parts.push(
      items === 0 && pages === 0
        ? `${options.label}…`
        : pages === 0
          ? `${options.label}: ${count}`
          : `${options.label}: page ${pages}, ${count}`,
    );
  } else if (options.label !== "") parts.push(options.label);
  if (waiting) parts.push(waiting.text(formatWait(waiting.until - now)));
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
  const mode = options.mode ?? progressMode(options.stream, options.env ?? {});
  return mode === "lines" ? startLines(options) : startSpin(options);
}

/**
 * Plain lines: "Fetching studies: page 3, 250 items", each a whole line, at most one per
 * interval and only when the counts moved; none once data reaches the terminal. Waits
 * are not drawn here (false: the caller says them as notice lines).
 */
function startLines(options: ProgressOptions): Progress {
  const clock = options.clock ?? REAL_TIME;
  let seen = 0;
  let last = "";
  let lastAt = Number.NEGATIVE_INFINITY;
  let done = options.label === "" || !options.counts;
  let timer: unknown;
  function look() {
    const now = clock.now();
    const text = lineText(options, seen, undefined, now);
    if (seen > 0 && text !== last && now - lastAt >= LINE_INTERVAL_MS) {
      last = text;
      lastAt = now;
      options.stream.write(`${text}\n`);
    }
    timer = done ? undefined : clock.setTimeout(look, LINE_POLL_MS);
  }
  const stop = () => {
    done = true;
    if (timer !== undefined) clock.clearTimeout(timer);
    timer = undefined;
  };
  if (!done) timer = clock.setTimeout(look, options.lineDelayMs ?? LINE_DELAY_MS);
  return {
    tick: () => void seen++,
    clear: stop,
    stop,
    wait: () => false,
    resume() {},
  };
}

function startSpin(options: ProgressOptions): Progress {
  const clock = options.clock ?? REAL_TIME;
  let spinner: Spinner | undefined;
  let _loading: Promise<void> | undefined;
  let stopped = false;
  let lastText = "";
  let seen = 0;
  let waiting: (Waiting & { timer?: unknown }) | undefined;
  const text = () => lineText(options, seen, waiting, clock.now());
  /** New text for the next frame; `now` redraws at once (a wait's start, countdown and end). */
  const refresh = (now = false) => {
    if (!spinner || stopped) return;
    const t = text();
    if (t !== lastText) {
      lastText = t;
      spinner.text = t;
      if (now) spinner.render();
    }
  };
  const show = async () => {
    if (spinner) return;
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
  const timer = options.label !== "" ? clock.setTimeout(showSoon, options.delayMs ?? 300) : undefined;
  const endWait = () => {
    if (!waiting) return;
    if (waiting.timer !== undefined) clock.clearTimeout(waiting.timer);
    waiting = undefined;
    refresh(true);
  };
  // The countdown is redrawn each quarter second; the line goes back to the counts when it ends.
  const countdown = () => {
    if (!waiting) return;
    if (clock.now() >= waiting.until) return endWait();
    refresh(true);
    waiting.timer = clock.setTimeout(countdown, COUNTDOWN_MS);
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
      if (timer !== undefined) clock.clearTimeout(timer);
      if (waiting?.timer !== undefined) clock.clearTimeout(waiting.timer);
      waiting = undefined;
      if (spinner) {
        spinner.stop();
        spinner = undefined;
      }
    },
    wait(waitText, ms) {
      if (stopped) return false;
      if (waiting?.timer !== undefined) clock.clearTimeout(waiting.timer);
      waiting = { text: waitText, until: clock.now() + ms };
      waiting.timer = clock.setTimeout(countdown, COUNTDOWN_MS);
      refresh(true);
      showSoon();
      return true;
    },
    resume: endWait,
  };
}
