/**
 * CSL-JSON items (the citation.js / Zotero / pandoc interchange form): `article-journal`
 * when there is a journal, else `article`; names as `{ family, given }` or `{ literal }`;
 * the NCT number as a note.
 */
import type { CitationRecord } from "./record.js";

export interface CslItem {
  id: string;
  type: "article-journal" | "article";
  title?: string;
  author?: { family?: string; given?: string; literal?: string }[];
  "container-title"?: string;
  issued?: { "date-parts": [[number]] };
  DOI?: string;
  PMID?: string;
  URL?: string;
  note?: string;
}

export function cslItem(r: CitationRecord): CslItem {
  const item: CslItem = { id: r.key, type: r.journal ? "article-journal" : "article" };
  if (r.title) item.title = r.title;
  if (r.authors.length > 0) item.author = r.authors.map((a) => ({ ...a }));
  if (r.journal) item["container-title"] = r.journal;
  if (r.year) item.issued = { "date-parts": [[Number(r.year)]] };
  if (r.doi) item.DOI = r.doi;
  if (r.pmid) item.PMID = r.pmid;
  if (r.url) item.URL = r.url;
  if (r.notes.length > 0) item.note = r.notes.join("\n");
  return item;
}
