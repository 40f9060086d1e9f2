/**
 * `pep changes`: the change log the syncs wrote, oldest first, as a list through the one
 * output pipeline. `--exit-status` makes "changes found" exit CHANGES_FOUND_EXIT.
 */
import { UsageError } from "../../core/errors.js";
import { parseJsonExact } from "../../core/exact-number.js";
import type { Run } from "../../core/command.js";
import { openLibrary, type Library } from "../../library/open.js";
import { CHANGES_FOUND_EXIT, type CHANGES_OPTIONS, SYNC_NAMES } from "./defs.js";

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };

/** `--since`: a condition on the change log, or none. */
export async function sinceCondition(
  since: string | undefined,
  lib: Library,
  now: number,
): Promise<{ where: string; params: unknown[] } | undefined> {
  if (since === undefined) return undefined;
  const v = since.trim();
  if (v.toLowerCase() === "last") {
    const last = await lib.lastSync();
    return { where: "sync_id = ?", params: [last?.id ?? -1] };
  }
  const dur = /^(\d+)\s*([smhdw])$/i.exec(v);
  if (dur)
    return { where: "at > ?", params: [new Date(now - Number(dur[1]) * UNITS[dur[2]!.toLowerCase()]!).toISOString()] };
  const t = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(v)
    ? Date.parse(v.length === 10 ? `${v}T00:00:00Z` : v)
    : Number.NaN;
  if (Number.isNaN(t))
    throw new UsageError(
      `--since must be a date or time (YYYY-MM-DD, or an ISO 8601 time such as 2026-11-01T08:00:00Z), a duration such as 7d, 12h or 30m, or last (got "${since}")`,
    );
  return { where: "at >= ?", params: [new Date(t).toISOString()] };
}

/** A JSON value kept as text in the log, as a value. */
const loggedValue = (text: unknown): unknown => {
  if (typeof text !== "string") return text ?? null;
  try {
    return parseJsonExact(text);
  } catch {
    return text;
  }
};

export const run: Run<typeof CHANGES_OPTIONS> = async ({ opts }, ctx) => {
  const resource = opts.resource?.trim().toLowerCase().replace(/_/g, "-");
  if (resource !== undefined && !(SYNC_NAMES as readonly string[]).includes(resource))
    throw new UsageError(`--resource must be one of: ${SYNC_NAMES.join(", ")} (got "${opts.resource}")`);
  // Checked before the library is opened: a bad value says so even where there is none.
  if (opts.since !== undefined && opts.since.trim().toLowerCase() !== "last")
    await sinceCondition(opts.since, { lastSync: async () => undefined } as unknown as Library, Date.now());
  const lib = await openLibrary(ctx, { write: false });
  const conds: string[] = [];
  const params: unknown[] = [];
  const since = await sinceCondition(opts.since, lib, Date.now());
  if (since) {
    conds.push(since.where);
    params.push(...since.params);
  }
  if (opts.resource !== undefined) {
    conds.push("resource = ?");
    params.push(opts.resource.trim().toLowerCase().replace(/_/g, "-"));
  }
  const rows = await lib.db.all<Record<string, unknown>>(
    `SELECT seq, at, sync_id, resource, id, kind, field, old_value, new_value FROM changes${conds.length ? ` WHERE ${conds.join(" AND ")}` : ""} ORDER BY seq`,
    params,
  );
  const items = rows.map((r) => ({ ...r, old_value: loggedValue(r.old_value), new_value: loggedValue(r.new_value) }));
  async function* each() {
    yield* items;
  }
  return {
    kind: "list",
    resource: "change",
    items: each(),
    meta: () => undefined,
    nextCursor: () => undefined,
    exitCode: opts.exitStatus === true && items.length > 0 ? CHANGES_FOUND_EXIT : undefined,
  };
};
