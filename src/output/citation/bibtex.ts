/**
 * BibTeX entries, one per study, written as they arrive. Text fields are escaped for
 * LaTeX (`{ } & % $ # _ ~ ^ \`); words with inner capitals (BPC-157, GLP-1, mRNA) are
 * braced so styles that lower-case titles keep them. Non-ASCII stays UTF-8, which
 * biblatex/biber, Zotero and JabRef read. DOI and URL are verbatim fields in biblatex,
 * so they are not LaTeX-escaped; only characters that would unbalance braces are
 * percent-encoded. The PMID goes in `pmid` (read by Zotero and citation.js) and in
 * `eprint` with `eprinttype = {pubmed}` (printed by biblatex); an NCT number in `note`.
 */
import type { CitationRecord } from "./record.js";
import type { Name } from "./names.js";

const SPECIAL: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "{": "\\{",
  "}": "\\}",
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

/** Braces around words whose capitals are not just a leading one. */
export function protectTitle(title: string): string {
  return title
    .split(/(\s+)/)
    .map((w) => {
      const e = escapeBibtex(w);
      return /^\s*$/.test(w) || !/\p{Lu}/u.test(w.slice(1)) ? e : `{${e}}`;
    })
    .join("");
}

function verbatim(text: string): string {
  return text.replace(/[{}\\\s]/g, (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"));
}

function bibName(n: Name): string {
  if (n.literal !== undefined) return `{${escapeBibtex(n.literal)}}`;
  const fam = escapeBibtex(n.family ?? "");
  // A family name holding " and " or a comma would be read as two names.
  const family = /\band\b|,/i.test(n.family ?? "") ? `{${fam}}` : fam;
  return n.given ? `${family}, ${escapeBibtex(n.given)}` : family;
}

export function bibtexEntry(r: CitationRecord): string {
  const fields: [string, string][] = [];
  if (r.authors.length > 0) fields.push(["author", r.authors.map(bibName).join(" and ")]);
  if (r.title) fields.push(["title", protectTitle(r.title)]);
  if (r.journal) fields.push(["journal", escapeBibtex(r.journal)]);
  if (r.year) fields.push(["year", r.year]);
  if (r.doi) fields.push(["doi", verbatim(r.doi)]);
  if (r.pmid) fields.push(["pmid", r.pmid], ["eprint", r.pmid], ["eprinttype", "pubmed"]);
  if (r.url) fields.push(["url", verbatim(r.url)]);
  if (r.nct) fields.push(["note", `ClinicalTrials.gov: ${escapeBibtex(r.nct)}`]);
  const type = r.journal ? "article" : "misc";
  return `@${type}{${r.key},\n${fields.map(([k, v]) => `  ${k} = {${v}},\n`).join("")}}\n`;
}
