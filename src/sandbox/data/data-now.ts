/**
 * The sandbox's fixed "now" for its data: offer freshness (30 days), review dates and
 * publication years are all relative to it, so responses never change with the wall clock
 * and ETags stay stable. Rate-limit windows use a separate, injectable clock.
 */
export const DATA_NOW_MS = Date.UTC(2025, 5, 1, 0, 0, 0);
export const DATA_NOW_ISO = new Date(DATA_NOW_MS).toISOString().replace(".000Z", "Z");
export const DAY_MS = 86_400_000;

/** ISO 8601 UTC without milliseconds. */
export function isoAt(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
}

export function daysBeforeNow(days: number, extraMs = 0): string {
  return isoAt(DATA_NOW_MS - days * DAY_MS - extraMs);
}
