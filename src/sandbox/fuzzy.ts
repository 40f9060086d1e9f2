/**
 * Fuzzy name matching for `search`: case-insensitive, blind to hyphens, spaces and
 * accents, and tolerant of one typo in short queries and two in longer ones
 * (approximate substring match, Sellers' algorithm with adjacent transpositions).
 */
/** Compacted forms of the (stable) data strings, so a search does not recompute them. */
const compactCache = new Map<string, string>();
const CACHE_MAX = 200_000;

export function compactText(s: string): string {
  const hit = compactCache.get(s);
  if (hit !== undefined) return hit;
  const c = s
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
  if (compactCache.size >= CACHE_MAX) compactCache.clear();
  compactCache.set(s, c);
  return c;
}

/** Typos allowed for a query of this many (compacted) characters. */
function allowedTypos(length: number): number {
  return length <= 3 ? 0 : length <= 6 ? 1 : 2;
}

/** Smallest edit distance between `q` and any substring of `c`. */
export function substringDistance(q: string, c: string): number {
  const m = q.length;
  const n = c.length;
  let prev2 = new Array<number>(n + 1).fill(0);
  let prev = new Array<number>(n + 1).fill(0);
  for (let i = 1; i <= m; i++) {
    const row = new Array<number>(n + 1);
    row[0] = i;
    for (let j = 1; j <= n; j++) {
      const cost = q[i - 1] === c[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && q[i - 1] === c[j - 2] && q[i - 2] === c[j - 1])
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      row[j] = v;
    }
    prev2 = prev;
    prev = row;
  }
  return Math.min(...prev);
}

const FUZZY_MAX_LENGTH = 80;

/**
 * Score of the best match of `query` against any of `candidates`: 100 exact, 90 prefix,
 * 80 substring, 70/60 with one/two typos, 0 no match.
 */
export function matchScore(query: string, candidates: readonly string[]): number {
  const q = compactText(query);
  if (q === "") return 0;
  let best = 0;
  for (const cand of candidates) {
    const c = compactText(cand);
    if (c === "") continue;
    let score = 0;
    if (c === q) score = 100;
    else if (c.startsWith(q)) score = 90;
    else if (c.includes(q)) score = 80;
    else {
      const allowed = allowedTypos(q.length);
      // Typos are forgiven against names and titles, not long passages (cost and noise).
      if (allowed > 0 && c.length <= FUZZY_MAX_LENGTH) {
        const d = substringDistance(q, c);
        if (d <= allowed) score = 80 - 10 * d;
      }
    }
    if (score > best) best = score;
    if (best === 100) break;
  }
  return best;
}

/** Every word of the query matches (fuzzily) somewhere in the texts; 0 when one does not. */
export function wordsScore(query: string, texts: readonly string[]): number {
  const words = query
    .split(/\s+/)
    .map(compactText)
    .filter((w) => w !== "");
  if (words.length === 0) return 0;
  let total = 0;
  for (const w of words) {
    const s = matchScore(w, texts);
    if (s === 0) return 0;
    total += s;
  }
  return total / words.length;
}
