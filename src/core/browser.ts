/**
 * Which program opens a web page (`pep browse`, `--web`), as gh and git choose it:
 * `PEP_BROWSER`, else `BROWSER` (a command with arguments; `%s` stands for the address,
 * else it is added last), else the platform's opener: `open` on macOS, `rundll32
 * url.dll,FileProtocolHandler` on Windows, `xdg-open` elsewhere.
 *
 * The result is an argument vector, run without a shell (io.ts `launchDetached`): an
 * address, which may come from the API, is one argument and nothing in it is ever read
 * as shell syntax. Windows gets `rundll32` rather than `cmd /c start`, because cmd reads
 * `&`, `|` and `^` inside an argument as its own syntax. Nothing here touches the process.
 */

export type Opener = { argv: string[]; via: string } | { none: string };

/** The program that opens `url` here, or why there is none. */
export function openerFor(url: string, env: Record<string, string | undefined>, platform: string): Opener {
  for (const name of ["PEP_BROWSER", "BROWSER"]) {
    const value = env[name]?.trim();
    if (!value) continue;
    const words = commandWords(value);
    if (!words || words.length === 0) return { none: `${name} is not a command pep can run (an unclosed quote?)` };
    const placed = words.some((w) => w.includes("%s"));
    const argv = placed ? words.map((w) => w.split("%s").join(url)) : [...words, url];
    return { argv, via: name };
  }
  if (platform === "darwin") return { argv: ["open", url], via: "open" };
  if (platform === "win32") return { argv: ["rundll32", "url.dll,FileProtocolHandler", url], via: "rundll32" };
  // A Linux or BSD session with no display (ssh, a console, a container) has no browser
  // for xdg-open to start: it would fail after pep has gone, or start a text browser
  // without a terminal. The address is printed instead.
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY)
    return {
      none: "there is no graphical display here (DISPLAY and WAYLAND_DISPLAY are unset); set BROWSER to open pages",
    };
  return { argv: ["xdg-open", url], via: "xdg-open" };
}

/**
 * A command line split into words as a POSIX shell would, quotes and backslashes
 * honoured, but nothing expanded or run (`$HOME`, `;` and backticks stay literal text).
 * Undefined for an unclosed quote.
 */
export function commandWords(line: string): string[] | undefined {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!)) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) return undefined;
  if (inWord) words.push(word);
  return words;
}
