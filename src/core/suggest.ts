/**
 * "Did you mean": the closest of some names to what the user typed, for every kind of
 * name pep checks (commands, subcommands, enum values, field names), so each says it the
 * same way.
 */

/** The name nearest to `word`, when it is near enough to be a slip: at most a third of its length away. */
export function closest(word: string, names: readonly string[]): string | undefined {
  const typed = word.toLowerCase();
  return names
    .map((n) => [n, editDistance(typed, n.toLowerCase())] as const)
    .filter(([n, d]) => d <= Math.max(1, Math.floor(n.length / 3)))
    .sort((a, b) => a[1] - b[1])[0]?.[0];
}

/** Prefixes that turn a word into its opposite: `clinical` is not a slip of `preclinical`. */
const OPPOSING = /^(?:pre|non|un|in|anti|not|no)[-_ ]?$/;

/**
 * The values `word` means: by a table of the words people use (`clinical` ->
 * `clinical-trial`; case, spaces, hyphens and a plural `s` aside), else the closest
 * spelling, but never a value that is the word with a prefix that turns it into its
 * opposite (`preclinical` for `clinical`).
 */
export function meant(
  word: string,
  names: readonly string[],
  synonyms?: Readonly<Record<string, string | readonly string[]>>,
): string[] {
  const key = word
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, "_");
  const found = synonyms?.[key] ?? synonyms?.[key.replace(/s$/, "")];
  if (found !== undefined) return (typeof found === "string" ? [found] : [...found]).filter((n) => names.includes(n));
  const typed = word.trim().toLowerCase();
  const opposite = (n: string) => {
    const at = n.toLowerCase().indexOf(typed);
    return typed.length > 2 && at > 0 && OPPOSING.test(n.toLowerCase().slice(0, at));
  };
  const best = closest(
    word,
    names.filter((n) => !opposite(n)),
  );
  return best === undefined ? [] : [best];
}

/** "`a`", "`a` or `b`", "`a`, `b` or `c`". */
export function eitherOf(names: readonly string[]): string {
  const q = names.map((n) => `\`${n}\``);
  return q.length <= 1 ? (q[0] ?? "") : `${q.slice(0, -1).join(", ")} or ${q[q.length - 1]}`;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2]![j - 2]! + 1);
      d[i]![j] = v;
    }
  }
  return d[a.length]![b.length]!;
}
