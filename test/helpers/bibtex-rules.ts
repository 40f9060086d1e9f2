/**
 * A .bib file read by BibTeX 0.99d's own rules (bibtex.web), to check what BibTeX itself
 * would do with an export, without TeX installed:
 *
 * - text outside an entry is a comment; an entry starts at `@`, then its type, then `{`
 *   or `(`, its key up to a comma, then `name = value` fields;
 * - a braced value ends at the brace that balances its first one, counting every `{` and
 *   `}` (a backslash does not escape a brace): an unbalanced title swallows what follows,
 *   the next entry included, exactly as BibTeX does;
 * - `change.case$` with "t" (plain.bst's titles): lower-case every letter at brace depth
 *   0 except the first character and the first after a colon and white space; a group
 *   at depth 1 that starts with a backslash is a "special character" and is
 *   lower-cased too, any other group is left alone.
 */

export interface BibEntry {
  type: string;
  key: string;
  /** Field values as written, without their outer braces or quotes. */
  fields: Record<string, string>;
}

class Reader {
  i = 0;
  constructor(readonly s: string) {}
  fail(what: string): never {
    throw new Error(
      `${what} at offset ${this.i}: ${JSON.stringify(this.s.slice(Math.max(0, this.i - 40), this.i + 40))}`,
    );
  }
  ws(): void {
    while (this.i < this.s.length && /\s/.test(this.s[this.i]!)) this.i++;
  }
  ident(): string {
    const m = /^[^\s"#%'(),={}]+/.exec(this.s.slice(this.i));
    if (!m) this.fail("expected a name");
    this.i += m[0].length;
    return m[0];
  }
  /** From an opening brace to the brace that balances it; the text between. */
  braced(): string {
    const start = ++this.i;
    for (let depth = 1; this.i < this.s.length; this.i++) {
      const c = this.s[this.i];
      if (c === "{") depth++;
      else if (c === "}" && --depth === 0) return this.s.slice(start, this.i++);
    }
    this.fail("unbalanced braces: the value runs to the end of the file");
  }
  quoted(): string {
    const start = ++this.i;
    for (let depth = 0; this.i < this.s.length; this.i++) {
      const c = this.s[this.i];
      if (c === "{") depth++;
      else if (c === "}") depth--;
      else if (c === '"' && depth === 0) return this.s.slice(start, this.i++);
    }
    this.fail("unterminated quoted value");
  }
  value(): string {
    let out = "";
    for (;;) {
      this.ws();
      const c = this.s[this.i];
      if (c === "{") out += this.braced();
      else if (c === '"') out += this.quoted();
      else out += this.ident();
      this.ws();
      if (this.s[this.i] !== "#") return out;
      this.i++;
    }
  }
}

/** Every entry of a .bib file as BibTeX splits it; throws where BibTeX would report an error. */
export function readBibEntries(text: string): BibEntry[] {
  const r = new Reader(text);
  const entries: BibEntry[] = [];
  for (;;) {
    const at = text.indexOf("@", r.i);
    if (at < 0) return entries;
    r.i = at + 1;
    r.ws();
    const type = r.ident().toLowerCase();
    if (type === "comment") continue;
    r.ws();
    const open = text[r.i];
    if (open !== "{" && open !== "(") r.fail("expected { or ( after the entry type");
    const close = open === "{" ? "}" : ")";
    r.i++;
    r.ws();
    const keyEnd = text.slice(r.i).search(/[,\s}]/);
    const key = text.slice(r.i, r.i + keyEnd);
    r.i += keyEnd;
    const fields: Record<string, string> = {};
    for (;;) {
      r.ws();
      if (text[r.i] === close) {
        r.i++;
        break;
      }
      if (text[r.i] !== ",") r.fail("expected , or the end of the entry");
      r.i++;
      r.ws();
      if (text[r.i] === close) {
        r.i++;
        break;
      }
      const name = r.ident().toLowerCase();
      r.ws();
      if (text[r.i] !== "=") r.fail(`expected = after ${name}`);
      r.i++;
      if (name in fields) r.fail(`repeated field ${name}`);
      fields[name] = r.value();
    }
    entries.push({ type, key, fields });
  }
}

/** Brace groups at depth 1 that BibTeX takes for special characters (`{\...}`). */
export function specialCharacters(value: string): string[] {
  const found: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    if (value[i] === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (value[i] === "}") {
      depth--;
      if (depth === 0 && value[start + 1] === "\\") found.push(value.slice(start, i + 1));
    }
  }
  return found;
}

/** BibTeX's `change.case$` with "t", as plain.bst applies it to titles. */
export function changeCaseT(value: string): string {
  let out = "";
  let depth = 0;
  let special = false;
  for (let i = 0; i < value.length; i++) {
    const c = value[i]!;
    if (c === "{") {
      if (depth === 0) special = value[i + 1] === "\\";
      depth++;
      out += c;
    } else if (c === "}") {
      depth--;
      out += c;
    } else if (depth > 0 && !special) {
      out += c;
    } else {
      // The first character, and the first after ": " keep their case.
      const keep = i === 0 || (/\s/.test(value[i - 1] ?? "") && /:\s*$/.test(value.slice(0, i)));
      out += keep ? c : c.toLowerCase();
    }
  }
  return out;
}

/** The text with its brace groups opened and a few commands this project writes read back. */
export function plainText(value: string): string {
  return value
    .replace(/\\textbraceleft\{\}/g, "\u0001")
    .replace(/\\textbraceright\{\}/g, "\u0002")
    .replace(/\\textbackslash\{\}/g, "\u0003")
    .replace(/\\textasciitilde\{\}/g, "~")
    .replace(/\\textasciicircum\{\}/g, "^")
    .replace(/\\([&%$#_])/g, "$1")
    .replace(/[{}]/g, "")
    .replace(/\u0001/g, "{")
    .replace(/\u0002/g, "}")
    .replace(/\u0003/g, "\\");
}
