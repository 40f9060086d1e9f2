/**
 * What the user is told while the run waits: a retry's back-off, or a wait for the
 * rate-limit window to reset before the next request (pacing). On a terminal a wait
 * shows in the spinner's line (a line of its own, erased when the wait ends, when no
 * list spinner runs); off a terminal, or on one that cannot redraw a line, it is one
 * notice line; with --quiet, nothing. Pacing waits under a second are not worth a line
 * (--verbose still tells them). While a pager holds the terminal nothing is drawn on
 * it: the lines would land inside the pager's screen.
 */
import type { Writable } from "node:stream";
import { canSpin, formatWait, startProgress, type Progress } from "./progress.js";

/** Pacing waits shorter than this are not shown (only with --verbose). */
export const SHOWN_WAIT_MS = 1000;

export interface Waits {
  /** The list's spinner while one runs (undefined when it stops), and the page it is at. */
  attach(progress: Progress | undefined, page?: () => number): void;
  /** A failed attempt will be retried after `waitMs`. */
  retry(e: { reason: string; waitMs: number; attempt: number; retries: number }): void;
  /** The next request waits `waitMs` for the rate-limit window. */
  pace(waitMs: number): void;
  /** A request went out: the wait is over. */
  done(): void;
  /** A pager holds the terminal from now on. */
  paging(): void;
  /** End of run: erase whatever is shown. */
  stop(): void;
}

export interface WaitsOptions {
  stream: Writable;
  isTTY: boolean;
  quiet: boolean;
  color: boolean;
  env: Record<string, string | undefined>;
  /** A line on stderr (cleaned, unless quiet). */
  notice(line: string): void;
  /** A line on stderr with --verbose only. */
  debug(line: string): void;
}

export function createWaits(o: WaitsOptions): Waits {
  let attached: Progress | undefined;
  let pageOf: (() => number) | undefined;
  let own: Progress | undefined;
  /** `page 3: ` while a list runs, so a log says which page a wait holds up. */
  const onPage = () => (pageOf ? `page ${pageOf()}: ` : "");
  let paged = false;
  const spins = () => o.isTTY && canSpin(o.stream, o.env);
  const endOwn = () => {
    own?.stop();
    own = undefined;
  };
  /** In the spinner's line if there is one (or one can be drawn); false otherwise. */
  const inLine = (text: (left: string) => string, ms: number, alone: boolean): boolean => {
    if (attached?.wait(text, ms)) return true;
    if (!alone || !spins()) return false;
    endOwn();
    own = startProgress({ stream: o.stream, label: "", color: o.color, env: o.env });
    return own.wait(text, ms);
  };
  return {
    attach(progress, page) {
      attached = progress;
      pageOf = progress ? page : undefined;
      if (progress) endOwn();
    },
    retry(e) {
      const at = onPage();
      const text = (left: string) => `${at}${e.reason}; retrying in ${left} (${e.attempt}/${e.retries})`;
      if (o.quiet || paged) {
        if (paged) o.debug(text(formatWait(e.waitMs)));
        return;
      }
      // Without a list spinner a retry keeps its notice line: it tells what went wrong.
      if (!inLine(text, e.waitMs, false)) o.notice(text(formatWait(e.waitMs)));
    },
    pace(waitMs) {
      const at = onPage();
      const text = (left: string) => `${at}rate limit reached; waiting ${left} for the window to reset`;
      if (waitMs < SHOWN_WAIT_MS || o.quiet || paged) {
        o.debug(text(formatWait(waitMs)));
        return;
      }
      if (!inLine(text, waitMs, true)) o.notice(text(formatWait(waitMs)));
    },
    done() {
      attached?.resume();
      endOwn();
    },
    paging() {
      paged = true;
      endOwn();
    },
    stop() {
      endOwn();
    },
  };
}
