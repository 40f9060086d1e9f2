/**
 * Progress on a terminal, on fake time: the spinner's delay and a wait's countdown in its
 * line; plain lines (at most one every few seconds, whole lines, no carriage return or
 * escape sequence) where a line cannot be redrawn: TERM=dumb, a CI log, a terminal with
 * no width.
 */
import { Writable } from "node:stream";
import { describe, expect, it, vi } from "vitest";
import {
  LINE_DELAY_MS,
  LINE_INTERVAL_MS,
  OFF_TERMINAL_DELAY_MS,
  progressMode,
  startProgress,
  type ProgressClock,
} from "../../src/output/progress.js";

/** Time that moves only when told; due timers run in order as it passes. */
class FakeTime implements ProgressClock {
  private t = 1_000_000;
  private seq = 0;
  private readonly pending = new Map<number, { at: number; fn: () => void }>();
  now(): number {
    return this.t;
  }
  setTimeout(fn: () => void, ms: number): unknown {
    const id = ++this.seq;
    this.pending.set(id, { at: this.t + ms, fn });
    return id;
  }
  clearTimeout(handle: unknown): void {
    this.pending.delete(handle as number);
  }
  advance(ms: number): void {
    const end = this.t + ms;
    for (;;) {
      const due = [...this.pending.entries()].filter(([, p]) => p.at <= end).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.pending.delete(due[0]);
      this.t = due[1].at;
      due[1].fn();
    }
    this.t = end;
  }
  get timers(): number {
    return this.pending.size;
  }
}

/** A terminal's stderr: what was written, as written. */
function terminal(columns = 100) {
  let text = "";
  const stream = new Writable({
    write(chunk: Buffer | string, _enc, cb) {
      text += chunk.toString();
      cb();
    },
  }) as Writable & { isTTY: boolean; columns: number } & Record<string, unknown>;
  stream.isTTY = true;
  stream.columns = columns;
  // What a tty.WriteStream adds, as the escape sequences it writes.
  stream.cursorTo = (x: number) => stream.write(`\x1b[${x + 1}G`);
  stream.clearLine = () => stream.write("\x1b[2K");
  stream.moveCursor = (_dx: number, dy: number) => stream.write(dy < 0 ? `\x1b[${-dy}A` : "");
  return { stream, text: () => text };
}

function run(env: Record<string, string>, columns = 100) {
  const term = terminal(columns);
  const time = new FakeTime();
  let pages = 1;
  let items = 0;
  const progress = startProgress({
    stream: term.stream,
    label: "Fetching studies",
    counts: () => ({ pages, items }),
    color: false,
    env,
    clock: time,
  });
  const add = (n: number, page = pages) => {
    pages = page;
    for (let i = 0; i < n; i++) {
      items++;
      progress.tick();
    }
  };
  return { term, time, progress, add };
}

describe("how progress shows", () => {
  it("a spinner on a terminal that redraws lines; plain lines under TERM=dumb, in CI, with no width", () => {
    const tty = terminal().stream;
    expect(progressMode(tty, { TERM: "xterm-256color" })).toBe("spinner");
    // Windows consoles leave TERM unset, and redraw lines.
    expect(progressMode(tty, {})).toBe("spinner");
    expect(progressMode(tty, { TERM: "xterm-256color", CI: "false" })).toBe("spinner");
    expect(progressMode(tty, { TERM: "dumb" })).toBe("lines");
    expect(progressMode(tty, { TERM: "dumb", INSIDE_EMACS: "29.1,comint" })).toBe("lines");
    expect(progressMode(tty, { TERM: "xterm-256color", CI: "true" })).toBe("lines");
    expect(progressMode(tty, { TERM: "xterm-256color", CI: "1" })).toBe("lines");
    expect(progressMode(terminal(0).stream, { TERM: "xterm-256color" })).toBe("lines");
  });
});

describe("plain lines", () => {
  it("the first once the run has lasted a moment, then at most one per interval, only when the counts moved", () => {
    const { term, time, progress, add } = run({ TERM: "dumb" });
    add(100);
    time.advance(LINE_DELAY_MS - 1);
    expect(term.text()).toBe("");
    time.advance(1);
    expect(term.text()).toBe("Fetching studies: page 1, 100 items\n");
    add(100, 2);
    time.advance(LINE_INTERVAL_MS - 1);
    expect(term.text().split("\n")).toHaveLength(2);
    time.advance(1000);
    expect(term.text()).toBe("Fetching studies: page 1, 100 items\nFetching studies: page 2, 200 items\n");
    // Nothing new, nothing said.
    time.advance(6 * LINE_INTERVAL_MS);
    expect(term.text().split("\n")).toHaveLength(3);
    add(1, 3);
    time.advance(LINE_INTERVAL_MS);
    progress.stop();
    add(50, 4);
    time.advance(10 * LINE_INTERVAL_MS);
    expect(term.text()).toBe(
      "Fetching studies: page 1, 100 items\nFetching studies: page 2, 200 items\nFetching studies: page 3, 201 items\n",
    );
    expect(term.text()).not.toMatch(/[\r\x1b]/);
    expect(time.timers).toBe(0);
  });

  it("a list with its own words (pep sql's rows, which come in no pages) is told in them", () => {
    const term = terminal();
    const time = new FakeTime();
    const progress = startProgress({
      stream: term.stream,
      label: "Running the query",
      unit: ["row", "rows"],
      counts: (seen) => ({ pages: 0, items: seen }),
      color: false,
      env: { TERM: "dumb" },
      clock: time,
    });
    for (let i = 0; i < 1200; i++) progress.tick();
    time.advance(LINE_DELAY_MS);
    progress.stop();
    expect(term.text()).toBe("Running the query: 1200 rows\n");
  });

  it("a quick run says nothing; a wait is not drawn (its notice line says it)", () => {
    const { term, time, progress, add } = run({ TERM: "dumb" });
    add(3);
    expect(progress.wait(() => "rate limit reached", 5000)).toBe(false);
    time.advance(LINE_DELAY_MS - 1);
    progress.stop();
    time.advance(LINE_INTERVAL_MS);
    expect(term.text()).toBe("");
  });

  it("stop once data reaches the terminal: the rows are the progress from then on", () => {
    const { term, time, progress, add } = run({ TERM: "dumb" });
    add(5);
    time.advance(LINE_DELAY_MS);
    progress.clear();
    add(5);
    time.advance(3 * LINE_INTERVAL_MS);
    expect(term.text()).toBe("Fetching studies: page 1, 5 items\n");
  });

  it("in a CI log and on a terminal with no width too", () => {
    for (const [env, columns] of [
      [{ TERM: "xterm-256color", CI: "true" }, 100],
      [{ TERM: "xterm-256color" }, 0],
    ] as const) {
      const { term, time, add } = run(env, columns);
      add(2);
      time.advance(LINE_DELAY_MS);
      expect(term.text()).toBe("Fetching studies: page 1, 2 items\n");
    }
  });
});

describe("the spinner", () => {
  it("shows only once the run has lasted a moment; a wait counts down in its line, then the counts return", async () => {
    const { term, time, progress, add } = run({ TERM: "xterm-256color" });
    add(1);
    time.advance(299);
    // ora is loaded only when it shows: give the import its turn.
    await new Promise((r) => setTimeout(r, 0));
    expect(term.text()).toBe("");
    progress.wait((left) => `rate limit reached; waiting ${left} for the window to reset`, 2000);
    await vi.waitFor(() => expect(term.text()).toContain("waiting 2.0s"));
    const at = term.text().length;
    time.advance(250);
    expect(term.text().slice(at)).toContain("Fetching studies: page 1, 1 item · rate limit reached; waiting 1.8s");
    time.advance(1000);
    expect(term.text()).toContain("waiting 1.0s");
    expect(term.text()).toContain("waiting 750 ms");
    const before = term.text().length;
    time.advance(1000);
    const after = term.text().slice(before);
    expect(after).toContain("Fetching studies: page 1, 1 item");
    expect(after.split("Fetching").at(-1)).not.toContain("waiting");
    progress.stop();
    expect(time.timers).toBe(0);
  });

  it("a quick run never shows it", async () => {
    const { term, time, progress, add } = run({ TERM: "xterm-256color" });
    add(10);
    time.advance(299);
    progress.stop();
    time.advance(1000);
    await new Promise((r) => setTimeout(r, 0));
    expect(term.text()).toBe("");
  });
});

describe("off a terminal (stderr to a CI log, a file or a pipe)", () => {
  function offTerminal(lineDelayMs: number) {
    let text = "";
    const stream = new Writable({
      write(chunk: Buffer | string, _enc, cb) {
        text += chunk.toString();
        cb();
      },
    });
    const time = new FakeTime();
    let items = 0;
    const progress = startProgress({
      stream,
      label: "Fetching studies",
      counts: () => ({ pages: Math.ceil(items / 100), items }),
      env: {},
      clock: time,
      mode: "lines",
      lineDelayMs,
    });
    const add = (n: number) => {
      for (let i = 0; i < n; i++) {
        items++;
        progress.tick();
      }
    };
    return { text: () => text, time, progress, add };
  }

  it("outside CI: nothing for a run shorter than OFF_TERMINAL_DELAY_MS, then plain lines at most one every 5 s", () => {
    const { text, time, progress, add } = offTerminal(OFF_TERMINAL_DELAY_MS);
    add(100);
    time.advance(OFF_TERMINAL_DELAY_MS - 1);
    expect(text()).toBe("");
    time.advance(1);
    expect(text()).toBe("Fetching studies: page 1, 100 items\n");
    for (let s = 0; s < 30; s++) {
      add(10);
      time.advance(1000);
    }
    const lines = text().trim().split("\n");
    // 30 s more at a new count each second: one line per 5 s, no more.
    expect(lines.length).toBeLessThanOrEqual(1 + 30 / (LINE_INTERVAL_MS / 1000));
    expect(lines.length).toBeGreaterThanOrEqual(6);
    expect(text()).not.toMatch(/[\r\x1b]/);
    progress.stop();
    expect(time.timers).toBe(0);
  });

  it("in CI: the first line from LINE_DELAY_MS", () => {
    const { text, time, add } = offTerminal(LINE_DELAY_MS);
    add(5);
    time.advance(LINE_DELAY_MS);
    expect(text()).toBe("Fetching studies: page 1, 5 items\n");
  });
});
