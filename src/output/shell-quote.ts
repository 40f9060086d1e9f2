import { ACTIVE_CHAR } from "../core/sanitize.js";

/**
 * A word the shell reads back as it is: plain, or single-quoted; a word holding control
 * characters or bidi overrides (a cursor from a hostile API) is written ANSI-C quoted,
 * `$'a\x1b…'`, so that it prints inert and bash, zsh and ksh still read the exact word.
 */
export function shellQuote(word: string): string {
  if (/^[\w@%+=:,./-]+$/.test(word)) return word;
  if (!ACTIVE_CHAR.test(word)) return `'${word.replace(/'/g, `'\\''`)}'`;
  let body = "";
  for (const c of word) {
    const code = c.codePointAt(0)!;
    if (c === "'" || c === "\\") body += `\\${c}`;
    // \xHH is a byte to the shell, so C1 controls (two bytes in UTF-8) are written \uHHHH.
    else if (ACTIVE_CHAR.test(c))
      body += code < 0x80 ? `\\x${code.toString(16).padStart(2, "0")}` : `\\u${code.toString(16).padStart(4, "0")}`;
    else body += c;
  }
  return `$'${body}'`;
}
