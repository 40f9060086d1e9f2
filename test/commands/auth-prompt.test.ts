import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { readHidden } from "../../src/commands/auth/prompt.js";
import { InterruptedError } from "../../src/core/errors.js";
import { testIO, type TestIO } from "../../src/core/io.js";

/** A terminal-like stdin: raw mode switches recorded, keys pushed by the test. */
function terminal(): {
  io: TestIO;
  stdin: PassThrough & { setRawMode(m: boolean): void; isRaw: boolean };
  modes: boolean[];
} {
  const modes: boolean[] = [];
  const stdin = Object.assign(new PassThrough(), {
    isRaw: false,
    setRawMode(m: boolean) {
      modes.push(m);
      stdin.isRaw = m;
    },
  });
  const io = { ...testIO({ tty: true }), stdin, stdinIsTTY: true } as TestIO;
  return { io, stdin, modes };
}

describe("hidden key prompt", () => {
  it("reads keys in raw mode without echo, handles backspace, and restores the terminal", async () => {
    const { io, stdin, modes } = terminal();
    const answer = readHidden(io, "Key: ");
    stdin.write("sk_");
    stdin.write("abc\u007fd");
    stdin.write("\r");
    expect(await answer).toBe("sk_abd");
    expect(modes).toEqual([true, false]);
    expect(io.err()).toBe("Key: \n");
    expect(io.out()).toBe("");
  });

  it("takes a pasted key with its Enter in one chunk, and Ctrl-U clears", async () => {
    const { io, stdin } = terminal();
    const answer = readHidden(io, "Key: ");
    stdin.write("wrong\u0015sk_pasted_1234\rignored");
    expect(await answer).toBe("sk_pasted_1234");
  });

  it("turns Ctrl-C into an interruption and still restores the terminal", async () => {
    const { io, stdin, modes } = terminal();
    const answer = readHidden(io, "Key: ");
    stdin.write("sk\u0003");
    await expect(answer).rejects.toBeInstanceOf(InterruptedError);
    expect(modes).toEqual([true, false]);
  });

  it("reads a line without echo from a stream that has no raw mode", async () => {
    const io = testIO({ stdin: "sk_line_9999\nmore\n" });
    expect(await readHidden(io, "Key: ")).toBe("sk_line_9999");
    expect(io.err()).not.toContain("sk_line");
  });
});
