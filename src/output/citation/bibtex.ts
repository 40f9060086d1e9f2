/**
 * BibTeX entries, one per study, written as they arrive.
 *
 * Text fields are escaped so that BibTeX's brace counting (which ignores backslashes:
 * `\{` still opens a group) always balances, whatever the API sent: `{` and `}` become
 * `\textbraceleft{}` and `\textbraceright{}`, `\` `\textbackslash{}`, `~` and `^` their
 * `\textascii…{}` commands, `& % $ # _` a backslash before them. The only braces in an
 * entry are the ones written here, each closed.
 *
 * Words whose case must survive a style that lower-cases titles (see case.ts) are wrapped
 * whole in one pair of braces, `{Lunplexin-19}`; a protected group never starts with a
 * backslash, which BibTeX would read as a "special character" and case-change anyway.
 * Organisations (names.ts) are one braced author, `{World Health Organization}`.
 *
 * Non-ASCII stays UTF-8, which biblatex/biber, Zotero and JabRef read. DOI and URL are
 * verbatim fields in biblatex, so they are not LaTeX-escaped; only characters that would
 * unbalance braces are percent-encoded. The PMID goes in `pmid` (read by Zotero and
 * citation.js) and in `eprint` with `eprinttype = {pubmed}` (printed by biblatex); an
 * NCT number in `note`.
 */
import type { CitationRecord } from "./record.js";
import type { Name } from "./names.js";
import { protectedWords, splitWords, type KnownNames } from "./case.js";

const SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "{": "\\textbraceleft{}",
  "}": "\\textbraceright{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
};

export function escapeBibtex(text: string): string {
  return text.replace(/[\\{}&%$#_~^]/g, (c) => SPECIAL[c]!);
}

/** The title escaped, with the words that must keep their case braced whole. */
export function protectTitle(title: string, known: KnownNames = { peptides: [], journal: undefined }): string {
  const { words, spaces } = splitWords(title);
  const keep = protectedWords(words, known);
  return words
    .map((w, i) => {
      const core = keep[i] ? `{${escapeBibtex(w.core)}}` : escapeBibtex(w.core);
      return escapeBibtex(w.before) + core + escapeBibtex(w.after) + (spaces[i] ?? "");
    })
    .join("");
}

/** One brace group holding `text`, never read as a special character (`{\\...}`). */
function group(escaped: string): string {
  return escaped.startsWith("\\") ? `{{}${escaped}}` : `{${escaped}}`;
}

function verbatim(text: string): string {
  return text.replace(/[{}\\\s]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0")}`);
}

/** A name part that holds " and " or a comma would be read as two names or parts. */
function namePart(text: string): string {
  const e = escapeBibtex(text);
  return /\band\b|,/i.test(text) ? group(e) : e;
}

function bibName(n: Name): string {
  if (n.literal !== undefined) return group(escapeBibtex(n.literal));
  const family = namePart(n.family ?? "");
  return n.given ? `${family}, ${namePart(n.given)}` : family;
}

export function bibtexEntry(r: CitationRecord): string {
  const fields: [string, string][] = [];
  if (r.authors.length > 0) fields.push(["author", r.authors.map(bibName).join(" and ")]);
  if (r.title) fields.push(["title", protectTitle(r.title, { peptides: r.peptides, journal: r.journal })]);
  if (r.journal) fields.push(["journal", escapeBibtex(r.journal)]);
  if (r.year) fields.push(["year", r.year]);
  if (r.doi) fields.push(["doi", verbatim(r.doi)]);
  if (r.pmid) fields.push(["pmid", r.pmid], ["eprint", r.pmid], ["eprinttype", "pubmed"]);
  if (r.url) fields.push(["url", verbatim(r.url)]);
  if (r.notes.length > 0) fields.push(["note", escapeBibtex(r.notes.join("; "))]);
  const type = r.journal ? "article" : "misc";
  return `@${type}{${r.key},\n${fields.map(([k, v]) => `  ${k} = {${v}},\n`).join("")}}\n`;
}
