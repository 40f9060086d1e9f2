/**
 * Display width of text in a terminal, so that tables and cards line up with accents,
 * CJK names and emoji. The width of a character is string-width's answer (Unicode's
 * East Asian Width data and emoji presentation, kept up to date with Unicode), cutting
 * is cli-truncate's and wrapping wrap-ansi's, so the three always agree with each other
 * and with ora's spinner line. This module is loaded only by the table and card
 * writers. Input is expected to be cleaned already (no control characters).
 */
import cliTruncate from "cli-truncate";
import stringWidth from "string-width";
import wrapAnsi from "wrap-ansi";

/** Printable ASCII only: the common case, one column per character. */
const ASCII = /^[\x20-\x7e]*$/;

export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  return stringWidth(text);
}

/** Cuts text to at most `width` columns, ending with "…" when something was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (ASCII.test(text)) return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
  if (displayWidth(text) <= width) return text;
  const cut = cliTruncate(text, width);
  // A wide character that would straddle the edge is left out rather than overflow.
  return displayWidth(cut) <= width ? cut : cliTruncate(text, width - 1);
}

/** Pads with spaces to `width` columns (no cut). */
export function padEnd(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + " ".repeat(width - w);
}

/**
 * Word-wraps text (which may hold `\n`) to lines of at most `width` columns; a word
 * longer than a line is broken, unless the text holds a URL. Spaces inside a line are kept as they were; lines end
 * without trailing spaces.
 */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  for (const para of text.split("\n")) {
    if (displayWidth(para) <= w) {
      lines.push(para.trimEnd());
      continue;
    }
    // trim: false keeps a paragraph's own indent; the spaces a break fell on are
    // dropped here instead.
    // A URL is never broken (it must still work when copied): a line holding one that is
    // longer than the width is left long, as terminals wrap it without changing it.
    const hard = !/https?:\/\/\S/i.test(para);
    const wrapped = wrapAnsi(para, w, { hard, trim: false }).split("\n");
    wrapped.forEach((l, i) => lines.push((i === 0 ? l : l.trimStart()).trimEnd()));
  }
  return lines;
}

/**
 * Wraps a list of units (a peptide sequence's residues) joined by `sep`, breaking only
 * between units, so that no unit is split across lines; a unit wider than a line is
 * broken as a last resort.
 */
export function wrapUnits(units: readonly string[], sep: string, width: number): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  let line = "";
  for (const [i, unit] of units.entries()) {
    const piece = i < units.length - 1 ? unit + sep : unit;
    const trimmed = piece.trimEnd();
    if (line !== "" && displayWidth(line + trimmed) > w) {
      lines.push(line.trimEnd());
      line = "";
    }
    if (line === "" && displayWidth(trimmed) > w) {
      const parts = wrap(trimmed, w);
      lines.push(...parts.slice(0, -1));
      line = (parts[parts.length - 1] ?? "") + piece.slice(trimmed.length);
      continue;
    }
    line += piece;
  }
  if (line.trimEnd() !== "") lines.push(line.trimEnd());
  return lines;
}
