/**
 * Codes people type in either case: country and destination codes (`us`, `us-ca`) and
 * currencies (`usd`), upper-cased before the endpoint schema checks their pattern, so
 * that what is sent is what the user meant.
 */

/** A code such as `us` or `us-ca` -> `US`, `US-CA`; the pattern is the schema's to check. */
export function upperCode(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return String(value).trim().toUpperCase();
}
