/**
 * Display width of text in a terminal, so that tables and cards line up with accents,
 * CJK names and emoji: a grapheme cluster is 0 (combining or format characters), 2 (East
 * Asian wide or fullwidth, emoji presentation) or 1 column wide. Kept here rather than
 * pulled from a dependency because only the table and card writers need it and the
 * rules are short. Input is expected to be cleaned already (no control characters).
 */

const segmenter = new Intl.Segmenter(undefined, { granularity: "grapheme" });

const ZERO_WIDTH = /^[\p{Mn}\p{Me}\p{Cf}\u200b\u2060\ufeff]+$/u;
const EMOJI = /\p{Emoji_Presentation}|\p{Extended_Pictographic}\ufe0f/u;
const WIDE =
  /^[\u1100-\u115f\u2e80-\u303e\u3041-\u33ff\u3400-\u4dbf\u4e00-\u9fff\ua000-\ua4cf\ua960-\ua97f\uac00-\ud7a3\uf900-\ufaff\ufe10-\ufe19\ufe30-\ufe6f\uff00-\uff60\uffe0-\uffe6\u{16fe0}-\u{16fe4}\u{17000}-\u{18aff}\u{1b000}-\u{1b2ff}\u{1f200}-\u{1f251}\u{20000}-\u{3fffd}]/u;

/** Printable ASCII only: the common case, one column per character. */
const ASCII = /^[\x20-\x7e]*$/;

function graphemeWidth(g: string): number {
  if (ZERO_WIDTH.test(g)) return 0;
  if (WIDE.test(g) || EMOJI.test(g)) return 2;
  return 1;
}

export function displayWidth(text: string): number {
  if (ASCII.test(text)) return text.length;
  let w = 0;
  for (const { segment } of segmenter.segment(text)) w += graphemeWidth(segment);
  return w;
}

/** Cuts text to at most `width` columns, ending with "…" when something was cut. */
export function truncate(text: string, width: number): string {
  if (width <= 0) return "";
  if (ASCII.test(text)) return text.length <= width ? text : text.slice(0, width - 1) + "…";
  if (displayWidth(text) <= width) return text;
  let out = "";
  let w = 0;
  for (const { segment } of segmenter.segment(text)) {
    const gw = graphemeWidth(segment);
    if (w + gw > width - 1) break;
    out += segment;
    w += gw;
  }
  return out + "…";
}

/** Pads with spaces to `width` columns (no cut). */
export function padEnd(text: string, width: number): string {
  const w = displayWidth(text);
  return w >= width ? text : text + " ".repeat(width - w);
}

/** Splits a word longer than `width` into pieces of at most `width` columns. */
function breakWord(word: string, width: number): string[] {
  const pieces: string[] = [];
  let cur = "";
  let w = 0;
  for (const { segment } of segmenter.segment(word)) {
    const gw = graphemeWidth(segment);
    if (w + gw > width && cur !== "") {
      pieces.push(cur);
      cur = "";
      w = 0;
    }
    cur += segment;
    w += gw;
  }
  if (cur !== "") pieces.push(cur);
  return pieces;
}

/**
 * Word-wraps text (which may hold `\n`) to lines of at most `width` columns; a word
 * longer than a line is broken. Spaces inside a line are kept as they were.
 */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  const lines: string[] = [];
  for (const para of text.split("\n")) {
    if (displayWidth(para) <= w) {
      lines.push(para.trimEnd());
      continue;
    }
    let line = "";
    let lineW = 0;
    for (const token of para.split(/(\s+)/)) {
      if (token === "") continue;
      const isSpace = /^\s+$/.test(token);
      const tw = displayWidth(token);
      if (isSpace) {
        if (line !== "" && lineW + tw < w) {
          line += token;
          lineW += tw;
        } else if (line !== "") {
          lines.push(line.trimEnd());
          line = "";
          lineW = 0;
        }
        continue;
      }
      if (lineW + tw <= w) {
        line += token;
        lineW += tw;
        continue;
      }
      if (line.trim() !== "") lines.push(line.trimEnd());
      line = "";
      lineW = 0;
      if (tw <= w) {
        line = token;
        lineW = tw;
      } else {
        const pieces = breakWord(token, w);
        const last = pieces.pop() ?? "";
        lines.push(...pieces);
        line = last;
        lineW = displayWidth(last);
      }
    }
    lines.push(line.trimEnd());
  }
  return lines;
}
