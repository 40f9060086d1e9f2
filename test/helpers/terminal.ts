/**
 * Running the real `pep` on a real terminal: a pseudo-terminal from util-linux `script`,
 * and a tiny emulator of the sequences ora writes, to read what the screen shows after.
 */
import { spawn, spawnSync } from "node:child_process";
import { BIN } from "./cli.js";

export const hasScript = spawnSync("script", ["--version"]).status === 0;

/** What a terminal shows after the bytes (cursor moves, line erases, carriage returns). */
export function screenLines(raw: string): string[] {
  const lines: string[] = [""];
  let row = 0;
  let col = 0;
  // Keypad modes (ESC = and ESC >, as less writes them) move nothing.
  const re = /\x1b\[([0-9;?]*)([A-Za-z])|\x1b[=>]|\r|\n|[^\x1b\r\n]/gu;
  for (const m of raw.matchAll(re)) {
    const t = m[0];
    if (t === "\x1b=" || t === "\x1b>") continue;
    if (t === "\r") col = 0;
    else if (t === "\n") {
      row++;
      if (lines.length <= row) lines.push("");
      col = 0;
    } else if (m[2] !== undefined) {
      const n = Number.parseInt(m[1] || "1", 10) || 1;
      if (m[2] === "G") col = n - 1;
      else if (m[2] === "A") row = Math.max(0, row - n);
      else if (m[2] === "K") lines[row] = [...lines[row]!].slice(0, col).join("");
    } else {
      const chars = [...lines[row]!];
      while (chars.length < col) chars.push(" ");
      chars[col] = t;
      lines[row] = chars.join("");
      col++;
    }
  }
  return lines;
}

export const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs `pep` with stdin, stdout and stderr on a pseudo-terminal; resolves to the bytes
 * the terminal got. `size` is given to stty (empty: a terminal that reports no width);
 * `redirect` is appended to the command line (e.g. `2>/dev/null`, `>out.txt`); `unset`
 * names variables taken out of the environment; `bin` is the executable's script (an
 * installed copy's bin/pep.js; this checkout's by default).
 */
export function onTerminal(
  argv: string[],
  env: Record<string, string>,
  {
    size = "rows 40 cols 100",
    redirect = "",
    unset = [],
    bin = BIN,
  }: { size?: string; redirect?: string; unset?: readonly string[]; bin?: string } = {},
): Promise<{ code: number | null; screen: string }> {
  const command = `${size ? `stty ${size}; ` : ""}${[process.execPath, bin, ...argv].map(shellQuote).join(" ")}${redirect ? ` ${redirect}` : ""}`;
  return new Promise((resolve) => {
    const child = spawn("script", ["-qec", command, "/dev/null"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: withoutKeys({ ...process.env, COLUMNS: "100", TERM: "xterm-256color", ...env }, unset),
    });
    let screen = "";
    child.stdout.on("data", (c: Buffer) => (screen += c.toString("utf8")));
    child.on("close", (code) => resolve({ code, screen }));
    setTimeout(() => child.kill(), 15_000).unref();
  });
}

/** `env` less the variables named in `keys` (e.g. PAGER, so the default pager is chosen). */
function withoutKeys(env: NodeJS.ProcessEnv, keys: readonly string[]): NodeJS.ProcessEnv {
  const out = { ...env };
  for (const k of keys) delete out[k];
  return out;
}

/** Text as a terminal shows it: colour (SGR) and hyperlink (OSC 8) sequences taken out. */
export const visible = (s: string) => s.replace(/\x1b\[[0-9;]*m|\x1b\]8;;[^\x1b]*\x1b\\/g, "");
