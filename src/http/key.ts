/**
 * The only parts of a key ever shown: its last 4 characters, and nothing at all of a
 * key shorter than 8, where 4 would be half of it or more. One rule for the `-v` log,
 * `auth status` and `config list`.
 */
export function keyTail(key: string): string {
  return key.length >= 8 ? key.slice(-4) : "";
}

/** `****abcd` (`****` for a short key): enough to tell keys apart, never enough to use one. */
export function keyFingerprint(key: string): string {
  return `****${keyTail(key)}`;
}
