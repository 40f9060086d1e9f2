/**
 * Numbers as the API wrote them. JSON.parse turns `9007199254740993` into …992, `1.10`
 * into 1.1, `-0` into 0 and `1e999999` into Infinity, which JSON.stringify then writes
 * as `null`. `parseJsonExact` keeps each such number as an `ExactNumber` holding its
 * source text, and `stringifyExact` writes that text back, so JSON and NDJSON output
 * (and what --jq reads) carry the API's number text unchanged. Numbers that print back
 * as written stay plain numbers. (`JSON.rawJSON` and JSON.parse's source text do the
 * same on Node 22 and later; Node 20 has neither.)
 */

/** A number whose text no JavaScript number holds exactly; reads as its text. */
export class ExactNumber {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
  valueOf(): number {
    return Number(this.text);
  }
  /** For a writer that does not know it (a library's JSON.stringify): the nearest number. */
  toJSON(): number {
    return Number(this.text);
  }
}

/**
 * The index just past the JSON string that starts at `i` (a `"`): the next `"` not
 * escaped by an odd run of backslashes; -1 when the string never ends. The one scanner
 * of JSON strings, for every reader that cuts JSON text without parsing it.
 */
export function jsonStringEnd(text: string, i: number): number {
  for (let j = i + 1; ; ) {
    const q = text.indexOf('"', j);
    if (q === -1) return -1;
    let backslashes = 0;
    for (let k = q - 1; text.charCodeAt(k) === 92; k--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    j = q + 1;
  }
}

/** The number tokens of valid JSON `text` that would not print back as written, by position. */
function inexactNumbers(text: string): Array<{ start: number; end: number }> {
  const found: Array<{ start: number; end: number }> = [];
  for (let i = 0; i < text.length; ) {
    const c = text.charCodeAt(i);
    if (c === 34 /* " */) {
      const j = jsonStringEnd(text, i);
      if (j === -1) return found;
      i = j;
    } else if (c === 45 || (c >= 48 && c <= 57) /* - or a digit */) {
      let j = i + 1;
      while (j < text.length && /[0-9eE+.-]/.test(text[j]!)) j++;
      const token = text.slice(i, j);
      if (JSON.stringify(Number(token)) !== token) found.push({ start: i, end: j });
      i = j;
    } else i++;
  }
  return found;
}

/**
 * JSON.parse, with every number that would not print back as written kept as an
 * `ExactNumber`. Invalid JSON throws JSON.parse's own error.
 */
export function parseJsonExact(text: string): unknown {
  const plain: unknown = JSON.parse(text);
  const inexact = inexactNumbers(text);
  if (inexact.length === 0) return plain;
  const mark = `\u0000${Math.random().toString(36).slice(2)}#`;
  const texts: string[] = [];
  let out = "";
  let at = 0;
  for (const { start, end } of inexact) {
    out += `${text.slice(at, start)}${JSON.stringify(mark + texts.length)}`;
    texts.push(text.slice(start, end));
    at = end;
  }
  out += text.slice(at);
  return JSON.parse(out, (_key, value: unknown) =>
    typeof value === "string" && value.startsWith(mark)
      ? new ExactNumber(texts[Number(value.slice(mark.length))]!)
      : value,
  );
}

/** JSON.stringify, writing each `ExactNumber` as its text. */
export function stringifyExact(value: unknown, indent?: number): string | undefined {
  let mark: string | undefined;
  const texts: string[] = [];
  const json = JSON.stringify(
    value,
    function (this: Record<string, unknown>, key: string, v: unknown) {
      const raw = this[key];
      if (!(raw instanceof ExactNumber)) return v;
      mark ??= `\u0000${Math.random().toString(36).slice(2)}#`;
      texts.push(raw.text);
      return mark + (texts.length - 1);
    },
    indent,
  );
  if (json === undefined || mark === undefined) return json;
  // The mark's NUL is written \u0000: each marked string is replaced by its number's text.
  const written = JSON.stringify(mark).slice(1, -1);
  return json.replace(
    new RegExp(`"${written.replace(/[\\^$.*+?()[\]{}|]/g, "\\$&")}(\\d+)"`, "g"),
    (_m, i: string) => texts[Number(i)]!,
  );
}
