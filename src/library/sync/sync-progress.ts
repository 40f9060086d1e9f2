/**
 * What a sync says while it runs, on stderr. On a terminal: one line redrawn in place
 * ("studies: 12 pages, 1200 items"), at most ten times a second, erased at the end. Off
 * one (a CI log, a file): plain lines, one when each resource is done and one every
 * LINE_EVERY pages of a long walk. Nothing with --quiet. A skipped resource is one line
 * either way.
 */
import type { Context } from "../../core/command-context.js";
import { progressMode } from "../../output/progress.js";

export interface SyncProgress {
  start(resource: string): void;
  page(resource: string, pages: number, items: number): void;
  details(resource: string, done: number, total: number): void;
  done(resource: string): void;
  skip(resource: string, reason: string): void;
  stop(): void;
}

const LINE_EVERY = 100;
const REDRAW_MS = 100;

export function syncProgress(ctx: Context): SyncProgress {
  const { io } = ctx;
  const quiet = ctx.quiet === true;
  const live = !quiet && io.stderrIsTTY && progressMode(io.stderr, io.env) === "spinner";
  let last = 0;
  let shown = false;
  let pages = 0;
  let items = 0;
  const draw = (text: string, force = false) => {
    if (!live) return;
    const now = Date.now();
    if (!force && now - last < REDRAW_MS) return;
    last = now;
    shown = true;
    io.stderr.write(`\r\x1b[K${text.slice(0, Math.max(10, io.columns - 1))}`);
  };
  const erase = () => {
    if (shown) io.stderr.write("\r\x1b[K");
    shown = false;
  };
  const line = (text: string) => {
    erase();
    ctx.notice(text);
  };
  return {
    start(resource) {
      pages = 0;
      items = 0;
      draw(`Syncing ${resource}…`, true);
    },
    page(resource, p, n) {
      pages = p;
      items = n;
      draw(`Syncing ${resource}: ${p} page${p === 1 ? "" : "s"}, ${n} items`);
      if (!live && !quiet && p % LINE_EVERY === 0) ctx.notice(`sync ${resource}: ${p} pages, ${n} items`);
    },
    details(resource, d, n) {
      draw(`Syncing ${resource}: details ${d}/${n}`);
      if (!live && !quiet && d % (LINE_EVERY * 4) === 0) ctx.notice(`sync ${resource}: details ${d}/${n}`);
    },
    done(resource) {
      if (quiet) return;
      if (live) erase();
      else ctx.notice(`synced ${resource}: ${items} items, ${pages} page${pages === 1 ? "" : "s"}`);
    },
    skip(resource, reason) {
      line(`skipped ${resource}: ${reason}`);
    },
    stop: erase,
  };
}
