/**
 * Reading the change log the syncs write (`changes`): `--since` as a condition on it (a
 * date or time, a duration, or `last`), and a logged value as a value. `pep changes`
 * (commands/library/changes.ts) and `pep mcp`'s library_changes tool read it here.
 */
import { UsageError } from "../core/errors.js";
import { parseJsonExact } from "../core/exact-number.js";
import type { Queryable } from "./db.js";
import { lastSyncsCondition } from "./sync/sync-records.js";

/** `--since`: a condition on the change log, or none. */
export async function sinceCondition(
  since: string | undefined,
  db: Queryable | undefined,
  now: number,
): Promise<{ where: string; params: unknown[] } | undefined> {
  if (since === undefined) return undefined;
  const v = since.trim();
  if (v.toLowerCase() === "last") return db ? lastSyncsCondition(db) : undefined;
  const dur = (await import("./freshness.js")).durationMs(v);
  if (dur !== undefined) return { where: "at > ?", params: [new Date(now - dur).toISOString()] };
  const t = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)
    ? Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v)
    : Number.NaN;
  if (Number.isNaN(t))
    throw new UsageError(
      `--since must be a date or time (YYYY-MM-DD, or an ISO 8601 time such as 2026-11-01T08:00:00Z), a duration such as 7d, 12h or 30m, or last (the last complete sync, with the syncs cut short since the one before it) (got "${since}")`,
    );
  return { where: "at >= ?", params: [new Date(t).toISOString()] };
}

/** A JSON value kept as text in the log, as a value. */
export const loggedValue = (text: unknown): unknown => {
  if (typeof text !== "string") return text ?? null;
  try {
    return parseJsonExact(text);
  } catch {
    return text;
  }
};
