/**
 * Which words of a title must keep their case when a bibliography style lower-cases it
 * (BibTeX's `change.case$`, biblatex's sentence case, pandoc/citeproc). The rule follows
 * Zotero and Better BibTeX, which treat titles as sentence case and keep every capital
 * they did not put there themselves:
 *
 * - a word with a capital after the first letter of one of its hyphen-joined parts:
 *   `mRNA`, `GLP-1`, `McArdle`, `BPC-157` (not `Placebo-Controlled`);
 * - a word with a digit and a letter: `Lunplexin-19`, `p53`, `5-HT2A`;
 * - an all-caps acronym, a single capital letter included: `RCT`, `vitamin D`;
 * - a proper name the record knows: a peptide the study is cited by (`cited_by`,
 *   matched word for word against the title, `thymosin-beta-4` = `Thymosin Beta-4`) and
 *   the capitalised words of the journal's name;
 * - in a sentence-case title (at least half of its ordinary words after the first start in lower case), every
 *   other capitalised word too: the title's author put that capital there on purpose.
 *
 * A title's first word, and the first word after `:`, `.`, `?` or `!`, keep their capital
 * in every style already, so a plain capital there is not protected. A title in Title
 * Case ("Effects Of Sleep On Memory") or in all capitals gets only the first four rules:
 * its capitals say nothing about proper names, and styles may change them.
 */

/** The small words of English titles; also what a citation key skips to find a title's first word (record.ts). */
export const SMALL_WORDS: ReadonlySet<string> = new Set([
  "a",
  "an",
  "the",
  "of",
  "on",
  "in",
  "for",
  "and",
  "or",
  "to",
  "with",
  "from",
  "by",
  "at",
  "as",
  "is",
  "are",
  "its",
  "via",
  "vs",
  "into",
  "after",
  "over",
  "than",
]);

/** A title split into words; `core` runs from the first to the last letter or digit. */
export interface Word {
  before: string;
  core: string;
  after: string;
  /** First word of the title or of a sub-sentence. */
  starts: boolean;
}

export function splitWords(title: string): { words: Word[]; spaces: string[] } {
  const parts = title.split(/(\s+)/);
  const words: Word[] = [];
  const spaces: string[] = [];
  let starts = true;
  parts.forEach((p, i) => {
    if (i % 2 === 1) return void spaces.push(p);
    const m = /^([^\p{L}\p{N}]*)(.*?)([^\p{L}\p{N}]*)$/su.exec(p)!;
    const [, before = "", core = "", after = ""] = m;
    words.push({ before, core, after, starts });
    if (core !== "") starts = /[:.?!]$/.test(after);
    else if (/[:.?!]/.test(before + after)) starts = true;
  });
  return { words, spaces };
}

const hasUpper = (w: string) => /\p{Lu}/u.test(w);
const INNER_CAPITAL = /^.\p{M}*.*\p{Lu}/su;
const DIGIT_AND_LETTER = /(?=.*\p{N})(?=.*\p{L})/su;
const ALL_CAPS = /^(?=.*\p{Lu})[\p{Lu}\p{N}\p{M}\-'’.&/]+$/u;

/** Needs protection wherever it stands (a lone capital letter only inside a sentence). */
function strong(core: string, starts = false): boolean {
  if (core.split(/[-‐–/]/).some((part) => INNER_CAPITAL.test(part)) || DIGIT_AND_LETTER.test(core)) return true;
  return ALL_CAPS.test(core) && !(starts && [...core].length === 1);
}

/** At least half of the ordinary words after the first start in lower case (Zotero keeps titles so). */
function isSentenceCase(words: readonly Word[]): boolean {
  let lower = 0;
  let upper = 0;
  for (const w of words) {
    if (w.starts || !/^\p{L}/u.test(w.core) || strong(w.core) || SMALL_WORDS.has(w.core.toLowerCase())) continue;
    if (/^\p{Lu}/u.test(w.core)) upper++;
    else lower++;
  }
  return lower >= upper;
}

const slugOf = (s: string) => s.toLowerCase().replace(/[\s_]+/g, "-");

/** Indexes of title words that form one of the names (case-insensitive, by slug). */
function namedWords(words: readonly Word[], names: readonly string[]): Set<number> {
  const found = new Set<number>();
  const slugs = new Set(names.map(slugOf).filter((s) => s !== ""));
  if (slugs.size === 0) return found;
  for (let i = 0; i < words.length; i++) {
    let joined = "";
    for (let k = i; k < Math.min(words.length, i + 6); k++) {
      joined += (k === i ? "" : "-") + words[k]!.core.toLowerCase();
      if (slugs.has(joined)) for (let j = i; j <= k; j++) found.add(j);
    }
  }
  return found;
}

export interface KnownNames {
  /** Peptide names or slugs the study is cited by. */
  peptides: readonly string[];
  journal: string | undefined;
}

/** For each word of `words`, whether it must be protected. */
export function protectedWords(words: readonly Word[], known: KnownNames): boolean[] {
  const letters = words.map((w) => w.core).join(" ");
  const shouting = !/\p{Ll}/u.test(letters);
  const sentence = !shouting && isSentenceCase(words);
  const named = namedWords(words, known.peptides);
  const journalWords = new Set(
    splitWords(known.journal ?? "")
      .words.map((w) => w.core)
      .filter((c) => /^\p{Lu}/u.test(c) && !SMALL_WORDS.has(c.toLowerCase())),
  );
  return words.map((w, i) => {
    const c = w.core;
    if (c === "" || !hasUpper(c)) return false;
    if (shouting) return DIGIT_AND_LETTER.test(c);
    if (strong(c, w.starts) || named.has(i) || journalWords.has(c)) return true;
    return sentence && !w.starts;
  });
}
