/**
 * Values of the vendor commands made ready for the endpoint schema: the rating checked
 * as a plain decimal, so that what is sent is what the user meant and the schema's
 * bounds (docs/api.md#parameter-bounds) apply to it; the ids of `compare`. (Codes: `codes.ts`.)
 */
import { LIMITS } from "../enums.js";
import { UsageError } from "../../core/errors.js";

const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

/**
 * `--min-rating`: a plain decimal from 0 to 5, sent as typed (`4.50` stays `4.50`).
 * `Number()` alone would take "", "0x3" or "1e0", which the API need not understand.
 */
export function minRating(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  const s = String(value).trim();
  const bounds = `from ${LIMITS.ratingMin} to ${LIMITS.ratingMax}`;
  if (!DECIMAL.test(s))
    throw new UsageError(`--min-rating must be a number ${bounds}, such as 4 or 4.5 (got "${String(value)}")`);
  const n = Number(s);
  if (n < LIMITS.ratingMin || n > LIMITS.ratingMax)
    throw new UsageError(`--min-rating must be a number ${bounds} (got "${String(value)}")`);
  return s;
}

/** Vendor ids for `compare`: `a b` or `a,b`, each non-empty, no repeats, 2 to 4. */
export function compareIds(args: readonly string[]): string[] {
  const ids = args.flatMap((a) => a.split(",")).map((s) => s.trim());
  const range = `${LIMITS.compareMin} to ${LIMITS.compareMax}`;
  if (ids.some((id) => id === "")) throw new UsageError(`<ids> must not hold an empty id (got "${args.join(" ")}")`);
  if (ids.length < LIMITS.compareMin || ids.length > LIMITS.compareMax) {
    throw new UsageError(`compare needs ${range} vendor ids or slugs (got ${ids.length})`, {
      hints: ["e.g. `pep vendors compare acme-labs peptide-co`"],
    });
  }
  const seen = new Set<string>();
  for (const id of ids) {
    const k = id.toLowerCase();
    if (seen.has(k)) throw new UsageError(`compare names "${id}" twice; give ${range} different vendors`);
    seen.add(k);
  }
  return ids;
}
