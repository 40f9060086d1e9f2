import { Writable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { render } from "../../src/output/render.js";
import { capture, list } from "./helpers.js";

/** A pipe that records each write it is given. */
class RecordingSink extends Writable {
  writes: string[] = [];
  override _write(chunk: Buffer | string, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.writes.push(chunk.toString());
    cb();
  }
  text(): string {
    return this.writes.join("");
  }
}

const options = (out: Writable, outIsTTY = false) => ({
  format: "ndjson" as const,
  out,
  outIsTTY,
  columns: 80,
  color: false,
  hyperlinks: false,
  stderr: capture().stream,
  stderrIsTTY: false,
  quiet: false,
});

describe("writes off a terminal", () => {
  it("one page's items go out in one write, before the run waits for the next page", async () => {
    const sink = new RecordingSink();
    const seenDuringWait: string[] = [];
    async function* pages() {
      for (const page of [0, 1, 2]) {
        for (let i = 0; i < 3; i++) yield { id: `p${page}-${i}` };
        // The next page is on its way: what the last page held must be out already.
        await sleep(5);
        seenDuringWait.push(sink.text());
      }
    }
    await render(list("generic", pages()), options(sink));
    const lines = (page: number) => [0, 1, 2].map((i) => `{"id":"p${page}-${i}"}\n`).join("");
    expect(sink.writes).toEqual([lines(0), lines(1), lines(2)]);
    expect(seenDuringWait).toEqual([lines(0), lines(0) + lines(1), lines(0) + lines(1) + lines(2)]);
  });

  it("a list cut by an error still writes every item that arrived", async () => {
    const sink = new RecordingSink();
    async function* failing() {
      yield { id: "a" };
      yield { id: "b" };
      throw new Error("the connection was reset");
    }
    await expect(render(list("generic", failing()), options(sink))).rejects.toThrow("reset");
    expect(sink.text()).toBe('{"id":"a"}\n{"id":"b"}\n');
  });

  it("a terminal gets each item as it comes", async () => {
    const sink = new RecordingSink();
    await render(list("generic", [{ id: "a" }, { id: "b" }]), options(sink, true));
    expect(sink.writes).toEqual(['{"id":"a"}\n', '{"id":"b"}\n']);
  });
});
