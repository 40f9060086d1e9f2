import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import type { OutputFormat } from "../../src/api/enums.js";
import { render } from "../../src/output/render.js";
import { capture, list } from "./helpers.js";

const TOTAL = 50_000;

/**
 * A slow pipe: it takes each chunk on the next turn of the event loop and counts the
 * items that reached it, so the test can see how far the producer ran ahead.
 */
class SlowSink extends Writable {
  received = 0;
  maxBuffered = 0;
  /** `marker` matches once inside each item's text; every chunk holds whole items. */
  constructor(private readonly marker: RegExp) {
    super({ highWaterMark: 16 * 1024, decodeStrings: false });
  }
  override _write(chunk: string | Buffer, _enc: BufferEncoding, cb: (e?: Error | null) => void): void {
    this.maxBuffered = Math.max(this.maxBuffered, this.writableLength);
    this.received += chunk.toString().match(this.marker)?.length ?? 0;
    setImmediate(cb);
  }
}

async function measure(format: OutputFormat, marker: RegExp) {
  const sink = new SlowSink(marker);
  let produced = 0;
  let maxLead = 0;
  async function* items() {
    for (let i = 0; i < TOTAL; i++) {
      produced++;
      maxLead = Math.max(maxLead, produced - sink.received);
      yield { id: `item-${i}`, name: `Peptide ${i}`, price: "1000000.00000001", evidence: { level: "preclinical" } };
    }
  }
  const err = capture();
  await render(list("generic", items()), {
    format,
    out: sink,
    outIsTTY: false,
    columns: 80,
    color: false,
    hyperlinks: false,
    stderr: err.stream,
    stderrIsTTY: false,
    quiet: false,
  });
  await new Promise<void>((resolve) => sink.end(resolve));
  return { produced, maxLead, received: sink.received, maxBuffered: sink.maxBuffered };
}

describe("streaming 50,000 items", () => {
  it("json: items are pulled only as the pipe takes them", async () => {
    const r = await measure("json", /"id": "item-/g);
    expect(r.produced).toBe(TOTAL);
    expect(r.received).toBe(TOTAL);
    // The renderer never runs more than a buffer's worth ahead of a slow pipe.
    expect(r.maxLead).toBeLessThan(500);
    expect(r.maxBuffered).toBeLessThan(32 * 1024);
  });

  it("csv: rows are written as items arrive, with backpressure", async () => {
    const r = await measure("csv", /item-\d+,Peptide/g);
    expect(r.received).toBe(TOTAL);
    expect(r.maxLead).toBeLessThan(500);
    expect(r.maxBuffered).toBeLessThan(32 * 1024);
  });

  it("ndjson likewise", async () => {
    const r = await measure("ndjson", /\{"id":"item-/g);
    expect(r.received).toBe(TOTAL);
    expect(r.maxLead).toBeLessThan(500);
  });

  it("the streamed JSON is one valid array of every item", async () => {
    const out = capture();
    async function* items() {
      for (let i = 0; i < TOTAL; i++) yield { n: i, price: "0.10" };
    }
    await render(list("generic", items()), {
      format: "json",
      out: out.stream,
      outIsTTY: false,
      columns: 80,
      color: false,
      hyperlinks: false,
      stderr: capture().stream,
      stderrIsTTY: false,
      quiet: false,
    });
    const parsed = JSON.parse(out.text()) as { n: number; price: string }[];
    expect(parsed).toHaveLength(TOTAL);
    expect(parsed[TOTAL - 1]).toEqual({ n: TOTAL - 1, price: "0.10" });
  });
});
