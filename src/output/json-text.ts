/**
 * JSON text handled as text, for `pep api`: its tokens (strings, numbers, literals) are
 * kept byte for byte and only the whitespace between them changes. A number such as
 * `9007199254740993`, `1.10`, `-0` or `1e400` has no exact JavaScript value, so any
 * round trip through `JSON.parse` and `JSON.stringify` would change it; these do not.
 * Every function takes text that `JSON.parse` has already accepted.
 */

type Visit = (token: string, kind: "open" | "close" | "comma" | "colon" | "string" | "scalar") => void;

/** Calls `visit` with each token of valid JSON `text`, in order, skipping whitespace. */
function eachToken(text: string, visit: Visit): void {
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      i++;
    } else if (c === '"') {
      let j = i + 1;
      while (text[j] !== '"') j += text[j] === "\\" ? 2 : 1;
      visit(text.slice(i, j + 1), "string");
      i = j + 1;
    } else if (c === "{" || c === "[") {
      visit(c, "open");
      i++;
    } else if (c === "}" || c === "]") {
      visit(c, "close");
      i++;
    } else if (c === ",") {
      visit(c, "comma");
      i++;
    } else if (c === ":") {
      visit(c, "colon");
      i++;
    } else {
      let j = i + 1;
      while (j < text.length && !/[\s,:{}[\]"]/.test(text[j]!)) j++;
      visit(text.slice(i, j), "scalar");
      i = j;
    }
  }
}

/** The text on one line, every token as written (for NDJSON). */
export function compactJsonText(text: string): string {
  let out = "";
  eachToken(text, (t) => (out += t));
  return out;
}

/** The text indented by two spaces as `JSON.stringify(v, null, 2)` lays it out, every token as written. */
export function indentJsonText(text: string): string {
  let out = "";
  let depth = 0;
  let justOpened = false;
  const newline = () => `\n${"  ".repeat(depth)}`;
  eachToken(text, (t, kind) => {
    if (kind === "close") {
      depth--;
      out += justOpened ? t : newline() + t;
      justOpened = false;
      return;
    }
    if (justOpened) out += newline();
    justOpened = false;
    if (kind === "open") {
      out += t;
      depth++;
      justOpened = true;
    } else if (kind === "comma") out += `,${newline()}`;
    else if (kind === "colon") out += ": ";
    else out += t;
  });
  return out;
}

/**
 * Parses JSON text, keeping as its source text (a string) every number that would not
 * print back as written: `9007199254740993`, `1.10`, `-0`, `1e400`. For the row formats,
 * whose cells are text anyway.
 */
export function parseKeepingNumbers(text: string): unknown {
  let out = "";
  eachToken(text, (t, kind) => {
    if (kind === "scalar" && t !== "true" && t !== "false" && t !== "null" && JSON.stringify(Number(t)) !== t)
      out += JSON.stringify(t);
    else out += t;
  });
  return JSON.parse(out);
}
