/**
 * A study (index entry or detail) as the few fields a reference manager needs, read
 * tolerantly, plus citation keys: `family2021word` from the first author's family name,
 * the year and the first significant title word, ASCII-folded, with a, b, c ... added
 * to repeats within one run (deterministic: the same input gives the same keys).
 */
import { cleanLine } from "../../core/sanitize.js";
import { flattenStudyDetail, isPlainObject, NOT_DOCUMENTED } from "../value-paths.js";
import { SMALL_WORDS } from "./case.js";
import { parseAuthors, type Name } from "./names.js";

export interface CitationRecord {
  key: string;
  title: string | undefined;
  authors: Name[];
  journal: string | undefined;
  year: string | undefined;
  doi: string | undefined;
  pmid: string | undefined;
  nct: string | undefined;
  url: string | undefined;
  /** The peptides citing the study (`cited_by`): proper names for case protection. */
  peptides: string[];
  /** Notes for the reference manager: the NCT number, a synthetic record's warning. */
  notes: string[];
}

/** The note every record from the sandbox carries into a reference manager. */
export const SYNTHETIC_NOTE = "Synthetic record from the pep sandbox: not real research";

function text(v: unknown): string | undefined {
  if (v === null || v === undefined || v === NOT_DOCUMENTED) return undefined;
  if (typeof v !== "string" && typeof v !== "number") return undefined;
  const s = cleanLine(String(v)).trim();
  return s === "" ? undefined : s;
}

function first(obj: Record<string, unknown>, keys: readonly string[]): string | undefined {
  for (const k of keys) {
    const v = obj[k];
    const t = isPlainObject(v) ? text(v.name ?? v.title) : text(v);
    if (t !== undefined) return t;
  }
  return undefined;
}

function normaliseDoi(doi: string | undefined): string | undefined {
  if (!doi) return undefined;
  const d = doi.replace(/^(?:https?:\/\/(?:dx\.)?doi\.org\/|doi:\s*)/i, "").trim();
  return d === "" ? undefined : d;
}

/** `cited_by` as names: ids or slugs, or objects with a name, slug or id. */
function peptideNames(v: unknown): string[] {
  if (!Array.isArray(v)) return [];
  return v.flatMap((p) => {
    if (isPlainObject(p)) return [p.name, p.slug, p.id].map(text).filter((t): t is string => t !== undefined);
    const t = text(p);
    return t === undefined ? [] : [t];
  });
}

/** The fields of a study; `key` is left empty for the key maker. */
export function studyRecord(raw: unknown): Omit<CitationRecord, "key"> {
  const data = flattenStudyDetail(raw);
  const o = isPlainObject(data) ? data : {};
  const yearText = first(o, ["publication_year", "year", "published_at", "publication_date", "date"]);
  const year = yearText?.match(/\b(\d{4})\b/)?.[1];
  const pmid = first(o, ["pmid"])?.replace(/^pmid[-:\s]*/i, "");
  return {
    title: first(o, ["title", "name"]),
    authors: parseAuthors(o.authors ?? o.author),
    journal: first(o, ["journal", "journal_name", "container_title", "source"]),
    year,
    doi: normaliseDoi(first(o, ["doi"])),
    pmid: pmid && /^\d+$/.test(pmid) ? pmid : undefined,
    nct: first(o, ["nct_id", "nct", "nct_number"]),
    url: first(o, ["source_url", "url"]),
    peptides: peptideNames(o.cited_by ?? o.peptides),
    notes: [],
  };
}

const FOLD: Record<string, string> = {
  ß: "ss",
  æ: "ae",
  Æ: "AE",
  ø: "o",
  Ø: "O",
  œ: "oe",
  Œ: "OE",
  ł: "l",
  Ł: "L",
  đ: "d",
  Đ: "D",
  þ: "th",
  Þ: "TH",
  ð: "d",
  ı: "i",
};

/** Lower-case ASCII letters and digits only: "Müller-Łódź" -> "mullerlodz". */
export function asciiFold(s: string): string {
  return s
    .replace(/[ßæÆøØœŒłŁđĐþÞðı]/g, (c) => FOLD[c] ?? c)
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

function titleWord(title: string | undefined): string {
  if (!title) return "";
  for (const w of title.split(/[\s\-–—:/]+/)) {
    const f = asciiFold(w);
    if (f !== "" && !SMALL_WORDS.has(f) && /[a-z]/.test(f)) return f;
  }
  return "";
}

function suffix(n: number): string {
  // 1 -> a, 26 -> z, 27 -> aa
  let s = "";
  while (n > 0) {
    n--;
    s = String.fromCharCode(97 + (n % 26)) + s;
    n = Math.floor(n / 26);
  }
  return s;
}

/** Hands out unique keys for one run. */
export class KeyMaker {
  private readonly used: Set<string>;

  /** `taken`: keys already out (an earlier part of the same export). */
  constructor(taken: Iterable<string> = []) {
    this.used = new Set(taken);
  }

  make(rec: Omit<CitationRecord, "key">): string {
    const a = rec.authors[0];
    const family = a ? asciiFold(a.family ?? a.literal?.split(" ")[0] ?? "") : "";
    const base = `${family || "anon"}${rec.year ?? "nd"}${titleWord(rec.title)}`;
    let key = base;
    for (let n = 1; this.used.has(key); n++) key = base + suffix(n);
    this.used.add(key);
    return key;
  }
}

/** Records with keys, for a stream of studies. */
export function recordMaker(
  synthetic: () => boolean = () => false,
  taken: Iterable<string> = [],
): (raw: unknown) => CitationRecord {
  const keys = new KeyMaker(taken);
  return (raw) => {
    const rec = studyRecord(raw);
    const notes = [...(rec.nct ? [`ClinicalTrials.gov: ${rec.nct}`] : []), ...(synthetic() ? [SYNTHETIC_NOTE] : [])];
    return { key: keys.make(rec), ...rec, notes };
  };
}
