/**
 * Where a wait is told: the list spinner's line, a line of its own on a terminal, a
 * notice line off one, nothing with --quiet or while a pager holds the terminal.
 */
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import type { Progress } from "../../src/output/progress.js";
import { createWaits } from "../../src/output/waits.js";

/** A stream that says it is a terminal of 100 columns, and what was written to it. */
function terminal() {
  const s = new PassThrough() as PassThrough & { isTTY: boolean; columns: number };
  s.isTTY = true;
  s.columns = 100;
  let text = "";
  s.on("data", (c: Buffer) => (text += c.toString("utf8")));
  return { stream: s, text: () => text };
}

function setup(o: { isTTY?: boolean; quiet?: boolean; env?: Record<string, string> } = {}) {
  const term = terminal();
  const notices: string[] = [];
  const debugs: string[] = [];
  const waits = createWaits({
    stream: term.stream,
    isTTY: o.isTTY ?? true,
    quiet: o.quiet ?? false,
    color: false,
    env: o.env ?? {},
    notice: (l) => notices.push(l),
    debug: (l) => debugs.push(l),
  });
  return { term, notices, debugs, waits };
}

const RETRY = { reason: "rate limited", waitMs: 2000, attempt: 1, retries: 3 };

describe("waits", () => {
  it("on a terminal without a list spinner a pacing wait takes a line of its own, not a notice; a retry keeps its notice", () => {
    const { notices, debugs, waits } = setup();
    waits.pace(2500);
    expect(notices).toEqual([]);
    expect(debugs).toEqual([]);
    waits.done();
    waits.retry(RETRY);
    expect(notices).toEqual(["rate limited; retrying in 2.0s (1/3)"]);
    waits.stop();
  });

  it("with a list spinner both go in its line, counting down, and leave it when the request goes out", () => {
    const { notices, waits } = setup();
    const shown: string[] = [];
    let resumed = 0;
    const progress: Progress = {
      tick() {},
      clear() {},
      stop() {},
      wait: (text, ms) => {
        shown.push(text(String(ms)));
        return true;
      },
      resume: () => void resumed++,
    };
    waits.attach(progress);
    waits.retry(RETRY);
    waits.pace(3000);
    expect(shown).toEqual([
      "rate limited; retrying in 2000 (1/3)",
      "rate limit reached; waiting 3000 for the window to reset",
    ]);
    waits.done();
    expect(resumed).toBe(1);
    expect(notices).toEqual([]);
    // A spinner that has stopped (a notice took it down) gives the wait back to a notice.
    waits.attach({ ...progress, wait: () => false });
    waits.retry(RETRY);
    expect(notices).toEqual(["rate limited; retrying in 2.0s (1/3)"]);
  });

  it("off a terminal or on a dumb one a wait is one notice line; under a second, with -q or under a pager only --verbose tells it", () => {
    const off = setup({ isTTY: false });
    off.waits.pace(1500);
    expect(off.notices).toEqual(["rate limit reached; waiting 1.5s for the window to reset"]);
    const dumb = setup({ env: { TERM: "dumb" } });
    dumb.waits.pace(12_000);
    expect(dumb.notices).toEqual(["rate limit reached; waiting 12s for the window to reset"]);
    expect(dumb.term.text()).toBe("");
    const short = setup();
    short.waits.pace(400);
    expect(short.notices).toEqual([]);
    expect(short.debugs).toEqual(["rate limit reached; waiting 400 ms for the window to reset"]);
    const quiet = setup({ quiet: true });
    quiet.waits.pace(5000);
    quiet.waits.retry(RETRY);
    expect(quiet.notices).toEqual([]);
    expect(quiet.term.text()).toBe("");
    const paged = setup();
    paged.waits.paging();
    paged.waits.pace(5000);
    expect(paged.notices).toEqual([]);
    expect(paged.term.text()).toBe("");
  });
});
