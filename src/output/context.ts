/**
 * What every format writer gets from `render()`: the options, a backpressured `emit`
 * for data, `notice` for stderr (which first takes the spinner down), and `each` to walk
 * a list's items with progress and Ctrl-C checks.
 */
import { InterruptedError } from "../errors.js";
import { write } from "../io.js";
import type { Progress } from "./progress.js";
import type { RenderOptions } from "./render.js";
import { cleanBlock } from "./sanitize.js";

export interface WriterContext {
  options: RenderOptions;
  /** `--fields` from the options, else from the result. */
  fields: string[] | undefined;
  /** Writes data to `out`, waiting when its buffer is full. */
  emit(chunk: string): Promise<void> | void;
  /** Writes a line to stderr (unless quiet), after stopping the spinner. */
  notice(line: string): Promise<void> | void;
  /** The items of a list, one at a time, with progress ticks and abort checks. */
  each(items: AsyncIterable<unknown> | Iterable<unknown>): AsyncIterable<unknown>;
  progress: Progress;
}

export function makeContext(options: RenderOptions, fields: string[] | undefined, progress: Progress): WriterContext {
  const check = () => {
    if (options.signal?.aborted) throw new InterruptedError();
  };
  return {
    options,
    fields,
    progress,
    emit(chunk) {
      if (chunk === "") return;
      if (options.outIsTTY) progress.clear();
      return write(options.out, chunk);
    },
    notice(line) {
      progress.stop();
      if (options.quiet) return;
      // Notices name API keys and values (hidden columns, the disclosure): cleaned here, whoever calls.
      const text = cleanBlock(line);
      return write(options.stderr, text.endsWith("\n") ? text : text + "\n");
    },
    async *each(items) {
      check();
      for await (const item of items) {
        check();
        progress.tick();
        yield item;
      }
      check();
    },
  };
}
