/**
 * RIS records (EndNote, Zotero, Mendeley): `TAG  - value` lines ending in CRLF as the
 * format describes, one record per study ending with `ER  - `. A study with a journal is
 * `JOUR` (journal in `T2`), else `GEN`. The PMID is the accession number (`AN`, with
 * `DB  - PubMed`) and also a `N1` note "PMID: …", which Zotero files in Extra; an NCT
 * number is a note too.
 */
import type { CitationRecord } from "./record.js";
import type { Name } from "./names.js";

const EOL = "\r\n";

function risName(n: Name): string {
  if (n.literal !== undefined) return n.literal;
  return n.given ? `${n.family ?? ""}, ${n.given}` : (n.family ?? "");
}

export function risRecord(r: CitationRecord): string {
  const lines: string[] = [`TY  - ${r.journal ? "JOUR" : "GEN"}`, `ID  - ${r.key}`];
  for (const a of r.authors) lines.push(`AU  - ${risName(a)}`);
  if (r.title) lines.push(`TI  - ${r.title}`);
  if (r.journal) lines.push(`T2  - ${r.journal}`);
  if (r.year) lines.push(`PY  - ${r.year}`);
  if (r.doi) lines.push(`DO  - ${r.doi}`);
  if (r.url) lines.push(`UR  - ${r.url}`);
  if (r.pmid) lines.push(`AN  - ${r.pmid}`, "DB  - PubMed", `N1  - PMID: ${r.pmid}`);
  for (const note of r.notes) lines.push(`N1  - ${note}`);
  lines.push("ER  - ");
  return lines.join(EOL) + EOL;
}
