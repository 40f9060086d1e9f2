/**
 * A hidden prompt for the key: nothing typed or pasted is echoed, so the key never
 * lands in the terminal's scrollback. On a TTY the terminal goes into raw mode (the
 * terminal itself stops echoing) and keys are read one by one; a stream without raw mode
 * is read a line at a time through node:readline, which echoes nothing.
 */
import { createInterface } from "node:readline";
import type { Readable } from "node:stream";
import { InterruptedError } from "../../core/errors.js";
import type { IO } from "../../core/io.js";

type RawCapable = Readable & { setRawMode?: (mode: boolean) => unknown; isRaw?: boolean };

/** Writes `prompt` to stderr and reads one line without echo. Ctrl-C rejects (exit 130). */
export function readHidden(io: IO, prompt: string): Promise<string> {
  io.stderr.write(prompt);
  const stdin = io.stdin as RawCapable;
  return typeof stdin.setRawMode === "function" ? readRaw(io, stdin) : readLine(io, stdin);
}

function readRaw(io: IO, stdin: RawCapable): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const wasRaw = stdin.isRaw === true;
    let typed = "";
    const finish = (err?: Error) => {
      stdin.off("data", onData);
      stdin.off("end", onEnd);
      io.signal.removeEventListener("abort", onAbort);
      stdin.setRawMode!(wasRaw);
      stdin.pause();
      io.stderr.write("\n");
      if (err) reject(err);
      else resolve(typed);
    };
    const onData = (chunk: Buffer | string) => {
      for (const ch of typeof chunk === "string" ? chunk : chunk.toString("utf8")) {
        switch (ch) {
          case "\r":
          case "\n":
          case "\u0004": // Ctrl-D
            finish();
            return;
          case "\u0003": // Ctrl-C: raw mode turns it into a byte instead of SIGINT
            finish(new InterruptedError());
            return;
          case "\u007f":
          case "\b":
            typed = typed.slice(0, -1);
            break;
          case "\u0015": // Ctrl-U
            typed = "";
            break;
          default:
            if (ch >= " ") typed += ch;
        }
      }
    };
    const onEnd = () => finish();
    const onAbort = () => finish(new InterruptedError());
    stdin.setRawMode!(true);
    stdin.on("data", onData);
    stdin.once("end", onEnd);
    io.signal.addEventListener("abort", onAbort, { once: true });
    stdin.resume();
  });
}

function readLine(io: IO, stdin: Readable): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    // No output stream: readline echoes nothing.
    const rl = createInterface({ input: stdin, terminal: false });
    let done = false;
    const finish = (value: string, err?: Error) => {
      if (done) return;
      done = true;
      io.signal.removeEventListener("abort", onAbort);
      rl.close();
      io.stderr.write("\n");
      if (err) reject(err);
      else resolve(value);
    };
    const onAbort = () => finish("", new InterruptedError());
    rl.once("line", (line) => finish(line));
    rl.once("close", () => finish(""));
    io.signal.addEventListener("abort", onAbort, { once: true });
  });
}
