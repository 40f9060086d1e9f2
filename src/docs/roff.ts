/**
 * Escaping for roff (man(7)) text. Definitions are written as plain prose with `code`
 * in backticks; these helpers turn them into lines groff reads without warnings:
 * backslashes doubled as `\e`, a leading dot or apostrophe guarded with `\&` (else the
 * line would be a request), hyphens of options and commands as `\-` (a minus sign
 * that copies and searches as `-`), and non-ASCII characters as `\[uXXXX]`.
 */

/** Escapes backslashes and non-ASCII characters; hyphens are left alone. */
export function escapeText(s: string): string {
  let out = "";
  for (const ch of s.replace(/\\/g, "\\e")) {
    const cp = ch.codePointAt(0)!;
    if (cp < 0x80) out += ch === "\t" ? " " : ch;
    else out += `\\[u${cp.toString(16).toUpperCase().padStart(4, "0")}]`;
  }
  return out;
}

/** A command, flag, value or path: every hyphen is a minus sign. */
export function code(s: string): string {
  return escapeText(s).replace(/-/g, "\\-");
}

/** Bold code (`\fB…\fR`). */
export function bold(s: string): string {
  return `\\fB${code(s)}\\fR`;
}

/** Italic code (`\fI…\fR`), for placeholders. */
export function italic(s: string): string {
  return `\\fI${code(s)}\\fR`;
}

/**
 * Prose: `backtick spans` become bold code; a word that starts with `-` (a flag
 * mentioned in passing) gets minus signs; other hyphens stay hyphens.
 */
export function prose(s: string): string {
  const parts = s.split(/(`[^`]*`)/);
  return parts
    .map((part) => {
      if (part.length >= 2 && part.startsWith("`") && part.endsWith("`")) return bold(part.slice(1, -1));
      return escapeText(part)
        .replace(
          /(^|[\s(["'/])(-{1,2}[A-Za-z][\w-]*)/g,
          (_m, pre: string, flag: string) => pre + flag.replace(/-/g, "\\-"),
        )
        .replace(/`/g, "\\(ga");
    })
    .join("");
}

/** Guards a line of text so roff never reads it as a request or control line. */
export function guardLine(line: string): string {
  const trimmed = line.replace(/^\s+/, "");
  return /^[.']/.test(trimmed) ? `\\&${trimmed}` : trimmed;
}

/** Paragraphs (blank-line separated) of prose as roff lines, `.PP` between them. */
export function paragraphs(text: string): string[] {
  const out: string[] = [];
  // A paragraph whose every line is indented (a configuration snippet, a list of names)
  // is shown as typed: filled, its lines would run together.
  const raw = text.split(/\n\s*\n/).filter((p) => p.trim());
  const literal = (p: string) =>
    p
      .split("\n")
      .filter((l) => l.trim())
      .every((l) => l.startsWith("  "));
  raw.forEach((p, i) => {
    if (literal(p)) {
      const lines = p.split("\n").filter((l) => l.trim());
      const margin = Math.min(...lines.map((l) => l.length - l.trimStart().length));
      // `\&` first keeps a line's own indentation, which guardLine would trim.
      const typed = (l: string) => (/^\s/.test(l) ? `\\&${code(l)}` : guardLine(code(l)));
      out.push(...(i > 0 ? [".PP"] : []), ".RS 4", ".nf", ...lines.map((l) => typed(l.slice(margin))), ".fi", ".RE");
      return;
    }
    if (i > 0) out.push(".PP");
    for (const l of p.trim().split("\n")) if (l.trim()) out.push(guardLine(prose(l)));
  });
  return out;
}

/** A quoted macro argument: double quotes inside are written `\(dq`. */
export function quoteArg(s: string): string {
  return `"${s.replace(/"/g, "\\(dq")}"`;
}

/** Lines shown as typed (examples): no filling, every line guarded and escaped. */
export function literalBlock(lines: readonly string[]): string[] {
  return [".PP", ".RS 4", ".nf", ...lines.map((l) => guardLine(code(l))), ".fi", ".RE"];
}
