/**
 * The screen tests read what pep printed on a terminal without the spinner's writes
 * (SPINNER_WRITES in test/helpers/hostile-api.ts), so that a run slow enough to show the
 * spinner reads the same as a quick one. Here ora itself draws on a stream that says it
 * is a terminal, with data written between its frames: taken out, exactly the data is left.
 */
import readline from "node:readline";
import { PassThrough } from "node:stream";
import ora from "ora";
import { describe, expect, it } from "vitest";
import { SPINNER_WRITES } from "../helpers/hostile-api.js";

/** A stream that says it is a terminal and moves its cursor as Node's tty.WriteStream does. */
function terminal(): { stream: PassThrough; text: () => string } {
  const stream = new PassThrough();
  let text = "";
  stream.on("data", (c: Buffer) => (text += c.toString("utf8")));
  Object.assign(stream, {
    isTTY: true,
    columns: 80,
    rows: 24,
    cursorTo: (x: number) => readline.cursorTo(stream, x),
    moveCursor: (dx: number, dy: number) => readline.moveCursor(stream, dx, dy),
    clearLine: (dir: -1 | 0 | 1) => readline.clearLine(stream, dir),
  });
  return { stream, text: () => text };
}

describe("the spinner's writes, taken out of a terminal's bytes", () => {
  it("leave exactly the data written around its frames", () => {
    const { stream, text } = terminal();
    const spinner = ora({ stream: stream as unknown as NodeJS.WriteStream, isEnabled: true, text: "page 1, 20 items" });
    spinner.start();
    spinner.render();
    stream.write("ID  NAME\n");
    spinner.text = "page 2, 40 items";
    spinner.render();
    stream.write("p1  One\n");
    spinner.stop();
    expect(text()).toMatch(/\x1b\[\?2026h/);
    expect(text()).toContain("page 2, 40 items");
    expect(text().replace(SPINNER_WRITES, "")).toBe("ID  NAME\np1  One\n");
  });
});
