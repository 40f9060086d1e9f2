/**
 * The spinner on stderr for long list runs ("page 3, 250 items"). It appears only when
 * stderr is a terminal, not with --quiet, and only once a run has lasted a moment, so
 * quick commands never flash it. ora is imported only when it is about to show.
 * Anything else written to stderr must call `stop()` first; data written to a terminal
 * stdout calls `clear()` so rows and the spinner line do not mix.
 */
import type { Writable } from "node:stream";

export interface Progress {
  /** One more item; refreshes the text from the counts (cheap). */
  tick(): void;
  /** Erases the spinner line for now; it comes back on its next frame. */
  clear(): void;
  /** Stops and erases for good. */
  stop(): void;
}

export const NO_PROGRESS: Progress = { tick() {}, clear() {}, stop() {} };

interface Spinner {
  text: string;
  start(): unknown;
  stop(): unknown;
  clear(): unknown;
  isSpinning: boolean;
}

export function startProgress(options: {
  stream: Writable;
  label: string;
  /** Counts to show; `seen` is how many items have passed through so far. */
  counts: (seen: number) => { pages: number; items: number };
  /** Milliseconds before it shows (default 300). */
  delayMs?: number | undefined;
}): Progress {
  let spinner: Spinner | undefined;
  let stopped = false;
  let lastText = "";
  let seen = 0;
  const text = () => {
    const { pages, items } = options.counts(seen);
    return `${options.label}: page ${pages}, ${items} item${items === 1 ? "" : "s"}`;
  };
  const show = async () => {
    // A terminal that reports no width (a pseudo-terminal never sized) would make ora
    // count its line as endless and erase forever: no spinner there.
    if ((options.stream as { columns?: number }).columns === 0) return;
    const { default: ora } = await import("ora");
    if (stopped) return;
    lastText = text();
    spinner = ora({
      text: lastText,
      stream: options.stream as NodeJS.WritableStream,
      isEnabled: true,
      discardStdin: false,
      hideCursor: false,
    }) as unknown as Spinner;
    spinner.start();
  };
  const timer = setTimeout(() => {
    void show().catch(() => undefined);
  }, options.delayMs ?? 300);
  timer.unref?.();
  return {
    tick() {
      seen++;
      if (!spinner || stopped) return;
      const t = text();
      if (t !== lastText) {
        lastText = t;
        spinner.text = t;
      }
    },
    clear() {
      if (spinner && !stopped && spinner.isSpinning) spinner.clear();
    },
    stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      if (spinner) {
        spinner.stop();
        spinner = undefined;
      }
    },
  };
}
