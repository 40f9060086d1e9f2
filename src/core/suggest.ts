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
