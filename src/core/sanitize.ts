/**
 * Display safety: text from the API never carries terminal control sequences into what
 * we print. A title holding `ESC ] 52 ; ...` could write the user's clipboard, `ESC ] 8`
 * could dress a link as something else, a carriage return or backspace could overwrite
 * what was printed before it, and bidi overrides can make text read differently from
 * what it is. Table, card, TSV, CSV, citation output and error lines all pass through
 * here; JSON keeps every character but writes the dangerous ones as `\uXXXX` (`inertJson`).
 */

/**
 * Whole escape sequences, removed as a unit so that no parameter bytes are left behind:
 * CSI (`ESC [` or C1 0x9B) with its parameters; OSC, DCS, SOS, PM and APC strings (`ESC ]`,
 * `ESC P`, `ESC X`, `ESC ^`, `ESC _` or their C1 forms) up to BEL or ST, or to the end of
 * the text when unterminated (a terminal would swallow the rest too); and any other
 * escape (`ESC` plus intermediates and a final byte).
 */
const ESCAPE_SEQUENCE =
  /(?:\x1b\[|\x9b)[0-?]*[ -/]*[@-~]?|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[ -/]*[0-~]?/g;

/** C0 controls other than tab, newline and carriage return; DEL; C1 controls. */
const OTHER_CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x80-\x9f]/g;

/** Bidi embeddings, overrides and isolates ("Trojan source" reordering). */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/g;

/**
 * Removes escape sequences and every control character except tab, newline and carriage
 * return, which formats that quote their cells (CSV) may carry as data.
 */
export function stripTerminalControls(text: string): string {
  return text.replace(ESCAPE_SEQUENCE, "").replace(OTHER_CONTROLS, "").replace(BIDI_CONTROLS, "");
}

/**
 * Text for a card: line breaks kept (CRLF, a lone CR and the Unicode line separators
 * become `\n`, so a CR can never return to the start of a line and overwrite it), tabs
 * become two spaces so that alignment holds.
 */
export function cleanBlock(text: string): string {
  return stripTerminalControls(text)
    .replace(/\r\n?|[\u2028\u2029]/g, "\n")
    .replace(/\t/g, "  ");
}

/**
 * Characters that print as nothing yet make text differ: zero-width spaces and joiners,
 * bidi marks, the word joiner and invisible operators, the byte order mark, the soft
 * hyphen, and Unicode tags. `bpc\u200b-157` looks like `bpc-157` but is another id.
 */
const INVISIBLE =
  /[\u00ad\u061c\u17b4\u17b5\u180e\u200b-\u200f\u2060-\u2064\u206a-\u206f\ufeff\u{e0000}-\u{e007f}]|\u034f/gu;

/** The same and the bidi embeddings, overrides and isolates, for text that must stay exact (an id). */
const INVISIBLE_OR_BIDI = new RegExp(`${INVISIBLE.source}|[\\u202a-\\u202e\\u2066-\\u2069]`, "gu");

/** Scripts whose letters join or part by ZWJ and ZWNJ (Arabic and Persian, Indic, and others). */
const JOINING_SCRIPT =
  /[\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Mongolian}\p{Script=Devanagari}\p{Script=Bengali}\p{Script=Gurmukhi}\p{Script=Gujarati}\p{Script=Oriya}\p{Script=Tamil}\p{Script=Telugu}\p{Script=Kannada}\p{Script=Malayalam}\p{Script=Sinhala}\p{Script=Tibetan}\p{Script=Myanmar}\p{Script=Khmer}]/u;

/** A pictograph, or what may follow one inside an emoji sequence (a skin tone, VS16, a keycap). */
const EMOJI_PART = /\p{Extended_Pictographic}|\p{Emoji_Modifier}|\ufe0f|\u20e3/u;

/**
 * Whether an invisible character at `at` is part of what the text shows, so that it says
 * nothing hidden: a ZWJ inside an emoji sequence (👩‍🔬), a ZWJ or ZWNJ between letters of
 * a script that joins by them (Persian می‌خواهم, Devanagari क्‍ष), the tags of a subdivision
 * flag (🏴 + tags). Two texts that differ there look different.
 */
function shownAsIs(text: string, at: number, c: string): boolean {
  const prev = codePointBefore(text, at);
  const next = String.fromCodePoint(text.codePointAt(at + c.length) ?? 0x20);
  if (c === "\u200d" && EMOJI_PART.test(prev) && EMOJI_PART.test(next)) return true;
  if ((c === "\u200d" || c === "\u200c") && JOINING_SCRIPT.test(prev) && JOINING_SCRIPT.test(next)) return true;
  const isTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007f;
  if (isTag(c.codePointAt(0)!)) {
    // Back over the tags before it (a few at most in a flag) to what they follow.
    let i = at;
    for (let n = 0; n < 40 && i > 0; n++) {
      const before = codePointBefore(text, i);
      if (!isTag(before.codePointAt(0)!)) return before === "\u{1f3f4}";
      i -= before.length;
    }
  }
  return false;
}

/** The code point that ends just before `at` ("" at the start). */
function codePointBefore(text: string, at: number): string {
  if (at <= 0) return "";
  const low = text.charCodeAt(at - 1);
  if (at >= 2 && low >= 0xdc00 && low <= 0xdfff) {
    const high = text.charCodeAt(at - 2);
    if (high >= 0xd800 && high <= 0xdbff) return text.slice(at - 2, at);
  }
  return text.slice(at - 1, at);
}

/**
 * Invisible characters written as `<U+200B>`, so that text copied from the screen is the
 * text the API holds, and two different values never look alike; those that are part of
 * what the text shows (`shownAsIs`) are left as they are. With `bidi`, also the bidi
 * controls that `stripTerminalControls` would remove.
 */
export function showInvisible(text: string, options: { bidi?: boolean } = {}): string {
  return text.replace(options.bidi ? INVISIBLE_OR_BIDI : INVISIBLE, (c: string, at: number) =>
    shownAsIs(text, at, c) ? c : `<U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}>`,
  );
}

/**
 * Text for one table cell or label (a name, a title), and error lines: everything on one
 * line, runs of breaks and tabs as one space, invisible characters, bidi controls and NUL
 * shown as `<U+202E>`, `<U+0000>`, as in an id (removed, a control would leave a name that
 * looks like another: `nul\0byte` is not `nulbyte`); other controls and escape sequences,
 * which a terminal acts on, removed.
 */
export function cleanLine(text: string): string {
  return stripTerminalControls(showInvisible(text, { bidi: true }).replace(/\0/g, "<U+0000>")).replace(
    /[\t\n\r\u2028\u2029]+/g,
    " ",
  );
}

/** An id as one line: as `cleanLine` (bidi controls shown, not removed). */
export function cleanId(text: string): string {
  return cleanLine(text);
}

/**
 * A TSV field: controls removed, then backslash, tab, newline and carriage return written
 * as `\\`, `\t`, `\n`, `\r` (the convention of PostgreSQL's text format and `mlr`), so a
 * value never splits a row or a column.
 */
export function escapeTsv(text: string): string {
  return stripTerminalControls(text)
    .replace(/[\u2028\u2029]/g, "\n")
    .replace(/[\\\t\n\r]/g, (c) => (c === "\\" ? "\\\\" : c === "\t" ? "\\t" : c === "\n" ? "\\n" : "\\r"));
}

/**
 * A CSV field: line breaks are data there (quoted), but a carriage return not followed by
 * a line feed would send a terminal showing the file back to the start of the line, to
 * print over what was there; it becomes a line feed.
 */
export function csvText(text: string): string {
  return text.replace(/\r(?!\n)/g, "\n");
}

/**
 * One character a terminal acts on or reorders: C0 controls, DEL, C1 controls, the Unicode
 * line separators and bidi controls. For text that must keep every character (a shell
 * word) and so writes these as escapes instead of removing them.
 */
// eslint-disable-next-line no-control-regex
export const ACTIVE_CHAR = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/**
 * `JSON.stringify` escapes C0 controls but passes DEL, C1 controls (0x9B is a CSI to
 * some terminals), bidi overrides and the Unicode line separators through raw. They can
 * only occur inside strings, so writing them as `\uXXXX` keeps the JSON identical once
 * parsed while making it inert on a terminal.
 */
// Not C0: JSON text has its own line breaks between tokens, and escapes C0 in strings.
const UNSAFE_IN_JSON = /[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/** JSON text (from `JSON.stringify`) made safe to print, parsing to the same value. */
export function inertJson(json: string): string {
  return json.replace(UNSAFE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** Longer than this, a URL is no address anyone can use: never a link, never printed whole. */
export const MAX_URL_LENGTH = 2048;

/**
 * A URL that may go inside an OSC 8 hyperlink: http or https only, no whitespace or
 * control characters (which could end the escape sequence early). Anything else gets no
 * link, and is printed as plain, cleaned text instead.
 */
export function safeLinkTarget(url: unknown): string | undefined {
  if (typeof url !== "string" || url.length > MAX_URL_LENGTH) return undefined;
  if (!/^https?:\/\/[^\s\x00-\x1f\x7f-\x9f\u2028\u2029]+$/i.test(url)) return undefined;
  if (/[\u202a-\u202e\u2066-\u2069]/.test(url)) return undefined;
  return url;
}
